"""A page of a feed's frames ends at the head it was asked at (server/feed.py, `frames`).

A catch-up counts the events it is owed up to the feed's head, asks for a page and
advances by that count. `frames` lets the event loop go once per page from the window;
events pushed meanwhile must not come with the page, or the catch-up sends them again on
its next page: the soak test saw a subscriber receive seqs 1..5 and then 4, 5 once more."""

from __future__ import annotations

import asyncio

from umpire.engine import registry
from umpire.engine.roles import Role
from umpire.events.redis_store import RedisEventStore
from umpire.server.feed import GameFeed
from umpire.server.games import Games


async def test_a_page_ends_at_the_head_it_was_asked_at(
    store: RedisEventStore, games: Games
) -> None:
    created = await games.create("counter", {"target": 10**6})
    for n in range(4):
        await games.handle(created.game_id, f"add-{n}", {"type": "Add", "amount": 1})
    feed = GameFeed(store, created.game_id, registry.get("counter"))
    await feed.refresh()
    head = feed.head
    # As if the last two events had not been pushed yet when the page was asked for.
    late = {seq: feed.window.pop(seq) for seq in (head - 1, head)}
    feed.head = head - 2
    page = asyncio.create_task(feed.frames(1, Role.SPECTATOR, 100))
    await asyncio.sleep(0)  # the page starts and lets the loop go
    feed.window.update(late)  # pushed while it waits
    feed.head = head
    frames = await page
    assert len(frames) == head - 2
