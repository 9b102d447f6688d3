"""Down in Flames played only through its legal actions, through a real gateway.

The supplemental rules have no end of their own (the base game's scenario ends a
dogfight): after a bounded number of random legal actions the player ends the game with
the listed `EndGame`; the log audits (002_c21c1b1d0b6ff92b.txt).
"""

from __future__ import annotations

import random

import pytest

from engine.audit import audit
from events.redis_store import RedisEventStore
from server.embedded import EmbeddedRedis
from tests.actions.play import gateway_client, play
from tests.actions.setups import DOWN_IN_FLAMES as SETUP
from tests.conftest import seed_source


async def test_down_in_flames_played_through_actions(
    request: pytest.FixtureRequest,
    redis_server: EmbeddedRedis,
    store: RedisEventStore,
    prefix: str,
) -> None:
    async with gateway_client(redis_server.url, prefix, seed_source(request)) as client:
        played = await play(
            client, "down_in_flames", SETUP, random.Random(2), limit=900, end_after=400
        )
    assert played.ended, played
    # The altitude was set and sides took turns with attacks resolved.
    assert played.types.get("BeginTurn", 0) > 10 and played.types.get("Attack", 0) > 10
    assert played.refused < played.commands, "\n".join(
        f"{k}: {v}" for k, v in played.refusals.items()
    )
    assert played.unlisted > 0  # unlisted types were tried, and refused
    report = audit(await store.read(played.game_id, 1))
    assert report.failure is None, report.failure
