"""The private run directory of `umpire serve --workers N` (server/workers.py `run_dir`):
under the data directory, 0700, prometheus-client's multiprocess directory inside, and
those of parents no longer running removed at start."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from umpire.server.workers import run_dir


def test_a_new_run_directory_clears_those_of_dead_parents(tmp_path: Path) -> None:
    base = tmp_path / "run"
    base.mkdir()
    dead = base / "serve-999999999"  # past any pid the kernel hands out
    (dead / "metrics").mkdir(parents=True)
    (dead / "metrics" / "counter_1.db").write_bytes(b"old")
    alive = base / f"serve-{os.getppid()}"  # a running process: kept
    alive.mkdir()
    mine = run_dir(tmp_path)
    assert mine == base / f"serve-{os.getpid()}"
    assert not dead.exists() and alive.exists()
    assert (mine / "metrics").is_dir() and not any((mine / "metrics").iterdir())
    for path in (base, mine, mine / "metrics"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o700, path
