"""Downtown played only through its legal actions, through a real gateway.

The solo rules have no end of their own (the raid ends when the player's flights have
left the map, by the base game): the game runs a bounded number of random legal actions,
turn after turn, and then the player ends it with the listed `EndGame`; the log audits
(000_842c81c5c58bc2f6.txt).
"""

from __future__ import annotations

import random

import pytest

from engine.audit import audit
from events.redis_store import RedisEventStore
from server.embedded import EmbeddedRedis
from tests.actions.play import gateway_client, play
from tests.conftest import seed_source
from tests.rulesets.downtown.test_scripted_raid import SETUP


async def test_downtown_played_through_actions(
    request: pytest.FixtureRequest,
    redis_server: EmbeddedRedis,
    store: RedisEventStore,
    prefix: str,
) -> None:
    async with gateway_client(redis_server.url, prefix, seed_source(request)) as client:
        played = await play(client, "downtown", SETUP, random.Random(4), limit=900, end_after=400)
    assert played.ended, played
    # Several whole turns: every phase was run more than once.
    for kind in ("RunDetectionPhase", "RunSamAcquisitionPhase", "RunAdminPhase"):
        assert played.types.get(kind, 0) > 3, played.types
    assert played.refused < played.commands, "\n".join(
        f"{k}: {v}" for k, v in played.refusals.items()
    )
    assert played.unlisted > 0  # unlisted types were tried, and refused
    report = audit(await store.read(played.game_id, 1))
    assert report.failure is None, report.failure
