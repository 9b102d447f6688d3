"""A subscriber to a long game gets every event from its seq, and a seed revealed long
ago mid-game is honoured from the stream as from the window: it lifts no redaction (issue
#30 item 4; the feed starts its window near the head, not at seq 1)."""

from __future__ import annotations

import asyncio
import contextlib

from umpire.clients import UmpireClient
from umpire.server.app import Running
from umpire.server.game_feed import WINDOW
from umpire.testing.support.gateways import append_added


async def test_a_long_game_is_served_from_seq_1_and_its_early_reveal_is_honoured(
    gateway: Running, ws_url: str
) -> None:
    async with UmpireClient(ws_url) as player:
        # Waived client entropy (logged at creation): no bind batch, so the seqs below hold.
        created = await player.create("counter", {"target": 1_000_000}, client_entropy="waived")
        await player.send(created.game_id, {"type": "Hide"}, command_id="h")  # seqs 2-4
        await gateway.gateway.games.reveal(created.game_id)  # seq 5
        await append_added(gateway, created.game_id, WINDOW + 500, batch=100)
        head = await gateway.gateway.store.version(created.game_id)
        assert head > WINDOW + 5  # long enough that seq 1-5 fall outside a fresh window
    async with UmpireClient(ws_url) as spectator:
        await spectator.auth(created.spectator_credential)
        frames = []

        async def collect() -> None:
            async for frame in spectator.subscribe(created.game_id, 0):
                frames.append(frame)
                if frame.seq == head:
                    return

        await asyncio.wait_for(collect(), 60)
    assert [f.seq for f in frames] == list(range(1, head + 1))
    feed = gateway.gateway.notifier.feeds.get(created.game_id)
    assert feed is None or min(feed.window) > 5  # the early events came from the stream
    secret = next(f for f in frames if f.event_type == "counter.SecretChosen")
    hidden_roll = frames[2]
    # Revealed mid-game: the ruleset's secret and the hidden roll that drew it stay sealed
    # until the game ends (issue #30 item 4), also from the stream.
    assert secret.payload is None and secret.committed
    assert hidden_roll.event_type == "DiceRolled" and not hidden_roll.payload["faces"]


async def test_a_full_window_gives_the_garbage_collector_nothing_to_visit(
    gateway: Running, ws_url: str
) -> None:
    """A feed's window of 2,048 events is held as untracked objects (envelopes, frames),
    so a full collection, which stops the gateway's loop, does not grow with long games
    (it was three tracked objects per event: 100 ms for 50 full windows, docs/scale-out.md)."""
    import gc

    async with UmpireClient(ws_url) as player:
        created = await player.create("counter", {"target": 1_000_000})
        await append_added(gateway, created.game_id, WINDOW + 100, batch=100)
        head = await gateway.gateway.store.version(created.game_id)
        seen: list[int] = []
        caught_up = asyncio.Event()

        async def watch() -> None:  # stays subscribed until cancelled
            async for frame in player.subscribe(created.game_id, head - WINDOW):
                seen.append(frame.seq)
                if frame.seq == head:
                    caught_up.set()

        watcher = asyncio.create_task(watch())
        try:
            await asyncio.wait_for(caught_up.wait(), 60)
            assert seen == list(range(head - WINDOW + 1, head + 1))
            feed = gateway.gateway.notifier.feeds[created.game_id]
            assert len(feed.window) == WINDOW
            cached = list(feed.window.values())
            assert all(c.first for c in cached)  # every frame was encoded and is held
            tracked = [c for c in cached if gc.is_tracked(c) or gc.is_tracked(c.envelope)]
            tracked += [c for c in cached if c.more is not None and gc.is_tracked(c.more)]
            assert tracked == []
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
