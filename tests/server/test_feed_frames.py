"""A page of a feed's frames ends at the head it was asked at (server/feed.py, `frames`).

A catch-up counts the events it is owed up to the feed's head, asks for a page and
advances by that count. `frames` lets the event loop go once per page from the window;
events pushed meanwhile must not come with the page, or the catch-up sends them again on
its next page: the soak test saw a subscriber receive seqs 1..5 and then 4, 5 once more."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import msgspec
import pytest

from umpire.engine import registry
from umpire.engine.game import codec_for
from umpire.engine.redaction import is_secret, redact
from umpire.engine.roles import Role
from umpire.events.redis_store import RedisEventStore
from umpire.server import event_frames
from umpire.server.event_frames import encode_frame
from umpire.server.game_feed import GameFeed
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
    # A secret event (R3's hidden roll and withheld number): frames per role.
    await games.handle(created.game_id, "hide", {"type": "Hide"})
    await games.handle(created.game_id, "add-3", {"type": "Add", "amount": 1})
    ruleset = registry.get("counter")
    feed = GameFeed(store, created.game_id, ruleset)
    await feed.refresh()
    stored = await store.read(created.game_id)
    assert [c.envelope for c in feed.window.values()] == stored
    assert any(is_secret(ruleset, feed.codec.decode(e.type, e.version, e.payload)) for e in stored)
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


async def test_a_public_event_is_encoded_once_for_every_role_and_lets_its_envelope_go(
    store: RedisEventStore, games: Games, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An event no role sees less of has one frame, the same bytes for every role,
    revealed or not: encoded once, after which the window holds no envelope for it (memory
    per active game). A secret event keeps its envelope and has a frame per role."""
    created = await games.create("counter", {"target": 10**6})
    await games.handle(created.game_id, "add", {"type": "Add", "amount": 2})
    await games.handle(created.game_id, "hide", {"type": "Hide"})
    ruleset = registry.get("counter")
    feed = GameFeed(store, created.game_id, ruleset)
    await feed.refresh()
    encoded: list[int] = []

    def counted(*args: Any) -> bytes | None:
        encoded.append(args[1].seq)
        return encode_frame(*args)

    monkeypatch.setattr(event_frames, "encode_frame", counted)
    keys = [(role, revealed) for role in Role for revealed in (False, True)]
    secret = public = 0
    for env in await store.read(created.game_id):
        event = feed.codec.decode(env.type, env.version, env.payload)
        cached = feed.window[env.seq]
        frames = [cached.frame(ruleset, feed.codec, role, revealed) for role, revealed in keys]
        if is_secret(ruleset, event):
            secret += 1
            assert cached.envelope == env
            assert frames[0] != frames[-1]  # the player's, hidden, and the revealed
            assert encoded.count(env.seq) == len(keys)
        else:
            public += 1
            assert cached.envelope is None
            assert all(frame is frames[0] for frame in frames)
            assert encoded.count(env.seq) == 1
    assert secret and public


async def test_a_rewind_finds_the_seed_reveal_in_a_window_of_frames(
    store: RedisEventStore, games: Games
) -> None:
    """`rewind_if_behind` reads the reveal state from the window after the envelopes of
    public events were let go: the SeedRevealed of the game's end keeps its own."""
    created = await games.create("counter", {"target": 3})
    await games.handle(created.game_id, "hide", {"type": "Hide"})
    await games.handle(created.game_id, "end", {"type": "Add", "amount": 3})
    ruleset = registry.get("counter")
    feed = GameFeed(store, created.game_id, ruleset)
    await feed.refresh()
    head = feed.head
    revealed = feed.revealed_through
    assert revealed == head  # the game's last batch ends in its seed's reveal
    await feed.frames(1, Role.SPECTATOR, 100)
    # As if this gateway had read one event more than the log now holds.
    feed.window[head + 1] = feed.window[head]
    feed.head = head + 1
    feed.revealed_through = head + 1
    await feed.rewind_if_behind()
    assert (feed.head, feed.revealed_through) == (head, revealed)


async def test_a_page_from_the_stream_is_one_read_and_lets_the_loop_go_between_steps(
    store: RedisEventStore, games: Games, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A catch-up beyond the window reads a page of the stream in one round trip and
    decodes and encodes it `turn_every` events at a time, with a turn of the event loop
    between (server/delivery.py STREAM_PAGE, CATCH_UP_PAGE): the round trip per small
    page bounded its rate, the work per step bounds how long it holds the loop."""
    created = await games.create("counter", {"target": 10**6})
    for n in range(60):
        await games.handle(created.game_id, f"add-{n}", {"type": "Add", "amount": 1})
    head = await store.version(created.game_id)
    feed = GameFeed(store, created.game_id, registry.get("counter"))
    feed.head = head  # nothing in the window: every frame comes from the stream
    reads: list[tuple[int, int | None]] = []
    read = store.read

    async def counted(game_id: str, from_seq: int = 1, to_seq: int | None = None) -> Any:
        reads.append((from_seq, to_seq))
        return await read(game_id, from_seq, to_seq)

    monkeypatch.setattr(store, "read", counted)
    turns = 0

    async def ticker() -> None:
        nonlocal turns
        while True:
            await asyncio.sleep(0)
            turns += 1

    ticking = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    before = turns
    frames = await feed.frames(1, Role.SPECTATOR, head, turn_every=25)
    during = turns - before
    ticking.cancel()
    assert len(frames) == head and head > 100
    assert reads == [(1, head)]
    # One turn after each 25 events but the first; the read itself may add one.
    assert during >= (head - 1) // 25
    expected = [
        encode_frame(feed.ruleset, env, feed.codec.decode(env.type, env.version, env.payload),
                     Role.SPECTATOR, False)
        for env in await read(created.game_id)
    ]  # fmt: skip
    assert frames == expected
