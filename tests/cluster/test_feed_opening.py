"""Many first subscribers of one game at once share one feed, on one Redis and on the
cluster: a second feed for the same game would be orphaned and never woken."""

from __future__ import annotations

import asyncio

import pytest

from events.redis_store import RedisEventStore
from server.feed import Notifier
from server.games import Games


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
        await games.handle(created.game_id, "a1", {"type": "Add", "amount": 1})
        # Woken by the notification (well before the 1 s safety poll).
        await asyncio.wait_for(feeds[0].wait_beyond(1, timeout=0.8), 1)
        assert feeds[0].head >= 2
    finally:
        await notifier.stop()
