"""bench/valkey_append.py appends through the store at a tiny size and prints a figure
per run (no speed is asserted: figures come from a quiet machine)."""

from __future__ import annotations

import pytest

from bench.valkey_append import main


def test_it_appends_every_round_and_prints_a_figure_per_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--games", "3", "--rounds", "2", "--runs", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    # Each round's appends of the three games went as one call.
    assert all("3.0 appends per call" in line for line in lines), lines


def test_it_prints_the_aof_rewrites_beside_valkeys_own_cpu(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["--games", "2", "--rounds", "2", "--runs", "1", "--downtown"]
    assert main([*args, "--rewrite-percentage", "400"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    # Too short a run for Valkey's first rewrite (64 MB of AOF): none, and no CPU for it.
    assert "its AOF rewrites' 0.00 (0 rewrites)" in line, line
