"""Contract: what a player reads is in the rules' words (issue 41 item 7).

Over driven games of every installed ruleset (each ruleset's own driver,
testing/support/drivers.py), every event's text for people and every listed action's
description contains no snake_case word: an enum value or a field name interpolated into
text ("turn_limit 2", "ai_radar phase") is shown by its words (the ruleset's labels), never
as its code. Machine-readable fields (a `rule` citation, an enum in a payload field) are
not text and keep their codes.

The text of an event is what the table and `umpire log` show (server/render.py): a field
named in TEXT whose declared type is plain `str` (so an enum-typed `result` is a code, not
text), and the core events' shown strings (GameEnded's `result`, DiceRolled's `purpose`).
"""

from __future__ import annotations

import random
import re
import typing
from typing import Any

import msgspec
import pytest

from umpire.engine import registry
from umpire.engine.actions import legal_actions
from umpire.engine.dice import ServerDice
from umpire.engine.game import Game, apply, start
from umpire.engine.handling import decide_command
from umpire.engine.roles import Role
from umpire.events.errors import UmpireError
from umpire.events.types import ClientEntropy, GameCreated
from umpire.testing.support.drivers import driver, rulesets

SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
# Fields whose plain-`str` value is text for people (the renderer shows them as words).
TEXT = frozenset({"explanation", "reason", "why", "summary", "note"})
# Core events whose shown strings are text whatever their field's name.
SHOWN = {"GameEnded": frozenset({"result"}), "DiceRolled": frozenset({"purpose"})}
INDEX = re.compile(r"\[\d+\]")  # an item of a list: one name for every item
GAMES = 3
STEPS = 400


def _is_text(hint: Any) -> bool:
    """A plain `str` (or Annotated str) field: words, not an enum's code."""
    if typing.get_origin(hint) is typing.Annotated:
        hint = typing.get_args(hint)[0]
    return hint is str


def text_fields(event: Any, where: str = "") -> dict[str, str]:
    """The event's text for people, by field name (a nested record's, such as a decision's
    candidates and their reasons, as `field.field`)."""
    kind = type(event)
    hints = typing.get_type_hints(kind, include_extras=True)
    shown = SHOWN.get(kind.__name__, frozenset())
    found: dict[str, str] = {}
    for name in kind.__struct_fields__:
        value = getattr(event, name)
        key = f"{where}{name}"
        if isinstance(value, msgspec.Struct):
            found.update(text_fields(value, f"{key}."))
        elif isinstance(value, tuple | list):
            for i, each in enumerate(value):
                if isinstance(each, msgspec.Struct):
                    found.update(text_fields(each, f"{key}[{i}]."))
        elif not isinstance(value, str) or not value:
            continue
        elif name in shown or (name in TEXT and _is_text(hints.get(name))):
            found[key] = value
    return found


def coded(text: str) -> list[str]:
    """The snake_case words of a text."""
    return SNAKE.findall(text)


def _new_game(name: str, setup: dict[str, Any]) -> Game:
    ruleset = registry.get(name)
    created = GameCreated(
        game_id="words",
        ruleset=name,
        ruleset_version=ruleset.version,
        setup=setup,
        seed_commitment="0" * 64,
        client_entropy=ClientEntropy.WAIVED,
    )
    return start(ruleset, created)


def offenders(name: str, games: int = GAMES, steps: int = STEPS) -> set[str]:
    """Every text of driven games of `name` that shows a code, as `where: word | text`."""
    ruleset = registry.get(name)
    found: set[str] = set()
    for seed in range(games):
        setup, propose = driver(name)
        game = _new_game(name, setup)
        rng = random.Random(seed)
        for step in range(steps):
            if game.meta.ended:
                break
            for action in legal_actions(ruleset, game.state, Role.PLAYER, ended=False):
                for word in coded(action.description):
                    found.add(f"action {action.type}: {word} | {action.description}")
            command = rng.choice(propose(game.state, rng))
            dice = ServerDice(bytes(32), f"words-{seed}-{step}", game.meta.rolls)
            try:
                events = decide_command(ruleset, game, command, dice)
            except UmpireError:
                continue
            for event in events:
                for key, text in text_fields(event).items():
                    field = INDEX.sub("[]", key)
                    for word in coded(text):
                        found.add(f"{type(event).__name__}.{field}: {word} | {text}")
                game = apply(ruleset, game, event)
                game = Game(msgspec.structs.replace(game.meta, seq=game.meta.seq + 1), game.state)
    return found


def test_the_check_sees_a_code_in_text() -> None:
    assert coded("turn 2: ai_radar phase (turn_limit 2)") == ["ai_radar", "turn_limit"]
    assert coded("End the AI Radar phase (3.1.2)") == []


@pytest.mark.parametrize("name", rulesets())
def test_text_for_people_shows_no_code(name: str) -> None:
    found = offenders(name)
    assert not found, f"{name} shows codes in its text:\n" + "\n".join(sorted(found))
