"""The legal actions offer no field the game would refuse: a player may fill the
opponent's random results (Conflict of Heroes' Order Cards drawn for the AI, `cards`) only
in a game created to allow the opponent's dice (GameMeta.opponent_manual_dice, issue #16
item 6), so only such a game is offered them (engine/actions.py `legal_actions`)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from umpire.engine.actions import legal_actions
from umpire.engine.errors import OpponentDiceRefused
from umpire.engine.roles import Role
from umpire.events.errors import UmpireError
from umpire.server.games import Games
from umpire.testing.support.drivers import rulesets, start_setup
from umpire.testing.support.schema_sampler import sample

STEPS = 25


def _schemas(schema: dict[str, Any]) -> list[dict[str, Any]]:
    return schema.get("anyOf", [schema])


@pytest.mark.parametrize("name", rulesets())
async def test_no_offered_schema_is_refused_as_the_opponent_s_entry(
    name: str, games: Games
) -> None:
    """Every offered action, filled from its schema alone and sent, step after step of a
    game created without the opponent's dice: none is refused as the opponent's entry.
    On main Conflict of Heroes offered `cards` (the deck's card numbers) on TakeAiTurn,
    UnitAction, CardAction, Stall and ReportDestroyed, and a TakeAiTurn naming them was
    refused with opponent_dice."""
    rng = random.Random(f"opponent-fields-{name}")
    refused: list[str] = []
    sent = played = 0
    created = await games.create(name, start_setup(name))
    for step in range(STEPS):  # STEPS steps, in a new game whenever the rules end one
        ruleset, game = await games.load(created.game_id)
        if game.meta.ended:
            created = await games.create(name, start_setup(name))
            ruleset, game = await games.load(created.game_id)
        played += 1
        actions = legal_actions(ruleset, game.state, Role.PLAYER, ended=False, game=game)
        for n, action in enumerate(a for a in actions if a.type != "EndGame"):
            command = sample(action.schema, rng)
            sent += 1
            try:
                await games.handle(created.game_id, f"s{step}-{n}", command)
            except OpponentDiceRefused as exc:
                refused.append(f"{action.type}: {exc}")
            except UmpireError:
                pass  # the rules may refuse what a schema cannot say; not this reason
    assert played == STEPS and sent > played  # more than one offered action sent a step
    assert refused == []


async def test_a_game_that_allows_the_opponent_s_entries_is_offered_the_cards(
    games: Games,
) -> None:
    name = "conflict_of_heroes"
    allowed = await games.create(name, start_setup(name), opponent_manual_dice=True)
    default = await games.create(name, start_setup(name))
    for created, offered in ((allowed, True), (default, False)):
        ruleset, game = await games.load(created.game_id)
        cards = [
            schema["properties"]["cards"]
            for action in legal_actions(ruleset, game.state, Role.PLAYER, ended=False, game=game)
            for schema in _schemas(action.schema)
            if "cards" in schema["properties"]
        ]
        assert cards, "Conflict of Heroes offers no command with cards"
        if offered:
            assert all("const" not in c and c["items"]["enum"] for c in cards), cards
        else:
            assert all(list(c["const"]) == [] for c in cards), cards  # fixed: the server draws
