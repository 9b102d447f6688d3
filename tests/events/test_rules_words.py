"""The rules' own text and the event types in words (events/rules_words.py): the shared
cases of tests/data/in_words.json, which the browser's `inWords` is tested on too
(tests/viewer/test_rules_text_in_words.py), and the types as a player reads them: the
cases of tests/data/type_words.json, which the browser's `typeInWords` and `acronyms` are
tested on too (tests/viewer/test_type_in_words.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from umpire.engine import registry
from umpire.engine.explain import DieUsed
from umpire.events.rules_words import (
    acronyms,
    command_fields,
    dice_name,
    field_text,
    fields_said,
    in_words,
    kind_in_words,
    type_in_words,
    universal_said,
)
from umpire.events.types import DiceRolled, GameEnded, Winner

DATA = Path(__file__).parents[1] / "data"
CASES = json.loads((DATA / "in_words.json").read_text("utf-8"))
TYPES = json.loads((DATA / "type_words.json").read_text("utf-8"))


@pytest.mark.parametrize(("text", "shown"), CASES["cases"])
def test_keys_in_the_rules_text_in_words_as_the_table_says_them(text: str, shown: str) -> None:
    assert in_words(text) == shown


@pytest.mark.parametrize(("event_type", "capitals", "shown"), TYPES["cases"])
def test_event_types_in_words_as_the_table_says_them(
    event_type: str, capitals: list[str], shown: str
) -> None:
    assert type_in_words(event_type, frozenset(capitals)) == shown


@pytest.mark.parametrize(("event_type", "payload", "capitals", "shown"), TYPES["kinds"])
def test_a_decision_is_said_by_what_it_decided(
    event_type: str, payload: Any, capitals: list[str], shown: str
) -> None:
    """Downtown's DecisionMade names its topic: the row says "SAM placement", "GCI",
    "Initiative", not "Decision made"; any other event by its type."""
    assert kind_in_words(event_type, payload, frozenset(capitals)) == shown


@pytest.mark.parametrize(("entry", "capitals"), TYPES["acronyms"])
def test_a_listing_entrys_capitals_as_the_table_reads_them(
    entry: dict[str, Any], capitals: list[str]
) -> None:
    """A /rulesets.json entry's capitals, as the browser's `acronyms(entry)` reads them."""
    assert sorted(acronyms(entry["title"], entry["labels"], entry["value_labels"])) == capitals


def test_a_rulesets_capitals_come_from_its_own_words() -> None:
    """Downtown writes AAA, SAM, DRV and US in capitals in its labels: its types say so."""
    downtown = registry.get("downtown")
    capitals = acronyms(downtown.title, downtown.labels.fields, downtown.labels.values)
    assert {"AAA", "SAM", "DRV", "US"} <= capitals
    assert type_in_words("downtown.AaaActivationChecked", capitals) == "AAA activation checked"
    assert type_in_words("downtown.UsFlightsReported", capitals) == "US flights reported"
    assert type_in_words("downtown.SamReacted", capitals) == "SAM reacted"
    assert type_in_words("downtown.SamReacted") == "Sam reacted"
    # 2.2: the unit is a Fire Can, as the labels write it ("Fire Can range").
    assert type_in_words("downtown.FireCanPlaced", capitals) == "Fire Can placed"


def test_a_fields_value_reads_as_typed_not_as_python() -> None:
    """`umpire log` shows a command's fields as a player types them: true, not True."""
    flights = [{"id": "x", "on_map": False, "detected": True, "hex": None}]
    assert field_text(flights) == "[{id: x, on_map: false, detected: true, hex: null}]"


@pytest.mark.parametrize(
    ("winner", "said"),
    [
        (Winner.PLAYER, "(the player wins)"),
        (Winner.OPPONENT, "(the player loses)"),
        (Winner.DRAW, "(a draw)"),
        (Winner.NONE_STATED, "(no winner: the rules state no victory condition)"),
    ],
)
def test_the_end_line_says_who_won(winner: Winner, said: str) -> None:
    """`umpire log` and `umpire play` print an end with its winner in words, after the
    result (GameEnded.winner); an end that names none is said as before."""
    ended = GameEnded(result="side A wins: side B has no aircraft left", rule="r 1", winner=winner)
    assert (
        universal_said(ended)
        == f"game ended: side A wins: side B has no aircraft left {said} — r 1"
    )
    assert universal_said(GameEnded(result="stopped", rule="r 1")) == "game ended: stopped — r 1"


@pytest.mark.parametrize(
    ("kind", "sides", "labels", "said"),
    [
        ("coloured", (6, 6), ("blue", "purple"), "blue and purple dice"),
        ("custom", (10, 10), (), "2d10"),
        ("nd6", (6, 6, 6), (), "3d6"),
        ("custom", (6, 10), (), "d6 + d10"),
        ("d6", (6,), (), "d6"),
    ],
)
def test_a_rolls_dice_are_said_as_the_rules_name_them(
    kind: str, sides: tuple[int, ...], labels: tuple[str, ...], said: str
) -> None:
    """Nightfighter's location roll is "blue and purple dice" (its rules' words), never
    the kind's code name "coloured"; like dice by count and sides, as the table says them
    (tests/viewer/test_dice_in_words.py)."""
    assert dice_name(kind, sides, labels) == said
    roll = DiceRolled(
        roll=2,
        kind=kind,
        sides=sides,
        faces=sides,
        total=sum(sides),
        purpose="p",
        rule="r",
        labels=labels,
    )
    assert universal_said(roll) is not None
    assert str(universal_said(roll)).startswith(f"roll 3: {said} ["), universal_said(roll)


def test_a_yes_or_no_in_an_events_line_reads_in_words() -> None:
    """A Conflict of Heroes report's true or false is "yes" or "no" in its line (the
    table says the same: tests/viewer/test_yes_no_in_words.py); a command's fields stay
    as typed (`true`), which `umpire play` takes back."""
    assert fields_said({"type": "t", "unit": "AI-RIFLE-2", "hit": True}) == (
        "unit: AI-RIFLE-2, hit: yes"
    )
    assert fields_said({"passed": False, "flights": [{"on_map": True}]}) == (
        "passed: no, flights: [{on map: yes}]"
    )
    assert command_fields({"type": "c", "detected": False}) == "detected=false"


def test_explain_names_the_dice_a_decision_used_as_the_rules_do() -> None:
    """`umpire explain`'s "Dice used" says Nightfighter's location roll as "blue and
    purple dice", as `umpire log` and the table do."""
    used = DieUsed(
        roll=0, seq=4, kind="coloured", faces=(3, 4), labels=("blue", "purple"), total=7,
        by="server", purpose="locate", rule="r", hidden=False,
    )  # fmt: skip
    assert used.words().startswith("roll 1 (seq 4): blue and purple dice showing blue 3"), (
        used.words()
    )


@pytest.mark.parametrize(
    ("result", "winner"),
    [
        ("the player wins: every AI is destroyed", Winner.PLAYER),  # Conflict of Heroes
        (
            "the winner is decided by the scenario's victory conditions in the base game",
            Winner.NONE_STATED,  # Downtown
        ),
    ],
)
def test_an_end_that_names_its_winner_is_not_said_twice(result: str, winner: Winner) -> None:
    """Conflict of Heroes' end read "the player wins: every AI is destroyed (the player
    wins)"; Downtown's, which names the scenario's victory conditions, a "no winner" after."""
    assert universal_said(GameEnded(result=result, rule="r 1", winner=winner)) == (
        f"game ended: {result} — r 1"
    )
