"""Two gateways on one Redis: same events, same order; neither holds state that matters."""

from __future__ import annotations

import asyncio

from umpire.clients import UmpireClient
from umpire.server.app import running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.gateways import gateway_settings


async def test_two_gateways_deliver_the_same_events_in_order(
    redis_server: EmbeddedRedis, prefix: str
) -> None:
    settings = gateway_settings(prefix)
    async with (
        running_gateway(settings, redis_server.url) as a,
        running_gateway(settings, redis_server.url) as b,
        UmpireClient(f"ws://127.0.0.1:{a.port}/ws") as on_a,
        UmpireClient(f"ws://127.0.0.1:{b.port}/ws") as on_b,
    ):
        created = await on_a.create("counter", {"target": 1_000_000})
        await on_b.auth(created.spectator_credential)
        expected = 1 + 40 * 3

        async def watch(client: UmpireClient) -> list[tuple[int, str]]:
            got = []
            async for frame in client.subscribe(created.game_id, 0):
                got.append((frame.seq, frame.hash))
                if frame.seq == expected:
                    return got
            return got

        watchers = [asyncio.create_task(watch(on_a)), asyncio.create_task(watch(on_b))]
        # Commands go through gateway A and through a player connection on gateway B.
        async with UmpireClient(f"ws://127.0.0.1:{b.port}/ws") as player_b:
            await player_b.auth(created.player_credential)
            for i in range(20):
                await on_a.send(created.game_id, {"type": "Push"}, command_id=f"a{i}")
                await player_b.send(created.game_id, {"type": "Push"}, command_id=f"b{i}")
        seen_a, seen_b = await asyncio.wait_for(asyncio.gather(*watchers), 30)
        assert [s for s, _ in seen_a] == list(range(1, expected + 1))
        assert seen_a == seen_b
        # Each feed counts exactly the subscriptions the gateway's connections hold.
        held = sum(len(conn.subs) for conn in a.gateway.connections)
        assert sum(len(f.subscriptions) for f in a.gateway.notifier.feeds.values()) == held
        # One gateway holds one pub/sub connection for all its games, not one per game.
        assert len(a.gateway.notifier.feeds) == 1
