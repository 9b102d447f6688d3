"""Contract: `actions` is the whole truth, for every installed ruleset (engine.registry,
no list to edit) and every role (issue 28 item 3; testing/support/action_truth.py).

Over seeded random play, at every step: (a) commands drawn from each listed action's
narrowed schema are accepted by `decide`; (b) a command of every unlisted type is refused
as `command_not_allowed` through the real store, and nothing is written; (c) what only a
type's full schema allows, outside the narrowed one, the rules refuse; a spectator is
listed nothing and refused everything. Hypothesis draws the seeds of the pure test's
games; the store test plays one seeded game.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from umpire.engine import registry
from umpire.engine.errors import CommandNotAllowed
from umpire.engine.game import Game, apply, start
from umpire.engine.handling import command_types
from umpire.engine.roles import Role
from umpire.engine.schemas import struct_schema
from umpire.events.redis_store import RedisEventStore
from umpire.events.types import ClientEntropy, GameCreated
from umpire.server.games import Games
from umpire.testing.support.action_truth import UNIVERSAL, check, listed
from umpire.testing.support.drivers import rulesets, start_setup
from umpire.testing.support.schema_sampler import sample

RULESETS = rulesets()
STEPS = 120  # accepted commands per game at most


def _new_game(name: str) -> Game:
    ruleset = registry.get(name)
    created = GameCreated(
        game_id="truth",
        ruleset=name,
        ruleset_version=ruleset.version,
        setup=start_setup(name),
        seed_commitment="0" * 64,
        client_entropy=ClientEntropy.WAIVED,
    )
    return start(ruleset, created)


def test_every_installed_ruleset_is_covered() -> None:
    assert set(registry.shipped()) <= set(RULESETS) == set(registry.installed())


@pytest.mark.parametrize("name", RULESETS)
@settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],  # a seed does not shrink usefully
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_listed_commands_are_accepted_and_nothing_else(name: str, seed: int) -> None:
    """(a), (c) and the spectator at every step of a random game, played on with one of
    the accepted commands until the game ends or STEPS. Hypothesis draws the game's seed
    (a seed, not its stream of draws: a whole game overruns hypothesis's buffer)."""
    rng = random.Random(seed)
    ruleset = registry.get(name)
    game = _new_game(name)
    for _ in range(STEPS):
        if game.meta.ended:
            break
        accepted = check(ruleset, game, rng)
        if not accepted:
            break  # only the universal commands are left: their own tests
        for event in rng.choice(accepted).events:
            game = apply(ruleset, game, event)
            game = Game(msgspec.structs.replace(game.meta, seq=game.meta.seq + 1), game.state)


@pytest.mark.parametrize("name", RULESETS)
async def test_unlisted_commands_are_refused_and_write_nothing(
    games: Games, store: RedisEventStore, name: str
) -> None:
    """(b) through the store: at every step of a seeded random game, a command of each
    unlisted type, sent as the player, and every type sent as a spectator, is refused as
    `command_not_allowed` and the log stays as it was."""
    ruleset = registry.get(name)
    types = command_types(ruleset)
    rng = random.Random(28)
    created = await games.create(name, start_setup(name))
    gid = created.game_id
    for step in range(STEPS):
        _, game = await games.load(gid)
        if game.meta.ended:
            break
        shown = {a.type for a in listed(ruleset, game, Role.PLAYER)}
        probes: list[tuple[Role, dict[str, Any]]] = [
            (Role.PLAYER, sample(struct_schema(types[tag]), rng))
            for tag in sorted(set(types) - shown - UNIVERSAL)
        ]
        anything = sample(struct_schema(types[rng.choice(sorted(types))]), rng)
        probes.append((Role.SPECTATOR, anything))
        version = await store.version(gid)
        for n, (role, command) in enumerate(probes):
            with pytest.raises(CommandNotAllowed) as info:
                await games.handle(gid, f"probe-{step}-{n}", command, role=role)
            assert info.value.code == "command_not_allowed"
            assert await store.version(gid) == version, command
        accepted = check(ruleset, game, rng, samples=1)
        if not accepted:
            break
        await games.handle(gid, f"play-{step}", rng.choice(accepted).command)
