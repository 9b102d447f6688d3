"""Through a real gateway: a wire `create` with no setup starts the ruleset's default
scenario (as `umpire new RULESET` does), and `TakeBack` is an ordinary wire command,
listed in the `state` frame's actions exactly when allowed (issue #18)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from umpire.clients import UmpireError as ErrorFrame
from umpire.engine import registry
from umpire.engine.game import codec_for
from umpire.events.redis_store import RedisEventStore
from umpire.events.types import GameCreated
from umpire.events.wire import Action
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.dice import seed_source
from umpire.testing.support.legal_play import choose, gateway_client

RULESETS = registry.shipped()


async def _created_setup(store: RedisEventStore, game_id: str, ruleset: str) -> dict[str, Any]:
    (first,) = await store.read(game_id, 1, 1)
    created = codec_for(registry.get(ruleset)).decode(first.type, first.version, first.payload)
    assert isinstance(created, GameCreated)
    return created.setup


@pytest.mark.parametrize("name", RULESETS)
async def test_a_create_with_no_setup_starts_the_default_scenario(
    request: pytest.FixtureRequest,
    redis_server: EmbeddedRedis,
    store: RedisEventStore,
    prefix: str,
    name: str,
) -> None:
    ruleset = registry.get(name)
    assert ruleset.default_scenario
    async with gateway_client(redis_server.url, prefix, seed_source(request)) as client:
        named = await client.create(name, {}, scenario=ruleset.default_scenario)
        default = await _created_setup(store, named.game_id, name)
        empty = await client.create(name, {}, client_entropy="waived")
        missing = await client.request(
            {"type": "create", "ruleset": name, "client_entropy": "waived"}
        )
        for game_id in (empty.game_id, missing.game_id):
            assert await _created_setup(store, game_id, name) == default


async def test_takeback_over_the_wire(
    request: pytest.FixtureRequest, redis_server: EmbeddedRedis, prefix: str
) -> None:
    async with gateway_client(redis_server.url, prefix, seed_source(request)) as client:
        created = await client.create("counter", {"target": 100}, client_entropy="waived")
        gid = created.game_id
        view = await client.view(gid)
        assert "TakeBack" not in [a.type for a in view.actions]
        await client.send(gid, {"type": "Add", "amount": 2}, command_id="first")
        await client.send(gid, {"type": "Add", "amount": 3}, command_id="second")
        view = await client.view(gid)
        (action,) = [a for a in view.actions if a.type == "TakeBack"]
        assert action.description.startswith("Take back: Add (seq 4)")
        await client.send(gid, {"type": "TakeBack"}, command_id="tb1")
        view = await client.view(gid)
        assert view.state["total"] == 2
        await client.send(gid, {"type": "Push"}, command_id="push")
        view = await client.view(gid)
        assert "TakeBack" not in [a.type for a in view.actions]
        with pytest.raises(ErrorFrame) as info:
            await client.send(gid, {"type": "TakeBack"}, command_id="tb2")
        assert info.value.code == "command_not_allowed"
        assert "a die was rolled since: at seq" in info.value.message
        assert info.value.details["why"] == "roll"
        assert (await client.view(gid)).seq == view.seq  # nothing written


def test_random_play_picks_takeback_seldom_and_from_its_own_stream() -> None:
    actions = [
        Action(type=t, rule="r", description="d", schema={})
        for t in ("Add", "RollDice", "EndGame", "TakeBack")
    ]
    rng, takebacks = random.Random(3), random.Random(1)
    picks = [choose(actions, rng, takebacks).type for _ in range(2000)]
    assert 0 < picks.count("TakeBack") < 150
    # Without a takeback stream the game's own picks never take back.
    assert "TakeBack" not in {choose(actions, random.Random(n)).type for n in range(200)}
