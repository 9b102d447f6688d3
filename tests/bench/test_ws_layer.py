"""bench/ws_layer.py: each of its five servers answers every message of its load, one
client and several in flight, and reports the messages it served; its command line
prints a row for each (the instruction count itself needs valgrind and is not taken
here)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench import ws_layer

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("kind", ws_layer.KINDS)
@pytest.mark.parametrize("clients", [1, 3])
def test_each_server_answers_every_message(kind: str, clients: int) -> None:
    out = ws_layer.run_server(kind, clients, 20, 1, valgrind=False)
    served, cpu = out.split()[:2]
    assert int(served) == clients * 20
    assert float(cpu) >= 0


def test_the_command_line_prints_each_kind_beside_the_others() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench.ws_layer", "--no-valgrind", "--runs", "1",
         "--clients", "3", "--cpu-messages", "60", "--kinds", ",".join(ws_layer.KINDS)],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    for title in ws_layer.TITLES.values():
        assert done.stdout.count(title) == 2, done.stdout  # one client, then three
