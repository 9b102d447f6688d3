"""A second local user for attacks that another account of the machine makes: created
for the test with `useradd` (no home, no login shell) and removed after, and code run as
that user in a forked child that drops root. Where no user can be created (not root, no
useradd), the test is skipped with the reason; it is never faked."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest


@dataclass(frozen=True)
class LocalUser:
    name: str
    uid: int
    gid: int

    def run(self, attack: Callable[[], int]) -> int:
        """Run `attack` as this user in a forked child; its return value (0-255), or 99
        if it raised."""
        pid = os.fork()
        if pid == 0:  # the child: never returns into pytest
            code = 99
            try:
                os.setgroups([])
                os.setgid(self.gid)
                os.setuid(self.uid)
                code = attack()
            finally:
                os._exit(code)
        return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


@contextmanager
def other_user() -> Iterator[LocalUser]:
    """A fresh local user, removed on exit (skips the test where one cannot be made)."""
    if os.geteuid() != 0:
        pytest.skip("creating a second local user needs root (useradd)")
    useradd, userdel = shutil.which("useradd"), shutil.which("userdel")
    if useradd is None or userdel is None:
        pytest.skip("no useradd/userdel on this machine to create a second local user")
    name = f"umpt{secrets.token_hex(4)}"
    made = subprocess.run(
        [useradd, "--no-create-home", "--shell", "/usr/sbin/nologin", "--user-group", name],
        capture_output=True,
        text=True,
    )
    if made.returncode != 0:
        pytest.skip(f"useradd could not create a second local user: {made.stderr.strip()}")
    try:
        import pwd

        entry = pwd.getpwnam(name)
        yield LocalUser(name, entry.pw_uid, entry.pw_gid)
    finally:
        subprocess.run([userdel, name], capture_output=True)
