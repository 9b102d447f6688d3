"""Many first subscribers of one game at once share one feed, on one Redis and on the
cluster: a second feed for the same game would be orphaned and never woken."""

from __future__ import annotations

import asyncio

import pytest

from umpire.engine.roles import Role
from umpire.events.redis_store import RedisEventStore
from umpire.server.framing import Batch
from umpire.server.games import Games
from umpire.server.notifier import Notifier
from umpire.server.subscription import Subscription


class Recording:
    """A sink that keeps what the feed pushes to it."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []
        self.arrived = asyncio.Event()

    def offer(self, batch: Batch) -> bool:
        self.frames.extend(batch.frames)
        self.arrived.set()
        return True

    def lagging(self, sub: Subscription) -> None:
        raise AssertionError("a sink with room never lags")

    async def rewound(self, sub: Subscription, head: int) -> None:
        raise AssertionError("nothing here loses writes")


@pytest.mark.parametrize("where", ["single", "cluster"])
async def test_simultaneous_first_subscribers_share_one_live_feed(
    where: str, store: RedisEventStore, cluster_store: RedisEventStore
) -> None:
    chosen = store if where == "single" else cluster_store
    games = Games(chosen)
    created = await games.create("counter", game_id="together")
    notifier = Notifier(chosen)
    await notifier.start()
    try:
        feeds = await asyncio.gather(*(notifier.feed(created.game_id) for _ in range(100)))
        assert len({id(f) for f in feeds}) == 1
        assert notifier.feeds[created.game_id] is feeds[0]
        sink = Recording()
        feeds[0].join(Subscription(feeds[0], sink, Role.PLAYER, feeds[0].head + 1))
        await games.handle(created.game_id, "a1", {"type": "Add", "amount": 1})
        # Pushed on the notification (well before the 1 s safety poll).
        await asyncio.wait_for(sink.arrived.wait(), 0.8)
        assert feeds[0].head >= 2
        assert b'"seq":2' in sink.frames[0]
    finally:
        await notifier.stop()
