"""The counter test ruleset played through its actions: the contract's smallest case."""

from __future__ import annotations

import random

import pytest

from engine.audit import audit
from events.redis_store import RedisEventStore
from server.embedded import EmbeddedRedis
from tests.actions.play import gateway_client, play
from tests.conftest import seed_source


async def test_counter_played_through_actions_to_its_end(
    request: pytest.FixtureRequest,
    redis_server: EmbeddedRedis,
    store: RedisEventStore,
    prefix: str,
) -> None:
    async with gateway_client(redis_server.url, prefix, seed_source(request)) as client:
        played = await play(client, "counter", {"target": 40}, random.Random(1), limit=200)
    assert played.ended and played.refused == 0, played
    report = audit(await store.read(played.game_id, 1))
    assert report.failure is None, report.failure
