"""The keepalive schedule: many connections due at once are pinged a few hundred per
loop turn, and a closed connection leaves the schedule at once, and memory once it is
gone."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Callable

from umpire.server.keepalive import PINGS_PER_TURN, Keepalive
from umpire.server.metrics import Metrics

INTERVAL = 0.05
# What the schedule must have done by then; waited for, not assumed after a fixed sleep
# (a process paused for a few intervals on a loaded runner resumes the test's sleep
# before the keepalive's next tick has run).
WITHIN = 30.0


async def _until(done: Callable[[], bool]) -> None:
    """Wait until `done()` holds (the test fails on the timeout if it never does)."""
    async with asyncio.timeout(WITHIN):
        while not done():
            await asyncio.sleep(INTERVAL / 4)


class Answering:
    """A connection that answers every ping at once; counts them and the loop's turns."""

    def __init__(self, turns: list[int]) -> None:
        self.turns = turns
        self.pinged_on_turns: list[int] = []
        self.closed: list[int] = []

    async def ping(self) -> asyncio.Future[float] | None:
        self.pinged_on_turns.append(self.turns[0])
        pong: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        pong.set_result(0.0)
        return pong

    def close_soon(self, code: int, reason: str) -> None:
        self.closed.append(code)


class Silent(Answering):
    """Never answers."""

    async def ping(self) -> asyncio.Future[float] | None:
        self.pinged_on_turns.append(self.turns[0])
        return asyncio.get_running_loop().create_future()


async def _count_turns(turns: list[int]) -> None:
    while True:
        await asyncio.sleep(0)
        turns[0] += 1


async def test_connections_due_together_are_pinged_a_few_hundred_per_turn() -> None:
    turns = [0]
    counter = asyncio.create_task(_count_turns(turns))
    keepalive = Keepalive(INTERVAL, INTERVAL, Metrics())
    conns = [Answering(turns) for _ in range(5 * PINGS_PER_TURN)]
    for conn in conns:
        keepalive.add(conn)
    runner = asyncio.create_task(keepalive.run())
    try:
        await _until(lambda: all(conn.pinged_on_turns for conn in conns))
    finally:
        runner.cancel()
        counter.cancel()
    first_round = [conn.pinged_on_turns[0] for conn in conns]
    assert all(conn.pinged_on_turns for conn in conns)
    # The loop ran other tasks between each batch of PINGS_PER_TURN pings.
    assert len(set(first_round)) >= 5
    assert max(first_round.count(turn) for turn in set(first_round)) <= PINGS_PER_TURN
    assert not any(conn.closed for conn in conns)  # all answered


async def test_a_closed_connection_leaves_and_a_silent_one_is_closed() -> None:
    turns = [0]
    metrics = Metrics()
    keepalive = Keepalive(INTERVAL, INTERVAL, metrics)
    gone, silent = Answering(turns), Silent(turns)
    keepalive.add(gone)
    keepalive.add(silent)
    keepalive.remove(gone)
    assert len(keepalive) == 1
    runner = asyncio.create_task(keepalive.run())
    try:
        # `gone`, added with `silent` and before it, would come due no later and be pinged
        # in the same round, before it: once `silent` was pinged, a ping to `gone` would
        # have been sent (no wait after it needed).
        await _until(lambda: bool(silent.closed))
    finally:
        runner.cancel()
    assert gone.pinged_on_turns == []
    assert silent.closed and silent.closed[0] == 1011
    assert metrics.errors["keepalive_timeout"] >= 1


async def test_one_ping_at_a_time_while_its_pong_is_due() -> None:
    turns = [0]
    # A timeout no pause of a loaded runner reaches: the pong stays due throughout.
    keepalive = Keepalive(INTERVAL, WITHIN * 10, Metrics())
    silent = Silent(turns)
    keepalive.add(silent)
    runner = asyncio.create_task(keepalive.run())
    try:
        await _until(lambda: bool(silent.pinged_on_turns))
        # several more rounds in which its ping came due, well inside the timeout
        await _until(lambda: keepalive.skipped >= 6)
    finally:
        runner.cancel()
    assert len(silent.pinged_on_turns) == 1
    assert not silent.closed


async def test_a_closed_connection_pinged_last_is_not_kept_in_memory() -> None:
    """The keepalive's task held the last connection it pinged in its frame until another
    came due: a closed connection stayed in memory, with its buffers, as long as it was the
    last one pinged (an idle gateway: forever). CI found it: a freed-connection test waited
    30 s on a loaded runner whose keepalive had ticked during the test."""
    turns = [0]
    keepalive = Keepalive(INTERVAL, WITHIN * 10, Metrics())
    conn = Answering(turns)
    gone, pinged = weakref.ref(conn), conn.pinged_on_turns
    keepalive.add(conn)
    runner = asyncio.create_task(keepalive.run())
    gc.collect()
    gc.disable()  # freed by its references going, not by a collection of a cycle
    try:
        await _until(lambda: bool(pinged))
        keepalive.remove(conn)
        del conn
        await _until(lambda: gone() is None)
    finally:
        gc.enable()
        runner.cancel()
