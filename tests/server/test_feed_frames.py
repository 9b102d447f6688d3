"""A page of a feed's frames ends at the head it was asked at (server/feed.py, `frames`).

A catch-up counts the events it is owed up to the feed's head, asks for a page and
advances by that count. `frames` lets the event loop go once per page from the window;
events pushed meanwhile must not come with the page, or the catch-up sends them again on
its next page: the soak test saw a subscriber receive seqs 1..5 and then 4, 5 once more."""

from __future__ import annotations

import asyncio
import itertools

import msgspec

from umpire.engine import registry
from umpire.engine.game import codec_for
from umpire.engine.redaction import redact
from umpire.engine.roles import Role
from umpire.events.redis_store import RedisEventStore
from umpire.server.feed import GameFeed, encode_frame
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


async def test_window_frames_are_the_stored_events_frames(
    store: RedisEventStore, games: Games
) -> None:
    """The window holds its envelopes with shared strings (the previous event's hash as
    `prev_hash`, one command's id and time): every frame, for every role, revealed or
    not, is byte for byte the frame of the event as stored, in any order of asking."""
    created = await games.create("counter", {"target": 10**6})
    for n in range(3):
        await games.handle(created.game_id, f"add-{n}", {"type": "Add", "amount": n + 1})
    ruleset = registry.get("counter")
    feed = GameFeed(store, created.game_id, ruleset)
    await feed.refresh()
    stored = await store.read(created.game_id)
    assert [c.envelope for c in feed.window.values()] == stored
    keys = [(role, revealed) for role in Role for revealed in (False, True)]
    for order in (keys, keys[::-1]):
        for env in stored:
            cached = feed.window[env.seq]
            for role, revealed in order:
                event = feed.codec.decode(env.type, env.version, env.payload, seq=env.seq)
                expected = encode_frame(ruleset, env, event, role, revealed)
                assert cached.frame(ruleset, feed.codec, role, revealed) == expected
        feed.window = {}
        feed.head = 0
        await feed.refresh()
    # The strings an event repeats are held once (memory per active game).
    window = list(feed.window.values())
    for before, after in itertools.pairwise(window):
        assert after.envelope.prev_hash is before.envelope.hash
        assert after.envelope.game_id is before.envelope.game_id


async def test_a_frames_payload_is_the_builtins_of_the_shown_event(
    store: RedisEventStore, games: Games
) -> None:
    """`encode_frame` encodes the redacted event struct itself: its bytes in the frame are
    those of its `to_builtins` form, for every role (the wire stays exactly as it was)."""
    created = await games.create("counter", {"target": 10**6})
    await games.handle(created.game_id, "add", {"type": "Add", "amount": 2})
    ruleset = registry.get("counter")
    codec = codec_for(ruleset)
    for env in await store.read(created.game_id):
        event = codec.decode(env.type, env.version, env.payload, seq=env.seq)
        for role in Role:
            for revealed in (False, True):
                frame = encode_frame(ruleset, env, event, role, revealed)
                assert frame is not None
                shown = redact(ruleset, event, role, revealed=revealed)
                payload = msgspec.json.encode(msgspec.to_builtins(shown))
                assert b'"payload":' + payload + b"," in frame
