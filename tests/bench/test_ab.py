"""bench/ab.py --all compares every number of the quick bench's JSON by a dotted name."""

from __future__ import annotations

from bench.ab import flatten


def test_flatten_names_every_number_and_leaves_out_flags_and_text() -> None:
    figures = {"path": {"p99_ms": 1.5, "met": True, "note": "x", "cpu": {"busy": 0.9}}, "n": 3}
    assert flatten(figures) == {"path.p99_ms": 1.5, "path.cpu.busy": 0.9, "n": 3.0}
