"""Age of Dogfights played only through its legal actions, through a real gateway.

The game ends by its own rule (General Rules: no bot, or no player aircraft, left in the
Combat Zone): random legal actions from the setup rolls to that end, never `EndGame`;
the log audits (001_989a2f850da69b66.txt).
"""

from __future__ import annotations

import random

import pytest

from engine.audit import audit
from events.redis_store import RedisEventStore
from server.embedded import EmbeddedRedis
from tests.actions.play import gateway_client, play
from tests.conftest import seed_source
from tests.rulesets.age_of_dogfights.test_scripted_dogfight import SETUP


async def test_age_of_dogfights_played_through_actions(
    request: pytest.FixtureRequest,
    redis_server: EmbeddedRedis,
    store: RedisEventStore,
    prefix: str,
) -> None:
    async with gateway_client(redis_server.url, prefix, seed_source(request)) as client:
        played = await play(client, "age_of_dogfights", SETUP, random.Random(5), limit=400)
    assert played.ended, played
    assert played.types.get("FlyBots", 0) > 0, played.types
    assert "EndGame" not in played.types
    assert played.unlisted > 0  # unlisted types were tried, and refused
    report = audit(await store.read(played.game_id, 1))
    assert report.failure is None, report.failure
