"""Differential: a refusal says nothing that depends on a secret (issue #32, item 3).

Each ruleset's game is played as twins on the real store, under the same game id, seed and
commands: one as drawn, the others differing only in what the player and a spectator may not
know (testing/support/secret_twins.py: hidden rolls moved to other faces, secret setup fields
such as down_in_flames' opposing pilots set otherwise). The same command sequence holds
every command type of the ruleset in every round (sampled from the type's legal schema
where the player may send it now, from its full schema otherwise, so most are refused),
each sent as the player and as a spectator through Games.handle. Before each command the
twins' player and spectator views are compared; while they are equal, each command must
come out the same in both twins: accepted in both, or refused in both with the same code,
message and details. A refusal that differs tells the player or spectator something that
their views do not (down_in_flames' "may hold at most 6 / 4 / 7" for a hidden pilot did,
on main). The comparison of a pair of twins ends at the first public difference of their
views (a rule published a hidden value).
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

import umpire.server.games as games_module
from umpire.engine import registry, scenarios
from umpire.engine.actions import legal_actions
from umpire.engine.commands import RollDice, TakeBack
from umpire.engine.dice import ServerDice
from umpire.engine.offers import command_schema
from umpire.engine.redaction import view_for
from umpire.engine.roles import Role
from umpire.engine.schemas import tag_of
from umpire.events.errors import UmpireError
from umpire.events.redis_store import RedisEventStore
from umpire.testing.support.nonces import NoncedGames
from umpire.testing.support.schema_sampler import sample
from umpire.testing.support.secret_twins import VIEWERS, secret_setups, shifted_dice

ROUNDS = 8
VIEWER_NAMES = ("spectator", "player")  # the order Twin.outcomes holds them in
Outcome = tuple[Any, ...]


def _outcome(exc: UmpireError | None) -> Outcome:
    if exc is None:
        return ("accepted",)
    details = msgspec.json.encode(exc.details, order="deterministic")
    return (exc.code, exc.message, details)


def _plan_round(ruleset: Any, game: Any, rng: random.Random) -> list[dict[str, Any]]:
    """One command of every type (the ruleset's, RollDice and TakeBack), in a random order."""
    legal = {
        a.type: a.schema
        for a in legal_actions(ruleset, game.state, Role.PLAYER, ended=game.meta.ended, game=game)
    }
    types = [*ruleset.command_types, RollDice, TakeBack]
    rng.shuffle(types)
    out = []
    for command_type in types:
        tag = tag_of(command_type)
        schema = legal.get(tag) if rng.random() < 0.8 else None
        out.append(sample(schema or command_schema(command_type), rng))
    return out


class Twin:
    """One game of a pair: what each viewer saw before each command, and each outcome."""

    def __init__(self) -> None:
        self.views: list[tuple[bytes, ...]] = []
        self.outcomes: list[tuple[Outcome, Outcome]] = []
        self.commands: list[dict[str, Any]] = []


async def _play(
    store: RedisEventStore,
    name: str,
    setup: dict[str, Any],
    dice: type[ServerDice],
    plan: list[dict[str, Any]] | None,
    monkeypatch: pytest.MonkeyPatch,
) -> Twin:
    """Play `plan` (or, with None, make one round by round from this game's state)."""
    monkeypatch.setattr(games_module, "ServerDice", dice)
    ruleset = registry.get(name)
    games = NoncedGames(  # commands with nonces
        store, draw_seed=lambda: bytes(range(32)), draw_key=lambda: bytes(32)
    )
    gid = (await games.create(name, setup, game_id="gtwin", client_entropy="bind")).game_id
    await games.bind_client_seed(gid, "twin")
    rng = random.Random(32)
    twin = Twin()
    queue = list(plan) if plan is not None else []
    rounds = 0
    while True:
        if plan is None and not queue and rounds < ROUNDS:
            _, game = await games.load(gid)
            queue = _plan_round(ruleset, game, rng)
            rounds += 1
        if not queue:
            return twin
        command = queue.pop(0)
        twin.commands.append(command)
        _, game = await games.load(gid)
        twin.views.append(
            tuple(
                msgspec.json.encode(view_for(ruleset, game.state, role, revealed=False))
                for role in VIEWERS
            )
        )
        seen = []
        n = len(twin.commands)
        for role in (Role.SPECTATOR, Role.PLAYER):
            try:
                await games.handle(gid, f"{role.value}{n}", command, role=role)
                seen.append(_outcome(None))
            except UmpireError as exc:
                if exc.code == "store_unavailable":
                    raise
                seen.append(_outcome(exc))
        twin.outcomes.append((seen[0], seen[1]))


def _twins(name: str, setup: dict[str, Any]) -> list[tuple[dict[str, Any], type[ServerDice]]]:
    ruleset = registry.get(name)
    variants = [(setup, shifted_dice(shift)) for shift in (1, 2, 3)]
    variants += [(other, ServerDice) for other in secret_setups(ruleset, setup)]
    return variants


def _compare(name: str, first: Twin, other: Twin) -> set[str]:
    """Assert identical outcomes while the views are equal; the command types compared."""
    compared: set[str] = set()
    for i, command in enumerate(first.commands):
        if first.views[i] != other.views[i]:
            break  # a rule made a hidden value public: the twins may differ from here
        compared.add(command["type"])
        for role, a, b in zip(VIEWER_NAMES, first.outcomes[i], other.outcomes[i], strict=True):
            if a[0] != "accepted" and b[0] != "accepted":
                assert a == b, (
                    f"{name}: command {i + 1} {command} refused differently for the {role} in "
                    f"twins differing only in secrets: {a} vs {b}"
                )
        if first.outcomes[i] != other.outcomes[i]:
            # Accepted in one twin only: a command whose acceptance is the reveal (9.1.8 an
            # Ace declares its card; the bit is the rule's); the views differ from here.
            return compared
    return compared


@pytest.mark.parametrize("name", sorted(registry.installed()))
async def test_refusals_are_the_same_whatever_the_secrets(
    redis_server: Any, prefix: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ruleset = registry.get(name)
    setup = scenarios.default_setup(ruleset)
    store = RedisEventStore.from_url(redis_server.url, prefix=f"{prefix}t0")
    try:
        first = await _play(store, name, setup, ServerDice, None, monkeypatch)
    finally:
        await store.close()
    refused = [o for pair in first.outcomes for o in pair if o[0] != "accepted"]
    assert refused, f"{name}: the sequence met no refusal"
    compared: set[str] = set()
    for n, (variant, dice) in enumerate(_twins(name, setup), start=1):
        store = RedisEventStore.from_url(redis_server.url, prefix=f"{prefix}t{n}")
        try:
            other = await _play(store, name, variant, dice, first.commands, monkeypatch)
        finally:
            await store.close()
        compared |= _compare(name, first, other)
    every = {tag_of(t) for t in (*ruleset.command_types, RollDice, TakeBack)}
    assert compared == every, f"{name}: types never compared: {sorted(every - compared)}"
