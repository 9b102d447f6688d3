"""Contract: what a player reads is in the rules' words (issue 41 item 7).

Over driven games of every installed ruleset (each ruleset's own driver,
testing/support/drivers.py), every event's text for people and every listed action's
description contains no snake_case word: an enum value or a field name interpolated into
text ("turn_limit 2", "ai_radar phase") is shown by its words (the ruleset's labels), never
as its code. Machine-readable fields (an enum in a payload field) are not text and keep
their codes. A `rule` citation keeps its seed file name (the table and `umpire log` show
the seed's title for it, engine/citations.py), but its words are read: no snake_case word
and no field by its code name ("Setup.turn_limit"), in the citations of driven games'
events and in every citation a ruleset's modules declare (an end a driven game may not
reach).

The text of an event is what the table and `umpire log` show (server/render.py): a field
named in TEXT whose declared type is plain `str` (so an enum-typed `result` is a code, not
text), and the core events' shown strings (GameEnded's `result`, DiceRolled's `purpose`).

A refusal's `message` is text for people too: the table (clients/web) and `umpire send`
show it as it is (its `code` stays a code). At every point of the driven games whose listed
command types are new, every command type is sent wrong in each way a player gets it wrong
(testing/support/refusals.py: not allowed now, a field of the wrong kind, out of range,
outside its listing or left out, a field it does not have, a report restating the game),
and the refusals of the driven commands are read too.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
import re
import typing
from collections.abc import Callable
from functools import cache
from typing import Any, NamedTuple

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
from umpire.testing.support.refusals import provoke

SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
# A field by its code name with its type ("Setup.turn_limit"), in a text or a citation.
DOTTED = re.compile(r"\b(?:Setup|State|View)\.[a-z_]+\b")
# A citation's seed file: shown as the seed's title (engine/citations.py `readable`).
SEED_FILE = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b")
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
    return _strings(event, _is_shown_text, where)


def rules(event: Any, where: str = "") -> dict[str, str]:
    """The event's rule citations (its `rule`, a nested record's too): codes for the audit,
    but shown at the table and by `umpire log` as the rulebook's (engine/citations.py), so
    their words are text for people too."""
    return _strings(event, lambda kind, name, hint: name == "rule", where)


def _is_shown_text(kind: type, name: str, hint: Any) -> bool:
    return name in SHOWN.get(kind.__name__, frozenset()) or (name in TEXT and _is_text(hint))


def _strings(event: Any, pick: Callable[[type, str, Any], bool], where: str) -> dict[str, str]:
    """The event's non-empty strings whose field `pick(kind, name, hint)` takes, by field
    name (a nested record's as `field.field`)."""
    kind = type(event)
    hints = typing.get_type_hints(kind, include_extras=True)
    found: dict[str, str] = {}
    for name in kind.__struct_fields__:
        value = getattr(event, name)
        key = f"{where}{name}"
        if isinstance(value, msgspec.Struct):
            found.update(_strings(value, pick, f"{key}."))
        elif isinstance(value, tuple | list):
            for i, each in enumerate(value):
                if isinstance(each, msgspec.Struct):
                    found.update(_strings(each, pick, f"{key}[{i}]."))
        elif isinstance(value, str) and value and pick(kind, name, hints.get(name)):
            found[key] = value
    return found


def coded(text: str) -> list[str]:
    """The snake_case words of a text, and its fields named by their code names (a
    citation's seed file name is no code: the table shows the seed's title for it)."""
    return SNAKE.findall(SEED_FILE.sub("", text)) + DOTTED.findall(text)


class Found(NamedTuple):
    """What driven games of one ruleset show with a code: in events' and listed actions'
    texts, and in refusals."""

    shown: set[str]
    refused: set[str]


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


@cache
def driven(name: str, games: int = GAMES, steps: int = STEPS) -> Found:
    """Every text of driven games of `name` that shows a code, as `where: word | text`:
    events' and listed actions' texts (`shown`), and refusals' messages (`refused`), the
    refusals provoked (testing/support/refusals.py) at each point of play whose listed
    command types were not listed together before (a phase, a step of one: where the rules
    refuse differently), so the games are played once for both tests."""
    ruleset = registry.get(name)
    found = Found(set(), set())
    probed: set[frozenset[str]] = set()
    for seed in range(games):
        setup, propose = driver(name)
        game = _new_game(name, setup)
        rng = random.Random(seed)
        # The probes draw from their own stream: the game plays as it did without them.
        probing = random.Random(-1 - seed)
        for step in range(steps):
            if game.meta.ended:
                break
            actions = legal_actions(ruleset, game.state, Role.PLAYER, ended=False)
            for action in actions:
                for word in coded(action.description):
                    found.shown.add(f"action {action.type}: {word} | {action.description}")
            listed = frozenset(action.type for action in actions)
            if listed not in probed:
                probed.add(listed)
                for refusal in provoke(ruleset, game, probing):
                    for word in coded(refusal.error.message):
                        found.refused.add(
                            f"{refusal.probe} ({refusal.error.code}): {word} | "
                            f"{refusal.error.message}"
                        )
            command = rng.choice(propose(game.state, rng))
            dice = ServerDice(bytes(32), f"words-{seed}-{step}", game.meta.rolls)
            try:
                events = decide_command(ruleset, game, command, dice)
            except UmpireError as exc:
                for word in coded(exc.message):
                    found.refused.add(f"driven {command['type']} ({exc.code}): {word} | {exc}")
                continue
            for event in events:
                for key, text in (text_fields(event) | rules(event)).items():
                    field = INDEX.sub("[]", key)
                    for word in coded(text):
                        found.shown.add(f"{type(event).__name__}.{field}: {word} | {text}")
                game = apply(ruleset, game, event)
                game = Game(msgspec.structs.replace(game.meta, seq=game.meta.seq + 1), game.state)
    return found


def test_the_check_sees_a_code_in_text() -> None:
    assert coded("turn 2: ai_radar phase (turn_limit 2)") == ["ai_radar", "turn_limit"]
    assert coded("End the AI Radar phase (3.1.2)") == []
    assert coded("000_842c81c5c58bc2f6.txt Raid end (or Setup.turn_limit)") == [
        "turn_limit",
        "Setup.turn_limit",
    ]
    assert coded("000_842c81c5c58bc2f6.txt Raid end (or the scenario's turn limit)") == []


@pytest.mark.parametrize("name", rulesets())
def test_text_for_people_shows_no_code(name: str) -> None:
    found = driven(name).shown
    assert not found, f"{name} shows codes in its text:\n" + "\n".join(sorted(found))


@pytest.mark.parametrize("name", rulesets())
def test_refusals_show_no_code(name: str) -> None:
    """A refusal's message is what the table and `umpire send` show the player: a value
    by its words, a field by its words, never by its code."""
    found = driven(name).refused
    assert not found, f"{name} refuses with codes:\n" + "\n".join(sorted(found))


def citations_of(name: str) -> dict[str, str]:
    """Every rule citation the ruleset's modules declare (a module-level string that cites
    its seed, `cite(...)`), by `module.NAME`: a driven game may never reach the one an end
    or a rare rule cites. A ruleset registered by hand, with no entry point, declares none."""
    ruleset = registry.get(name)
    point = registry.installed().get(name)
    if point is None or not ruleset.seed:
        return {}
    top = importlib.import_module(point.module)
    modules = [top] + [
        importlib.import_module(info.name)
        for info in pkgutil.walk_packages(getattr(top, "__path__", []), f"{top.__name__}.")
    ]
    return {
        f"{module.__name__}.{key}": value
        for module in modules
        for key, value in vars(module).items()
        if isinstance(value, str) and value.startswith(f"{ruleset.seed} ")
    }


@pytest.mark.parametrize("name", rulesets())
def test_citations_show_no_code(name: str) -> None:
    found = [f"{where}: {word} | {text}" for where, text in citations_of(name).items()
             for word in coded(text)]  # fmt: skip
    assert not found, f"{name} cites with codes:\n" + "\n".join(sorted(found))
