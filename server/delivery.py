"""How a connection (server/connection.py `Connection`) serves its subscriptions: each catches up
in a task of its own (from the feed's window or the stream, paced by the connection's
budget), then the feed delivers it live; a revocation or a rewound log ends it."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from typing import TYPE_CHECKING

from umpire.events.wire import CLOSE_RESYNC
from umpire.server.admission import catch_up_cost
from umpire.server.driver import stop_catch_up
from umpire.server.session import Session
from umpire.server.subscription import Subscription

if TYPE_CHECKING:
    # Types only: the gateway imports the connection, which imports this module.
    from umpire.server.gateway import Gateway

log = logging.getLogger("umpire.gateway")

# Events a catch-up sends per step: a page read from the stream is decoded and encoded in
# one go (~60 µs an event), so the page bounds how long it holds the event loop. 25 and 20
# (were 100 and 50): under 20 hostile connections a normal player's p99 fell from 24-35 to
# 18-26 ms for views, 23-25 to 11-17 ms for commands (python -m bench hostile, A/B).
CATCH_UP_PAGE = 25
# Events a catch-up reads from the stream in one round trip. They are still decoded and
# encoded CATCH_UP_PAGE at a time, with a turn of the loop between (GameFeed.frames): the
# round trip per 25 events, not the work, bounded a catch-up's rate (~47,000 events/s
# against 50,000 with pages of 100: python -m bench, catch-up of a 100,000-event game).
STREAM_PAGE = 100
# How long a closed connection's cleanup may take (each subscription's catch-up is waited
# for at most this long) before shutdown aborts it.
CLEANUP_SECONDS = 5.0


class SlowConsumer(Exception):
    """The client did not read its frames in time."""


def _forget_task(sub: Subscription, task: asyncio.Task[None]) -> None:
    """Drop `sub`'s reference to its ended catch-up task (see `Connection._finish`)."""
    if sub.task is task:
        sub.task = None


class Delivery:
    """A connection's subscriptions served: catch-up, hand-over to the feed, ending."""

    __slots__ = ()

    # What is read of the connection (server/connection.py `Connection`).
    gw: Gateway
    session: Session
    out: asyncio.Queue[bytes | None]
    _closing: asyncio.Task[None] | None
    _lost: dict[str, Subscription]

    if TYPE_CHECKING:  # the connection's own (server/connection.py)

        async def send(self, frame: bytes) -> None: ...
        async def close(self, code: int, reason: str) -> None: ...

    def lagging(self, sub: Subscription) -> None:
        """The feed could not deliver to `sub` live: catch it up in a task of its own."""
        self.gw.metrics.subscriptions_lagged += 1
        if self.session.subs.get(sub.feed.game_id) is sub and self._closing is None:
            sub.task = asyncio.create_task(self._catch_up(sub))

    async def _catch_up(self, sub: Subscription) -> None:
        """Send `sub` what it is owed up to the feed's head, then hand it to the feed."""
        feed = sub.feed
        me = asyncio.current_task()
        try:
            # Checking `cancelling()` too: a cancellation swallowed by a library call must
            # still end the task (one that outlives its subscription leaks forever).
            while me is None or not me.cancelling():
                if feed.head < sub.next_seq and feed.gap is not None:
                    sub.task = None
                    await self.gapped(sub, *feed.gap)  # caught up to a gap: no further
                    return
                if feed.head < sub.next_seq:
                    sub.task = None
                    feed.join(sub)  # no await since the check: nothing can come between
                    return
                if sub.next_seq in feed.window:  # encoded once, shared: cheap
                    count = min(feed.head, sub.next_seq + CATCH_UP_PAGE - 1) - sub.next_seq + 1
                    frames = await feed.frames(sub.next_seq, sub.role, count)
                else:  # read from the stream and encoded for this client alone
                    # Up to the window's first event: those after it are in memory.
                    oldest = next(iter(feed.window), feed.head + 1)
                    count = await self._pay_for_page(sub.next_seq, min(feed.head, oldest - 1))
                    async with self.gw.heavy:
                        frames = await feed.frames(
                            sub.next_seq, sub.role, count, turn_every=CATCH_UP_PAGE
                        )
                for frame in frames:
                    await self.send(frame)
                self.gw.metrics.events_delivered += len(frames)
                sub.next_seq += count
        except SlowConsumer:
            return  # the resync close is under way
        except Exception:
            log.exception("subscription catch-up failed")
            with contextlib.suppress(Exception):
                await self.close(CLOSE_RESYNC, "subscription failed: resume from last seq")
            return
        finally:
            # A cancelled task keeps its CancelledError, whose traceback holds this frame:
            # with `me` in it, task, error and frame would form a cycle (as the writer's).
            me = None
        # The loop ended on `cancelling()`: a library call swallowed the cancellation. End
        # cancelled all the same, so whoever cancelled it and waits sees it cancelled.
        raise asyncio.CancelledError

    async def _pay_for_page(self, start: int, end: int) -> int:
        """How many events from `start` (up to `end`) the next read from the stream
        takes, paid for.

        Paid CATCH_UP_PAGE events at a time, as each step is worked: the first step
        waits for its budget (paced, never refused), and the page grows by more steps up
        to STREAM_PAGE only while the budgets can pay at once, so a read never waits for
        more than one step's cost and a small budget still sees its events come."""
        limit = min(end, start + STREAM_PAGE - 1) - start + 1
        count = min(CATCH_UP_PAGE, limit)
        while wait := self.session.pace("catch_up", catch_up_cost(count), time.monotonic()):
            await asyncio.sleep(wait)
        while count < limit:
            step = min(CATCH_UP_PAGE, limit - count)
            if self.session.pace("catch_up", catch_up_cost(step), time.monotonic()):
                break  # not at once: read what is paid
            count += step
        return count

    async def _finish(self, sub: Subscription) -> None:
        """Wait for the catch-up of an ended subscription, then release its feed."""
        task = sub.task
        if task is not None:
            # Bounded: the task ends within one read even if a cancellation was lost.
            await asyncio.wait({task}, timeout=CLEANUP_SECONDS)
            # Let go of the ended task: its CancelledError's traceback holds the catch-up's
            # frame, which holds `sub` (a cycle, and this connection in it). On a loaded
            # machine it may still be ending: then let go of it the moment it ends.
            if task.done():
                _forget_task(sub, task)
            else:
                task.add_done_callback(functools.partial(_forget_task, sub))
        await self.gw.notifier.release(sub.feed)

    def lose_game_now(self, game_id: str) -> None:
        """Drop the role for `game_id` and stop live delivery of its events, at once (no
        await): `lose_game` then ends the subscription and tells the client."""
        sub = self.session.lose_game_now(game_id)
        if sub is not None:
            stop_catch_up(sub.task)
            self._lost[game_id] = sub

    async def lose_game(self, game_id: str) -> None:
        """The credential for `game_id` was revoked: drop its role and its subscription,
        and tell the client (an unsolicited `credential_revoked` error frame)."""
        self.lose_game_now(game_id)
        sub = self._lost.pop(game_id, None)
        if sub is not None:
            await self._finish(sub)
        self._tell(self.session.revoked_notice(game_id, dropped=sub is not None))

    async def gapped(self, sub: Subscription, first: int, last: int) -> None:
        """The game's log skips `first`..`last` (the store lost a middle step): end the
        subscription and tell the client (an unsolicited `log_gap` error frame), where it
        waited for events that could never come in order."""
        if await self._ended(sub, "log_gap"):
            self._tell(self.session.gap_notice(sub.feed.game_id, first, last))

    async def rewound(self, sub: Subscription, head: int) -> None:
        """The game's log now ends at `head`, before events this client may have been
        sent (the store lost acknowledged writes): end the subscription and tell the
        client (an unsolicited `log_rewound` error frame) to subscribe again."""
        if await self._ended(sub, "log_rewound"):
            self._tell(self.session.rewound_notice(sub.feed.game_id, head))

    async def _ended(self, sub: Subscription, code: str) -> bool:
        """End `sub`, which the server ends (`code`, counted), if it is still this
        connection's subscription to its game: True."""
        game_id = sub.feed.game_id
        if self.session.subs.get(game_id) is not sub:
            return False
        self.session.unsubscribe(game_id)
        stop_catch_up(sub.task)
        await self._finish(sub)
        self.gw.metrics.error(code)
        return True

    def _tell(self, notice: bytes) -> None:
        """Queue an unsolicited notice for the client."""
        # Never wait on another client's full queue: a slow reader is closed anyway.
        with contextlib.suppress(asyncio.QueueFull):
            self.out.put_nowait(notice)
