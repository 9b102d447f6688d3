"""Conflict of Heroes played only through its legal actions, through a real gateway.

The solo expansion has no end of its own (the base game's mission ends it, which the
player reports): the game runs a bounded number of random legal actions and then the
player ends it with the listed `EndGame`; the log audits (003_368c69a730e6e14a.txt).
"""

from __future__ import annotations

import random

import pytest

from engine.audit import audit
from events.redis_store import RedisEventStore
from server.embedded import EmbeddedRedis
from tests.actions.play import gateway_client, play
from tests.conftest import seed_source


async def test_conflict_of_heroes_played_through_actions(
    request: pytest.FixtureRequest,
    redis_server: EmbeddedRedis,
    store: RedisEventStore,
    prefix: str,
) -> None:
    async with gateway_client(redis_server.url, prefix, seed_source(request)) as client:
        played = await play(
            client, "conflict_of_heroes", {}, random.Random(3), limit=600, end_after=300
        )
    assert played.ended, played
    # Turns alternated many times: AI turns taken, player turns of every kind tried.
    turns = ("UnitAction", "CommandAction", "CardAction", "Stall", "Pass")
    assert played.types.get("TakeAiTurn", 0) > 20, played.types
    assert all(played.types.get(kind, 0) > 0 for kind in turns), played.types
    assert played.refused < played.commands, "\n".join(
        f"{k}: {v}" for k, v in played.refusals.items()
    )
    assert played.unlisted > 0  # unlisted types were tried, and refused
    report = audit(await store.read(played.game_id, 1))
    assert report.failure is None, report.failure
