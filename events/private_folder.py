"""A folder only this user controls, and files in it that no one else can plant.

The store's data directory (server/data_dir.py) and a client's receipts folder
(clients/receipts.py: its receipts and `nonce.key`) hold what another local account must
neither read, write nor choose. Such an account may have made the folder first (under
/tmp, say) or own a directory on its path: then it could plant its own `nonce.key` (and
know every nonce the client will send before it is sent) or a symlink in place of a
receipts file (and make the client append to a file of its owner's choosing, or drop
receipts). So a folder's path is resolved once, component by component, and refused if any
component is a symlink or directory of another user, or a directory on the way others may
write without the sticky bit (`resolve_checked`); the folder itself is then made 0700, or
tightened to it (`private_folder`); and its files are opened without following a symlink
and refused unless they are this user's (`open_private`).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from umpire.events.errors import UmpireError

PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600
MAX_SYMLINKS = 40  # as the kernel's path resolution


class UnsafeComponent(UmpireError):
    """A component of a private folder's path, or a file in it, is another user's to
    change."""

    code = "unsafe_path"

    def __init__(self, path: Path, component: Path, why: str) -> None:
        super().__init__(
            f"{path} cannot be used: {component} {why}, so another user could re-point or "
            "swap it; give a path through directories only this user (or root) controls",
            path=str(path),
            component=str(component),
        )
        self.path = path
        self.component = component
        self.why = why


def resolve_checked(path: Path) -> Path:
    """`path` with every symlink resolved, checked component by component: each existing
    component (directory or symlink) must belong to this user or root, and no directory
    on the way (the folder itself included) may be writable by group or others unless it
    has the sticky bit (as /tmp: then only an entry's owner, checked in turn, may rename
    it). The missing tail is returned as given: this user creates it. Raises
    UnsafeComponent naming the component, or the OSError that stopped the walk."""
    uid = os.geteuid()
    given = Path(os.path.abspath(path))
    pending = list(given.parts[1:])
    resolved = Path("/")
    hops = 0

    def check(component: Path, found: os.stat_result, final: bool) -> None:
        if found.st_uid not in (uid, 0):
            raise UnsafeComponent(given, component, f"belongs to another user (uid {found.st_uid})")
        writable = stat.S_ISDIR(found.st_mode) and found.st_mode & 0o022
        if writable and (final or not found.st_mode & stat.S_ISVTX):
            raise UnsafeComponent(given, component, "may be written by other users")

    check(resolved, os.lstat(resolved), not pending)
    while pending:
        name = pending.pop(0)
        if name in ("", "."):
            continue
        if name == "..":
            resolved = resolved.parent
            continue
        candidate = resolved / name
        try:
            found = os.lstat(candidate)
        except FileNotFoundError:
            return candidate.joinpath(*pending)
        check(candidate, found, not pending)
        if stat.S_ISLNK(found.st_mode):
            hops += 1
            if hops > MAX_SYMLINKS:
                raise OSError(errno.ELOOP, "too many symbolic links")
            target = Path(os.readlink(candidate))
            if target.is_absolute():
                resolved = Path("/")
                pending = list(target.parts[1:]) + pending
            else:
                pending = list(target.parts) + pending
            continue
        resolved = candidate
    return resolved


def private_folder(path: Path) -> Path:
    """`path` resolved and checked (`resolve_checked`), made 0700 if missing (its missing
    parents too), and tightened to 0700 if group or others may enter it; the resolved
    path. Raises UnsafeComponent, or the OSError of a folder this user cannot make."""
    resolved = resolve_checked(path)
    resolved.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
    # Checked again now that it exists: made by someone else between the walk and the
    # mkdir (exist_ok), it is refused here.
    found = os.lstat(resolved)
    if found.st_uid != os.geteuid() or not stat.S_ISDIR(found.st_mode):
        raise UnsafeComponent(Path(path), resolved, f"belongs to another user (uid {found.st_uid})")
    if stat.S_IMODE(found.st_mode) & 0o077:
        os.chmod(resolved, stat.S_IMODE(found.st_mode) & ~0o077 | PRIVATE_DIR)
    return resolved


def open_private(path: Path, flags: int) -> int:
    """A descriptor of the file `path` in a private folder, opened with `flags` (created
    0600 where they say so) without following a symlink, and refused (UnsafeComponent)
    unless it is a regular file of this user's: one planted by another account before the
    folder was tightened is never read or written."""
    try:
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC, PRIVATE_FILE)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # O_NOFOLLOW met a symlink
            raise UnsafeComponent(path, path, "is a symbolic link") from None
        raise
    found = os.fstat(fd)
    if found.st_uid != os.geteuid() or not stat.S_ISREG(found.st_mode):
        os.close(fd)
        why = (
            "is not a regular file"
            if found.st_uid == os.geteuid()
            else (f"belongs to another user (uid {found.st_uid})")
        )
        raise UnsafeComponent(path, path, why)
    return fd
