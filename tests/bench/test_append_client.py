"""bench/append_client.py runs both clients end to end at a tiny size and prints a figure
for each (no speed is asserted: figures come from a quiet machine)."""

from __future__ import annotations

import pytest

from bench.append_client import main


async def test_both_clients_answer_every_call(capsys: pytest.CaptureFixture[str]) -> None:
    await main(calls=5, runs=1)
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "run 1, AppendBatcher (redis-py connection)",
        "run 1, bare protocol (hiredis)",
    ]
    assert all("µs CPU a sequential call" in line for line in lines)
