"""Files a person names for the command line to write (`umpire export -o`, `umpire proof
-o`), opened so that nobody else chooses what is written over.

Another local account may plant a symlink at the path a user is about to give (under /tmp,
say; this machine may run with fs.protected_symlinks=0), so that the write goes through
it to a file of the user's own choosing (their shell profile) or of root's; or leave a
file of its own there, which the user would then fill (with an operator export's secret
seed) and which that account could still read; or, where fs.protected_hardlinks=0, a hard
link to one of the user's files. So the final component is opened without following a
symlink (O_NOFOLLOW), and what was opened is checked before a byte is written: a regular
file of this user's with no other name. A plain existing file of the user's own is
overwritten as before. A refusal writes nothing (the file is truncated only after the
checks) and names the path.

A symlink earlier in the path redirects the write as well (`/tmp/exports/game.json`, where
another account made `/tmp/exports` a link into the user's own folder). So the path is
walked one directory at a time, each opened relative to the last without following a
link, and a symlink on the way is followed only if it is the user's own or root's (as the
kernel's fs.protected_symlinks would); the file is then opened in the directory reached.
What the walk holds are open directories, so a rename behind it changes nothing; a link is
held open too while its owner and target are read, so a rename of another account's link
over it between the two (in a folder that account may change) changes nothing either.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from umpire.events.errors import UmpireError
from umpire.server.data_dir import PRIVATE_FILE

PUBLIC_FILE = 0o666  # less the user's umask, as any file they write
MAX_LINKS = 40  # symlinks followed on one path, as the kernel's MAXSYMLINKS
_DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class OutputRefused(UmpireError):
    """A file the command line was told to write that it will not write (nothing written)."""

    code = "output_refused"

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(f"{path} is not written: {why}", path=str(path))
        self.path = path


def write_output(path: Path, text: str, *, private: bool = False) -> None:
    """Write `text` (UTF-8) to `path`, created 0600 if `private` (and an existing file
    tightened to 0600 before its first byte), else with the user's umask.

    Raises OutputRefused, writing nothing, for a symlink at `path` (or one of another
    user's on its way), a file of another user's, something other than a regular file, a
    file with another hard link, or a path that cannot be opened for writing (its reason
    from the OS).
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK
    folder, name = _folder(path)
    try:
        # No O_TRUNC: an existing file keeps its bytes until it has passed the checks.
        # O_NONBLOCK: a FIFO planted at the path fails or opens at once, never hangs.
        fd = os.open(name, flags, PRIVATE_FILE if private else PUBLIC_FILE, dir_fd=folder)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # O_NOFOLLOW met a symlink
            raise OutputRefused(
                path,
                "it is a symbolic link, and umpire does not write through one (another "
                "user may have planted it to redirect the write); remove it, or give "
                "the path of the file itself",
            ) from None
        raise OutputRefused(path, f"it cannot be opened for writing ({exc.strerror})") from None
    finally:
        os.close(folder)
    try:
        _check(path, os.fstat(fd))
        if private:
            os.fchmod(fd, PRIVATE_FILE)
        os.set_blocking(fd, True)
        os.ftruncate(fd, 0)
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)


def _check(path: Path, found: os.stat_result) -> None:
    """Refuse what was opened unless it is a regular file of this user's with one name."""
    if found.st_uid != os.geteuid():
        raise OutputRefused(
            path,
            f"it belongs to another user (uid {found.st_uid}), who could read what is "
            "written or swap it; remove it, or choose a path in a directory of your own",
        )
    if not stat.S_ISREG(found.st_mode):
        raise OutputRefused(path, "it is not a regular file; give the path of a file")
    if found.st_nlink > 1:
        raise OutputRefused(
            path,
            f"it has {found.st_nlink} hard links, so writing it would change another "
            "file too; remove it, or choose another path",
        )


def _folder(path: Path) -> tuple[int, str]:
    """The open directory that holds `path`'s file, reached without following a symlink
    of another user's, and the file's name in it (the caller closes the directory)."""
    text = os.fspath(path)
    *parts, name = text.split("/")
    if name in ("", ".", ".."):
        raise OutputRefused(path, "it names a directory, not a file; give a file's path")
    todo = parts[::-1]  # components still to walk, the next last
    try:
        folder = os.open("/" if text.startswith("/") else ".", _DIRECTORY)
    except OSError as exc:
        raise OutputRefused(path, f"its folder cannot be opened ({exc.strerror})") from None
    links = 0
    try:
        while todo:
            part = todo.pop()
            if part in ("", "."):
                continue
            try:
                step = os.open(part, _DIRECTORY, dir_fd=folder)
            except OSError as exc:
                if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
                    raise OutputRefused(
                        path, f"its folder {part!r} cannot be opened ({exc.strerror})"
                    ) from None
                target = _link_target(path, part, folder)
                links += 1
                if links > MAX_LINKS:
                    raise OutputRefused(path, "its folders hold too many symbolic links") from None
                todo.extend(target.split("/")[::-1])
                if target.startswith("/"):
                    step = os.open("/", _DIRECTORY)
                else:
                    continue
            os.close(folder)
            folder = step
    except BaseException:
        os.close(folder)
        raise
    return folder, name


def _link_target(path: Path, part: str, folder: int) -> str:
    """The target of the symbolic link `part` in `folder`, if it is this user's or root's.

    The link is opened once (O_PATH, not followed) and its owner and target are read from
    that descriptor: looked up twice by name, another account that may change the folder
    could rename its own link over the checked one between the two looks."""
    try:
        link = os.open(part, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=folder)
    except OSError as exc:
        raise OutputRefused(
            path, f"its folder {part!r} cannot be opened ({exc.strerror})"
        ) from None
    try:
        found = os.fstat(link)
        if not stat.S_ISLNK(found.st_mode):
            raise OutputRefused(path, f"{part!r} on its way is not a folder")
        if found.st_uid not in (os.geteuid(), 0):
            raise OutputRefused(
                path,
                f"{part!r} on its way is a symbolic link of another user's (uid "
                f"{found.st_uid}), who may have planted it to redirect the write; "
                "give a path through folders of your own",
            )
        return os.readlink("", dir_fd=link)  # this very link's (readlinkat, AT_EMPTY_PATH)
    finally:
        os.close(link)
