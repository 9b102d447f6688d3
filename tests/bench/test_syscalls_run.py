"""bench/syscalls.py against the servers: it counts the loop's turns in a server it starts
(by a sitecustomize of its own, not the product) and prints umpire beside the floor
(strace itself is not needed here: `--no-strace`)."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from bench import syscalls

ROOT = Path(__file__).resolve().parents[2]


def test_a_server_is_counted_without_strace(tmp_path: Path) -> None:
    """The floor (the quicker of the two to start): its loop's turns are counted by the
    bench's sitecustomize, in the worker that served the moves."""
    args = argparse.Namespace(
        moves=30, traced_moves=30, workers=1, fsync="everysec", idle_seconds=0.1,
        no_strace=True, handles=False, umpire="",
    )  # fmt: skip
    figures = syscalls.measure("floor", args)
    assert figures["loop turns: worker (served)"] >= 2  # the command in, the append back
    assert figures["p50 ms (untraced)"] > 0


def test_the_command_line_prints_umpire_beside_the_floor() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench.syscalls", "--no-strace", "--moves", "20",
         "--workers", "1"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=300,
    )  # fmt: skip
    header, *rows = done.stdout.splitlines()
    assert header.split()[-2:] == ["umpire", "floor"]
    turns = next(row for row in rows if row.startswith("loop turns: worker (served)"))
    assert len(turns.split()) == 4 + 2  # the name's four words, then a figure a server
