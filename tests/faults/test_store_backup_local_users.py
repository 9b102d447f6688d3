"""A store backup goes, and is restored from, only where no other local account can swap
it (red team, 2026-11-29). A backup holds the store's seeds, sealing keys, receipt keys
and credential hashes, and `umpire store restore` takes it as it finds it (its checksums
are in the backup too). Before, `umpire store backup /tmp/theirs/bk` wrote into another
account's directory, which could then put a store of its own making there (its own
credential hashes for the operator's games, seeds and receipt keys it knows) for the
operator's `restore` to load; and a backup to a dangling symlink of the operator's own
ended in a traceback."""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.embedded_site import incr_aof, run_cli
from tests.support.local_user import LocalUser, other_user


@pytest.fixture
def stranger() -> Iterator[LocalUser]:
    with other_user() as user:
        yield user


@pytest.fixture
def theirs(stranger: LocalUser) -> Iterator[Path]:
    """/tmp/umpire-theirs-…: a directory of the other account's, open to everyone."""
    folder = Path(f"/tmp/umpire-theirs-{secrets.token_hex(6)}")

    def make() -> int:
        os.umask(0)
        folder.mkdir(mode=0o777)
        return 0

    assert stranger.run(make) == 0
    try:
        yield folder
    finally:
        shutil.rmtree(folder)


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A data directory holding one game (no serve running)."""
    path = tmp_path / "data"
    code, out, err = run_cli(path, "new", "counter")
    assert code == 0, out + err
    return path


def _one_line(code: int, out: str, err: str) -> str:
    assert code == 2 and "Traceback" not in err, out + err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    return lines[0]


def test_a_backup_into_another_accounts_directory_is_refused(data_dir: Path, theirs: Path) -> None:
    target = theirs / "backup"
    line = _one_line(*run_cli(data_dir, "store", "backup", str(target), COLUMNS="400"))
    assert "error (backup_invalid)" in line and f"{theirs} belongs to another user" in line
    assert not os.path.lexists(target)  # before: a backup, in their directory


def test_a_backup_they_could_swap_is_not_restored(
    data_dir: Path, theirs: Path, stranger: LocalUser, tmp_path: Path
) -> None:
    """A real backup, then placed where the other account can replace it (here: handed
    to it, as it would after swapping in its own): the restore refuses, the store as it
    was."""
    mine = tmp_path / "backup"
    code, out, err = run_cli(data_dir, "store", "backup", str(mine))
    assert code == 0, out + err
    placed = theirs / "backup"
    shutil.copytree(mine, placed)
    for path in [placed, *placed.rglob("*")]:
        os.chown(path, stranger.uid, stranger.gid)
    aof = incr_aof(data_dir)
    whole = aof.read_bytes()
    line = _one_line(*run_cli(data_dir, "store", "restore", str(placed), COLUMNS="400"))
    assert "error (backup_invalid)" in line and "belongs to another user" in line, line
    assert aof.read_bytes() == whole
    assert not list((data_dir / "redis").glob("aof-before-*"))  # before: restored
    # From where only its owner can change it, the same backup is restored.
    code, out, err = run_cli(data_dir, "store", "restore", str(mine))
    assert code == 0, out + err


def test_a_backup_to_an_own_dangling_symlink_goes_where_it_points(
    data_dir: Path, tmp_path: Path
) -> None:
    """An own symlink is resolved once, as the data directory's path is (before: a
    traceback, FileExistsError from mkdir)."""
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "nowhere")
    code, out, err = run_cli(data_dir, "store", "backup", str(link))
    assert code == 0 and "Traceback" not in err, out + err
    assert f"to {tmp_path / 'nowhere'} " in out, out
    assert (tmp_path / "nowhere" / "backup.json").exists()
