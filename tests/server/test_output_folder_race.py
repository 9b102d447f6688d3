"""A symbolic link on an `-o` path is followed only if it is the owner's or root's, and
what is followed is the link whose owner was checked, not whatever stands at its name a
moment later (server/output_files.py `_folder`).

The walk looked the link up twice by name: once for its owner, once for its target. In a
folder another account may change (its own, where the owner's path leads), that account
can put its own link at the name between the two looks: a rename of its link over a link
of the owner's or root's that stands there (which, where fs.protected_hardlinks=0, it can
hard-link into its folder). The owner's check then passed on the first link and the write
followed the second, into the owner's own folder, over the owner's file. The rename is
made here, as that account would, at the moment between the two looks (the walk's read
of the link's target), so the race is won every time; the folder and the planted link
belong to another uid (`nobody`), on the real filesystem.
"""

from __future__ import annotations

import os
import pwd
from pathlib import Path
from typing import Any

import pytest

import umpire.server.output_files as output_files
from umpire.server.output_files import write_output


def test_a_link_swapped_after_its_owner_was_checked_is_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    nobody = pwd.getpwnam("nobody")
    home = tmp_path / "home"  # the owner's own folder, with a file they care about
    home.mkdir()
    victim = home / "game.jsonl"
    victim.write_text("the user's own file\n")
    meant = tmp_path / "exports"  # where the owner's link on the way leads
    meant.mkdir()
    shared = tmp_path / "shared"  # another account's folder, on the owner's path
    shared.mkdir()
    (shared / "out").symlink_to(meant)  # the owner's own link (followed: it is theirs)
    (shared / "evil").symlink_to(home)  # the other account's, made ready
    os.lchown(shared / "evil", nobody.pw_uid, nobody.pw_gid)
    os.chown(shared, nobody.pw_uid, nobody.pw_gid)

    readlink = os.readlink
    swapped: list[str] = []

    def swap_first(path: Any, *args: Any, **kwargs: Any) -> str:
        # The other account renames its link over the owner's, after the owner's was
        # checked and before its target is read.
        if not swapped:
            os.rename(shared / "evil", shared / "out")
            swapped.append("out")
        return readlink(path, *args, **kwargs)

    monkeypatch.setattr(output_files.os, "readlink", swap_first)
    write_output(shared / "out" / "game.jsonl", '{"an": "export"}\n')
    assert swapped, "the walk read no link's target"
    assert victim.read_text() == "the user's own file\n", "written through the swapped link"
    assert sorted(p.name for p in home.iterdir()) == ["game.jsonl"]
    # Where the link the owner's check passed leads, as if no one had raced.
    assert (meant / "game.jsonl").read_text() == '{"an": "export"}\n'
