"""A whole game played only through the legal actions, through a real gateway.

The player knows nothing but what the gateway tells it: after every command it asks for
the view, picks one of the listed actions at random (never `EndGame` unless the ruleset
has no end of its own) and fills its fields from the action's schema alone
(testing/support/schema_sampler.py). The rules may still refuse a pick (a schema cannot say
everything, e.g. that a move must be in range); they must never refuse it as unlisted or
malformed.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from umpire.clients import UmpireClient
from umpire.clients import UmpireError as ErrorFrame
from umpire.engine import registry
from umpire.engine.handling import command_types
from umpire.engine.schemas import struct_schema
from umpire.events.wire import Action
from umpire.server.app import running_gateway
from umpire.server.config import Settings
from umpire.testing.support.schema_sampler import sample

# The rules' refusal. Never `opponent_dice`: a game that does not take the player's
# entries for the opponent is offered no field for them (testing/actions/test_opponent_fields.py).
REFUSED_BY_RULES = ("rule_violation", "nothing_to_do")


@dataclass
class Played:
    """What one game through the actions did."""

    game_id: str
    commands: int = 0
    refused: int = 0
    ended: bool = False
    types: dict[str, int] = field(default_factory=dict)
    # Refusals by the rules, by command type, with the last reason given.
    refusals: dict[str, tuple[int, str]] = field(default_factory=dict)
    # Well-formed commands of unlisted types sent on purpose, all refused as unlisted.
    unlisted: int = 0
    last_actions: list[Action] = field(default_factory=list)


@asynccontextmanager
async def gateway_client(
    redis_url: str, prefix: str, draw_seed: Any
) -> AsyncIterator[UmpireClient]:
    """A client connected to a real gateway on the test store."""
    settings = Settings(port=0, prefix=prefix, max_messages_per_second=10_000, max_burst=10_000)
    async with (
        running_gateway(settings, redis_url, games_options={"draw_seed": draw_seed}) as running,
        UmpireClient(f"ws://127.0.0.1:{running.port}/ws") as client,
    ):
        yield client


def choose(
    actions: list[Action], rng: random.Random, takebacks: random.Random | None = None
) -> Action:
    """One listed action at random, never `EndGame`; `RollDice` seldom (it changes
    nothing), and `TakeBack` seldom where listed (it undoes progress: picked as often as
    the rest, a game would hardly move), drawn from `takebacks`' own stream so that the
    game's picks stay those of `rng`."""
    takeback = next((a for a in actions if a.type == "TakeBack"), None)
    if takeback is not None and takebacks is not None and takebacks.random() < 0.03:
        return takeback
    own = [a for a in actions if a.type not in ("RollDice", "EndGame", "TakeBack")]
    if not own or rng.random() > 0.97:
        return next(a for a in actions if a.type == "RollDice")
    return rng.choice(own)


async def _send_unlisted(
    client: UmpireClient,
    game_id: str,
    ruleset: str,
    actions: list[Action],
    seq: int,
    rng: random.Random,
) -> None:
    """A well-formed command (from its published, unnarrowed schema) of a type that is not
    listed now: refused as not allowed, naming what is, and nothing is written."""
    listed = [a.type for a in actions]
    types = command_types(registry.get(ruleset))
    unlisted = [tag for tag in sorted(types) if tag not in listed]
    if not unlisted:
        return
    command = sample(struct_schema(types[rng.choice(unlisted)]), rng)
    try:
        await client.send(game_id, command)
    except ErrorFrame as frame:
        assert frame.code == "command_not_allowed", (command, frame.code, frame.message)
        assert frame.details["allowed"] == listed
    else:
        raise AssertionError(f"an unlisted command was accepted: {command}")
    assert (await client.view(game_id)).seq == seq


async def play(
    client: UmpireClient,
    ruleset: str,
    setup: dict[str, Any],
    rng: random.Random,
    *,
    limit: int,
    end_after: int | None = None,
) -> Played:
    """Create a game and play it by random legal actions until it ends or `limit` commands
    were sent. `end_after`: for a ruleset with no end of its own, after that many accepted
    commands the player sends the listed `EndGame`."""
    created = await client.create(ruleset, setup, client_seed="actions")
    played = Played(created.game_id)
    # Unlisted probes draw from their own stream, so the game itself plays the same.
    probes = random.Random(0)
    takebacks = random.Random(1)
    for n in range(limit):
        view = await client.view(created.game_id)
        if view.ended:
            assert view.actions == [], "actions after the end"
            played.ended = True
            return played
        played.last_actions = view.actions
        if probes.random() < 0.05:
            await _send_unlisted(client, created.game_id, ruleset, view.actions, view.seq, probes)
            played.unlisted += 1
        if end_after is not None and played.commands >= end_after:
            action = next(a for a in view.actions if a.type == "EndGame")
        else:
            action = choose(view.actions, rng, takebacks)
        command = sample(action.schema, rng)
        played.types[action.type] = played.types.get(action.type, 0) + 1
        try:
            await client.send(created.game_id, command, command_id=f"a{n}")
        except ErrorFrame as frame:
            assert frame.code in REFUSED_BY_RULES, (command, frame.code, frame.message)
            played.refused += 1
            count = played.refusals.get(action.type, (0, ""))[0]
            played.refusals[action.type] = (count + 1, frame.message)
            continue
        played.commands += 1
    view = await client.view(created.game_id)
    played.ended = view.ended
    return played
