"""A whole game played only through the legal actions, through a real gateway.

The player knows nothing but what the gateway tells it: after every command it asks for
the view, picks one of the listed actions at random (never `EndGame` unless the ruleset
has no end of its own) and fills its fields from the action's schema alone
(tests/support/schema_sampler.py). The rules may still refuse a pick (a schema cannot say
everything, e.g. that a move must be in range); they must never refuse it as unlisted or
malformed.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from clients.client import UmpireClient
from clients.client import UmpireError as ErrorFrame
from events.wire import Action
from server.app import running_gateway
from server.config import Settings
from tests.support.schema_sampler import sample

REFUSED_BY_RULES = "rule_violation"


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


def choose(actions: list[Action], rng: random.Random) -> Action:
    """One listed action at random, never `EndGame`; `RollDice` seldom (it changes
    nothing)."""
    own = [a for a in actions if a.type not in ("RollDice", "EndGame")]
    if not own or rng.random() > 0.97:
        return next(a for a in actions if a.type == "RollDice")
    return rng.choice(own)


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
    for n in range(limit):
        view = await client.view(created.game_id)
        if view.ended:
            assert view.actions == [], "actions after the end"
            played.ended = True
            return played
        played.last_actions = view.actions
        if end_after is not None and played.commands >= end_after:
            action = next(a for a in view.actions if a.type == "EndGame")
        else:
            action = choose(view.actions, rng)
        command = sample(action.schema, rng)
        played.types[action.type] = played.types.get(action.type, 0) + 1
        try:
            await client.send(created.game_id, command, command_id=f"a{n}")
        except ErrorFrame as frame:
            assert frame.code == REFUSED_BY_RULES, (command, frame.code, frame.message)
            played.refused += 1
            count = played.refusals.get(action.type, (0, ""))[0]
            played.refusals[action.type] = (count + 1, frame.message)
            continue
        played.commands += 1
    view = await client.view(created.game_id)
    played.ended = view.ended
    return played
