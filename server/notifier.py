"""One gateway's ear on every game it serves: the feeds it holds, and what makes them read.

One `Notifier` hears every game through the store's game channels (events/notifications.py;
on Redis a single pub/sub connection for all games, events/redis_channels.py), so a
gateway serving thousands of games holds no blocked connection per game. Notifications are
only hints: the stream is the truth, and a periodic version check covers any notification
lost while the store was away.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from umpire.engine.game import ruleset_of
from umpire.events.backoff import Backoff
from umpire.events.errors import GameNotFound, StoreUnavailable
from umpire.events.notifications import GameChannels
from umpire.events.store import Store
from umpire.server.background import cancel_all
from umpire.server.game_feed import WINDOW, GameFeed, StateBuilder, revealed_through

# The feed's logger: the notifier was part of server/feed.py, and operators' filters name it.
log = logging.getLogger("umpire.feed")

POLL_SECONDS = 1.0


class Notifier:
    """All feeds of this gateway, the store's game channels, and a safety poll.

    On Redis the channels are one pub/sub connection; on a Redis Cluster the append script
    publishes with SPUBLISH and the channels hold one connection per master instead
    (events/redis_channels.py `ShardChannels`): still a handful, never one per game.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.feeds: dict[str, GameFeed] = {}
        self.channels: GameChannels | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._refreshing: set[asyncio.Task[None]] = set()
        self._opening: dict[str, asyncio.Future[GameFeed]] = {}
        self.backoff = Backoff()  # between tries to listen again while the store is away
        # Builds the pushed state frames (server/gateway.py sets it; None: none are pushed).
        self.state_builder: StateBuilder | None = None

    async def start(self) -> None:
        """Start listening and polling."""
        self._tasks = [asyncio.create_task(self._poll(), name="notifier-poll")]
        self.channels = self.store.notifications.game_channels(
            self._notified, self.backoff, Backoff
        )
        self.channels.start()

    async def stop(self) -> None:
        """Stop listening."""
        await cancel_all(self._tasks)
        if self.channels is not None:
            await self.channels.close()

    async def feed(self, game_id: str) -> GameFeed:
        """The feed of a game, created (and subscribed to) on first use.

        Concurrent first subscribers of one game share one creation: two feeds for one
        game would leave all but the last orphaned, never refreshed, their subscribers
        waiting forever (the benchmark's 1,000 simultaneous subscribers found this).

        The feed returned is this notifier's feed of the game when the caller resumes: the
        caller attaches its subscription before its next await, and from then on `release`
        keeps the feed. (A feed released while the caller waited for its opening, by the
        last subscriber of the game leaving, is opened again.)
        """
        while True:
            feed = self.feeds.get(game_id)
            if feed is not None:
                return feed
            opening = self._opening.get(game_id)
            if opening is None:
                opening = asyncio.ensure_future(self._open(game_id))
                self._opening[game_id] = opening
                opening.add_done_callback(lambda _: self._opening.pop(game_id, None))
            # shield: one waiter cancelled (its client left) does not cancel the others'.
            feed = await asyncio.shield(opening)
            if self.feeds.get(game_id) is feed:
                return feed

    async def _open(self, game_id: str) -> GameFeed:
        first = await self.store.read(game_id, 1, 1)
        if not first:
            raise GameNotFound(f"no game {game_id!r}", game_id=game_id)
        feed = GameFeed(self.store, game_id, ruleset_of(first[0]), self.state_builder)
        # Start the window near the head rather than folding the whole log: older events
        # are served from the stream. The reveal state is still exact, since a seed is
        # revealed either by a reveal command (in the command-id map) or in the batch
        # that ends the game, which is the last batch and so inside the window.
        version = await self.store.version(game_id)
        feed.head = max(0, version - WINDOW)
        feed.revealed_through = await revealed_through(self.store, game_id, version)
        self.feeds[game_id] = feed
        if self.channels is not None:
            await self.channels.watch(game_id)
        await feed.refresh()
        return feed

    async def release(self, feed: GameFeed) -> None:
        """Drop a feed nobody subscribes to any more (one still opening is kept: its
        opener's waiters are about to attach)."""
        if (
            feed.subscriptions
            or self.feeds.get(feed.game_id) is not feed
            or feed.game_id in self._opening
        ):
            return
        del self.feeds[feed.game_id]
        if self.channels is not None:
            await self.channels.unwatch(feed.game_id)

    def _notified(self, game_id: str) -> None:
        """A game's channel said it moved on: refresh its feed in the background."""
        feed = self.feeds.get(game_id)
        if feed is not None:
            task = asyncio.create_task(feed.refresh())
            self._refreshing.add(task)
            task.add_done_callback(self._refreshed)

    def _refreshed(self, task: asyncio.Task[Any]) -> None:
        """A background refresh ended: a store that went away is one log line (the 1 s
        version poll refreshes the feed again once it is back), never an unretrieved
        task's traceback."""
        self._refreshing.discard(task)
        if task.cancelled():
            return
        exc = task.exception()
        if isinstance(exc, StoreUnavailable):
            log.warning("feed refresh: the store is unavailable (%s)", exc.message)
        elif exc is not None:
            log.error("feed refresh failed: %r", exc)

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(POLL_SECONDS)
            feeds = list(self.feeds.values())
            try:
                for start in range(0, len(feeds), 500):
                    chunk = feeds[start : start + 500]
                    versions = await self.store.versions([feed.game_id for feed in chunk])
                    for feed, version in zip(chunk, versions, strict=True):
                        if version is None:
                            continue
                        if version > feed.head:
                            await feed.refresh()
                        elif version < feed.head:
                            await feed.rewind_if_behind()  # read again, under its lock
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("notifier poll: %s", exc)
