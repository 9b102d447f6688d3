"""Every ruleset test that drives a game through `games` runs twice: straight against the
store, and through a real websocket gateway (tests/support/gateway_games.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.support.gateway_games import GatewayGames
from umpire.clients import UmpireClient
from umpire.events.redis_store import RedisEventStore
from umpire.server.app import running_gateway
from umpire.server.config import Settings
from umpire.server.embedded import EmbeddedRedis
from umpire.server.games import Games
from umpire.testing.support.dice import key_source, seed_source
from umpire.testing.support.nonces import NoncedGames


@pytest.fixture(params=["direct", "gateway"])
async def games(
    request: pytest.FixtureRequest,
    store: RedisEventStore,
    redis_server: EmbeddedRedis,
    prefix: str,
) -> AsyncIterator[Games | GatewayGames]:
    """`Games` on the test store, or the same over websocket frames through a gateway."""
    # The same deterministic seeds on both paths: the gateway variant plays the same game.
    direct = NoncedGames(
        store, snapshot_every=50, draw_seed=seed_source(request), draw_key=key_source(request)
    )
    if request.param == "direct":
        yield direct
        return
    # Generous limits: scripted games send many commands quickly from one connection.
    settings = Settings(port=0, prefix=prefix, max_messages_per_second=10_000, max_burst=10_000)
    async with (
        running_gateway(
            settings,
            redis_server.url,
            games_options={"draw_seed": seed_source(request), "draw_key": key_source(request)},
        ) as running,
        UmpireClient(f"ws://127.0.0.1:{running.port}/ws") as client,
    ):
        yield GatewayGames(client, direct)
