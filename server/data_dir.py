"""The embedded store's data directory: its OS lock, its permissions and its secret.

One process at a time owns the data directory and the Valkey that serves it: the one
holding an exclusive `flock` on `<data dir>/umpire.lock` (the kernel drops the lock when
the process dies, however it dies, so a crash never leaves a stale lock). The holder writes
its pid and role into the file so that a refused process can say who holds it. Every other
umpire process uses the holder's server and never starts one of its own.

The directory is 0700 and the secret file 0600 (both tightened if found looser): the
secret holds the passwords of the Valkey's ACL users, so another local user can neither
read the file nor enter the directory that holds the unix socket and the AOF.

Its path is resolved once (`resolve_data_dir`), component by component, and refused if
any component is a symlink or directory another user owns, or a directory another user
may write without the sticky bit (they could re-point or swap what follows it); what
is used afterwards is the resolved path, and the store's directory is held open by
descriptor (server/embedded.py).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path

from umpire.events.errors import UmpireError
from umpire.events.private_folder import UnsafeComponent, resolve_checked
from umpire.server.embedded import StorePasswords

LOCK_FILE = "umpire.lock"
USERS_FILE = "users.lock"
SECRET_FILE = "store.secret"
PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600


class DataDirUnusable(UmpireError):
    """The data directory cannot be created, entered or written by this user."""

    code = "data_dir"

    def __init__(self, path: Path, exc: OSError) -> None:
        reason = exc.strerror or str(exc)
        if isinstance(exc, FileExistsError | NotADirectoryError):
            reason = "a file is in the way"
        super().__init__(
            f"the data directory {path} cannot be used ({reason.lower()}): give a directory "
            "this user may create and write, with --data-dir or UMPIRE_DATA_DIR",
            path=str(path),
        )


class DataDirUnsafe(UmpireError):
    """A component of the data directory's path is another user's to change."""

    code = "data_dir"

    def __init__(self, path: Path, component: Path, why: str) -> None:
        super().__init__(
            f"the data directory {path} cannot be used: {component} {why}, so another user "
            "could re-point or swap it; give a path through directories only this user "
            "(or root) controls, with --data-dir or UMPIRE_DATA_DIR",
            path=str(path),
        )


def resolve_data_dir(path: Path) -> Path:
    """`path` with every symlink resolved, checked component by component
    (events/private_folder.py `resolve_checked`): each existing component must belong to
    this user or root, and no directory on the way (the data directory included) may be
    writable by group or others unless it has the sticky bit. The missing tail is returned
    as given: this user creates it. Raises DataDirUnsafe naming the component."""
    given = Path(os.path.abspath(path))
    try:
        return resolve_checked(given)
    except UnsafeComponent as exc:
        raise DataDirUnsafe(given, exc.component, exc.why) from None
    except OSError as exc:
        raise DataDirUnusable(given, exc) from None


def secure_dir(path: Path) -> Path:
    """Create `path` (0700) or tighten it to 0700 if group or others may enter it; raise
    DataDirUnusable (one clear line in the CLI) where this user cannot."""
    try:
        path.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
        found = path.stat()
        if found.st_uid != os.geteuid():
            # Its owner could swap redis.url or the config under us (and point our
            # commands, with the store's password, at a server of theirs), even as root.
            raise PermissionError(errno.EPERM, f"it belongs to another user, uid {found.st_uid}")
        mode = stat.S_IMODE(found.st_mode)
        if mode & 0o077:
            path.chmod(mode & ~0o077 | PRIVATE_DIR)
    except OSError as exc:
        raise DataDirUnusable(path, exc) from None
    return path


@dataclass(frozen=True)
class Holder:
    """Who holds a data directory's lock, as written in the lock file."""

    pid: int | None
    role: str

    def describe(self) -> str:
        """`process 1234 (umpire serve)`, or what is known of it."""
        who = f"process {self.pid}" if self.pid else "another process"
        return f"{who} (umpire {self.role})" if self.role else who


class DataDirLock:
    """The exclusive OS lock on one data directory, held for the holder's whole life."""

    def __init__(self, data_dir: Path, role: str) -> None:
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / LOCK_FILE
        self.role = role
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._fd is not None

    def try_acquire(self) -> bool:
        """Take the lock if no process holds it; never waits."""
        if self._fd is not None:
            return True
        secure_dir(self.data_dir)
        # O_CLOEXEC (Python's default): the Valkey child must not inherit the lock, or a
        # killed umpire would leave it held until the child died too.
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, PRIVATE_FILE)
        except OSError as exc:
            raise DataDirUnusable(self.data_dir, exc) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()} {self.role}\n".encode(), 0)
        self._fd = fd
        return True

    def holder(self) -> Holder:
        """Who holds the lock now (from the file; a holder still starting wrote nothing)."""
        try:
            words = self.path.read_text().split()
        except OSError:
            return Holder(None, "")
        pid = int(words[0]) if words and words[0].isdigit() else None
        return Holder(pid, words[1] if len(words) > 1 else "")

    def release(self) -> None:
        """Give the lock up. The file stays: unlinking it would race with a new holder."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)  # closing the last descriptor drops the flock


class ServerUse:
    """A flock on `<data dir>/users.lock`: shared by each command using another process's
    server, exclusive for a CLI command that is about to stop the server it ran, so it
    never stops a server under a command that found it running."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / USERS_FILE
        self._fd: int | None = None

    def _try(self, operation: int) -> bool:
        if self._fd is None:
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, PRIVATE_FILE)
        try:
            fcntl.flock(self._fd, operation | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def try_share(self) -> bool:
        """Mark this process as a user of the server; False while its owner stops it."""
        return self._try(fcntl.LOCK_SH)

    def try_exclusive(self) -> bool:
        """True once no other process uses the server (and none can start to)."""
        return self._try(fcntl.LOCK_EX)

    def release(self) -> None:
        """Drop the lock."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)


def _tighten(path: Path) -> None:
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        path.chmod(PRIVATE_FILE)


def read_passwords(data_dir: Path) -> StorePasswords | None:
    """The store's passwords, or None while the lock holder has not written them yet."""
    path = Path(data_dir) / SECRET_FILE
    try:
        _tighten(path)
        fields = json.loads(path.read_text())
        return StorePasswords(admin=fields["admin"], gateway=fields["gateway"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def load_or_create_passwords(data_dir: Path) -> StorePasswords:
    """The store's passwords, generated on first use. Only the lock holder calls this."""
    known = read_passwords(data_dir)
    if known is not None:
        return known
    path = Path(data_dir) / SECRET_FILE
    passwords = StorePasswords(admin=secrets.token_urlsafe(32), gateway=secrets.token_urlsafe(32))
    temporary = path.with_suffix(".new")
    with contextlib.suppress(FileNotFoundError):
        temporary.unlink()
    # Created 0600 with O_EXCL, never chmod-ed after the secret is in it.
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    with os.fdopen(fd, "w") as out:
        json.dump({"admin": passwords.admin, "gateway": passwords.gateway}, out)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)
    return passwords
