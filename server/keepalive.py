"""Websocket keepalive for every connection of a gateway, from one task.

websockets' own keepalive is a task per connection (with its coroutine, timer and
futures), all of it for every full garbage collection to visit. Here one task pings each
connection every `interval` seconds and closes one whose pong has not come within
`timeout` (1011), which is how half-open TCP connections are found.

Two schedules, each an OrderedDict from connection to its due time: since every entry is
added at "now + the same constant", each stays in due order, so the task only looks at
the front. A connection that closes leaves both at once (no closed connection is kept
alive until its turn, and none is freed in a burst).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Protocol

from umpire.events.wire import CLOSE_KEEPALIVE_TIMEOUT
from umpire.server.metrics import Metrics

# Pings sent before the task yields to the event loop: 10,000 connections opened
# together come due together, and their pings must not hold the loop in one go.
PINGS_PER_TURN = 200


class Pingable(Protocol):
    """A connection as the keepalive sees it."""

    async def ping(self) -> asyncio.Future[float] | None:
        """Send a ping: the future of its pong, or None if none was sent."""
        ...

    def close_soon(self, code: int, reason: str) -> None:
        """Start closing with `code`."""
        ...


class Keepalive:
    """Ping schedule and pong deadlines of every open connection."""

    def __init__(self, interval: float, timeout: float, metrics: Metrics) -> None:
        self.interval = interval
        self.timeout = timeout
        self.metrics = metrics
        self._ping_due: OrderedDict[Pingable, float] = OrderedDict()
        self._pong_due: OrderedDict[Pingable, tuple[float, asyncio.Future[float]]] = OrderedDict()
        self.skipped = 0  # pings due but not sent: the last one's pong was still due

    def add(self, conn: Pingable) -> None:
        """A new connection: its first ping is due one interval from now."""
        self._ping_due[conn] = asyncio.get_running_loop().time() + self.interval

    def remove(self, conn: Pingable) -> None:
        """A closed connection leaves both schedules."""
        self._ping_due.pop(conn, None)
        self._pong_due.pop(conn, None)

    def __len__(self) -> int:
        return len(self._ping_due)

    async def run(self) -> None:
        """Ping what is due and close what missed its pong, a fraction of the shorter of
        interval and timeout apart (at most 1 s), forever."""
        tick = min(1.0, self.interval / 4, self.timeout / 4)
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(tick)
            now = loop.time()
            self._close_unanswered(now)
            await self._ping_due_ones(now)

    async def _ping_due_ones(self, now: float) -> None:
        """Ping every connection due by `now`. A method of its own so that the last
        connection looked at is not held by `run`'s frame, forever: a closed connection
        would stay in memory, with its buffers, until another one came due."""
        sent = 0
        while self._ping_due:
            conn, due = next(iter(self._ping_due.items()))
            if due > now:
                break
            self._ping_due.move_to_end(conn)
            self._ping_due[conn] = now + self.interval
            waiting = self._pong_due.get(conn)
            if waiting is not None and not waiting[1].done():
                self.skipped += 1
                continue  # one ping at a time: the last one's pong is still due
            pong = await conn.ping()
            if pong is not None:
                self._pong_due.pop(conn, None)  # an answered one may wait here still
                self._pong_due[conn] = (now + self.timeout, pong)
            sent += 1
            if sent % PINGS_PER_TURN == 0:
                await asyncio.sleep(0)

    def _close_unanswered(self, now: float) -> None:
        while self._pong_due:
            conn, (deadline, pong) = next(iter(self._pong_due.items()))
            if deadline > now:
                return
            del self._pong_due[conn]
            if not pong.done():
                self.metrics.error("keepalive_timeout")
                conn.close_soon(CLOSE_KEEPALIVE_TIMEOUT, "keepalive ping timeout")
