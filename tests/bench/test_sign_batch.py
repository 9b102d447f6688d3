"""bench/sign_batch.py runs and prints each way of signing beside issue #44's goal (the
figures themselves are the bench's to report: no test asserts a duration)."""

from __future__ import annotations

import pytest

from bench import sign_batch


def test_the_bench_prints_every_way_beside_the_goal(capsys: pytest.CaptureFixture[str]) -> None:
    assert sign_batch.main(["--commands", "60", "--runs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "of the 55 µs goal" in lines[0]
    assert [line.split(" µs")[0].rsplit(maxsplit=1)[0].strip() for line in lines[1:]] == [
        "one by one", "batched at 1", "batched at 10", "batched at 30",
        "unblinded at 1", "unblinded at 10", "unblinded at 30",
        "blinds a leaf at 1", "blinds a leaf at 10", "blinds a leaf at 30",
        "batcher at 1", "batcher at 10", "batcher at 30",
    ]  # fmt: skip
