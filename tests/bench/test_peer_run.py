"""A tiny real run of `python -m bench peer` when Node and the shared peer bench are here:
the peer bench at its smallest sizes, one run each of umpire, the floor and Colyseus. It
checks that every scenario ran and that the ratios and the table come out; no rate or
duration is asserted (speed is printed beside its goal, not tested)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench import peer

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_tiny_real_run_prints_every_ratio_beside_its_goal() -> None:
    if shutil.which("node") is None:
        pytest.skip("no node on PATH")
    if not (peer.bench_dir() / "bench.js").is_file():
        pytest.skip(f"no peer bench at {peer.bench_dir()}")
    done = subprocess.run(
        [sys.executable, "-m", "bench", "peer", "--quick", "--runs", "1",
         "--servers", "umpire,floor,colyseus"],
        cwd=REPO, env={**os.environ, "COLUMNS": "200"},
        capture_output=True, text=True, timeout=560,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    if done.stderr.startswith("peer: not run:"):
        pytest.skip(done.stderr.strip())  # e.g. no network for `npm ci`
    figures = json.loads(done.stdout)
    try:
        servers = figures["servers"]
        assert set(servers) == {"umpire", "floor", "colyseus"}
        for server, tests in servers.items():
            want = {"seq", "tput"} if server == "floor" else {"seq", "tput", "fanout"}
            assert set(tests) == want, server
            for test, got in tests.items():
                assert (got["runs"], got["errors"]) == (1, 0), (server, test)
        for name, got in figures["ratios"].items():
            assert got["value"] is not None, name
        assert len(figures["machine"]["load_before"]) == 3
        for words in ("floor --store", "tput moves/s, umpire ÷ Colyseus", "≤ 1.25",
                      "seq p50, umpire ÷ floor --store", "load"):  # fmt: skip
            assert words in done.stderr, done.stderr
    finally:
        peer.cleanup(figures["results"])
