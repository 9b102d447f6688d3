"""Nightfighter played only through its legal actions, through a real gateway.

The game ends by its own rule (EXAMPLE OF PLAY turn 13: the last nightfighter leaving
the map ends the game): random legal actions, phase after phase, until every fighter has
flown off the map, never `EndGame`; the log audits (004_c3eb2ad371d7bb6a.txt).
"""

from __future__ import annotations

import random

import msgspec
import pytest

from engine.audit import audit
from events.redis_store import RedisEventStore
from server.embedded import EmbeddedRedis
from tests.actions.play import gateway_client, play
from tests.conftest import seed_source
from tests.rulesets.nightfighter.test_random_play import _setup


async def test_nightfighter_played_through_actions(
    request: pytest.FixtureRequest,
    redis_server: EmbeddedRedis,
    store: RedisEventStore,
    prefix: str,
) -> None:
    setup = msgspec.to_builtins(_setup(1))
    async with gateway_client(redis_server.url, prefix, seed_source(request)) as client:
        played = await play(client, "nightfighter", setup, random.Random(6), limit=1500)
    assert played.ended, (played.commands, played.refusals)
    assert "EndGame" not in played.types
    for kind in ("MoveBombers", "MoveFighter", "PlaceRadarSearches", "EndPhase"):
        assert played.types.get(kind, 0) > 0, played.types
    assert played.unlisted > 0  # unlisted types were tried, and refused
    report = audit(await store.read(played.game_id, 1))
    assert report.failure is None, report.failure
