"""bench/instructions.py: the loop it counts runs on this checkout's command path (the
count itself needs valgrind and is not taken here)."""

from __future__ import annotations

from pathlib import Path

from bench import instructions


def test_the_counted_command_loop_runs_on_this_checkout() -> None:
    instructions._command_loop(Path(__file__).resolve().parents[2], 5)


def test_the_peer_benchs_move_loop_runs_on_this_checkout() -> None:
    # The Downtown RollDice that ../shared/peer-bench sends (bench/instructions.py --ruleset).
    instructions._command_loop(Path(__file__).resolve().parents[2], 5, "downtown")
