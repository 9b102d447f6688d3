"""A command typed as words (events/command_words.py): every command of every installed
ruleset, printed as words, reads back to itself; a text field keeps its text; a wrong word
is refused, saying what the command takes; an action's choice of cases reads too."""

from __future__ import annotations

import random
import shlex
from typing import Any

import pytest

from umpire.engine import registry
from umpire.engine.errors import InvalidCommand
from umpire.engine.handling import command_types, parse_command
from umpire.engine.ruleset import Ruleset
from umpire.engine.schemas import struct_schema
from umpire.events.command_words import command_from_words, json_once, words_for
from umpire.testing.support.drivers import rulesets
from umpire.testing.support.schema_sampler import sample


def read(ruleset: Ruleset[Any], words: list[str]) -> dict[str, Any]:
    """As `umpire send` reads them: through the ruleset's schema of the command type."""
    target = command_types(ruleset).get(words[0])
    return command_from_words(words, struct_schema(target) if target else None)


@pytest.mark.parametrize("name", rulesets())
def test_every_command_printed_as_words_reads_back_to_itself(name: str) -> None:
    ruleset = registry.get(name)
    rng = random.Random(f"words-{name}")
    for tag, target in sorted(command_types(ruleset).items()):
        schema = struct_schema(target)
        for _ in range(25):
            command = sample(schema, rng)
            words = shlex.split(words_for(tag, schema, command))
            assert words[0] == tag
            assert read(ruleset, words) == command, (words, command)


def test_text_stays_text_and_other_fields_read_as_json() -> None:
    ruleset = registry.get("downtown")
    command = read(ruleset, ["RollDice", "dice=nd6", "purpose=3", "count=2", "sides=6"])
    assert command == {"type": "RollDice", "dice": "nd6", "purpose": "3", "count": 2, "sides": 6}
    parse_command(ruleset, command)  # the rules take it as typed
    # A value a number field cannot read goes as text, for the rules to refuse plainly.
    bad = read(ruleset, ["RollDice", "dice=d6", "purpose=x", "count=two"])
    assert bad["count"] == "two"
    with pytest.raises(InvalidCommand, match=r"count"):
        parse_command(ruleset, bad)
    # JSON's NaN is no value a command takes: it stays text too.
    assert read(ruleset, ["RollDice", "count=NaN"])["count"] == "NaN"


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["RollDice", "purpose"], r"'purpose' is not FIELD=VALUE; RollDice takes dice, purpose"),
        (["RollDice", "=x"], r"is not FIELD=VALUE"),
        (["RollDice", "type=EndGame"], r"the command's type is the first word"),
        (["RollDice", "count=1", "count=2"], r"field 'count' is given twice"),
    ],
)
def test_a_wrong_word_is_refused_with_what_the_command_takes(words: list[str], says: str) -> None:
    with pytest.raises(InvalidCommand, match=says):
        read(registry.get("downtown"), words)


def test_a_field_the_command_lacks_is_refused_by_the_rules_naming_those_it_takes() -> None:
    ruleset = registry.get("downtown")
    command = read(ruleset, ["RollDice", "dice=d6", "purpose=x", "cout=3"])
    with pytest.raises(
        InvalidCommand, match=r"RollDice has no field 'cout'; it takes dice, purpose"
    ):
        parse_command(ruleset, command)


def test_an_unknown_type_is_left_for_the_rules_to_refuse_with_the_types_they_take() -> None:
    ruleset = registry.get("downtown")
    command = read(ruleset, ["Fly", "x=1"])
    with pytest.raises(InvalidCommand, match=r"unknown command type 'Fly'.*allowed: "):
        parse_command(ruleset, command)


def test_an_optional_text_field_reads_null_as_no_value() -> None:
    schema = {
        "properties": {
            "type": {"const": "Note"},
            "text": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        }
    }
    assert words_for("Note", schema, {"type": "Note", "text": None}) == "Note text=null"
    assert words_for("Note", schema, {"type": "Note", "text": "a b"}) == "Note 'text=a b'"


def test_an_action_with_cases_reads_every_case_field() -> None:
    """Nightfighter's move as the gateway lists it: on the map, or off it with `exit`."""
    on = {"properties": {"type": {"const": "MoveFighter"}, "fighter": {"enum": ["F1"]},
                         "path": {"type": "array", "items": {"type": "string"}},
                         "exit": {"const": False}}}  # fmt: skip
    off = {"properties": {**on["properties"], "exit": {"const": True}}}
    schema = {"anyOf": [on, off]}
    words = ["MoveFighter", "fighter=F1", 'path=["0926"]', "exit=true"]
    assert command_from_words(words, schema) == {
        "type": "MoveFighter", "fighter": "F1", "path": ["0926"], "exit": True
    }  # fmt: skip
    # A field no case has goes as typed, for the gateway's rules to refuse.
    assert command_from_words(["MoveFighter", "speed=2"], schema) == {
        "type": "MoveFighter", "speed": 2
    }  # fmt: skip


def test_a_list_of_names_reads_as_typed_without_json() -> None:
    # Fails on the previous commit: `units=[P-RIFLE-1]` (not JSON) went as the text
    # "[P-RIFLE-1]", which the rules refused ("expected a list, got text"), and
    # `path=[1011, 1012]` as numbers, where a hex is a name.
    schema = {"properties": {"type": {"const": "UnitAction"},
                             "units": {"type": "array", "items": {"enum": ["P-RIFLE-1", "P-SMG"]}},
                             "path": {"type": "array", "items": {"type": "string"}},
                             "ap": {"type": "integer"}}}  # fmt: skip
    for typed, units in [("units=[P-RIFLE-1]", ["P-RIFLE-1"]),
                         ("units=P-RIFLE-1,P-SMG", ["P-RIFLE-1", "P-SMG"]),
                         ("units=[ P-RIFLE-1 , 'P-SMG' ]", ["P-RIFLE-1", "P-SMG"]),
                         ('units=["P-RIFLE-1"]', ["P-RIFLE-1"]),
                         ("units=P-SMG", ["P-SMG"]), ("units=[]", [])]:  # fmt: skip
        assert command_from_words(["UnitAction", typed], schema)["units"] == units, typed
    command = command_from_words(["UnitAction", "path=[1011, 1012]", "ap=2"], schema)
    assert command == {"type": "UnitAction", "path": ["1011", "1012"], "ap": 2}
    # The rules take such a command as typed: Conflict of Heroes' action, through its schema.
    ruleset = registry.get("conflict_of_heroes")
    taken = read(ruleset, ["UnitAction", "units=[P-RIFLE-1]", "action=fire", "ap=2"])
    assert taken["units"] == ["P-RIFLE-1"]


def test_a_list_of_names_in_an_actions_cases_reads_as_typed() -> None:
    # `umpire play` reads through the gateway's action, whose cases each list their own
    # units (Conflict of Heroes' UnitAction): the field is a choice of lists of names.
    case = {"properties": {"type": {"const": "UnitAction"}, "ap": {"type": "integer"}}}
    one = {
        "properties": {
            **case["properties"],
            "units": {"type": "array", "items": {"enum": ["P-RIFLE-1"]}},
        }
    }
    two = {
        "properties": {
            **case["properties"],
            "units": {"type": "array", "items": {"enum": ["P-SMG"]}},
        }
    }
    schema = {"anyOf": [one, two]}
    words = ["UnitAction", "units=[P-RIFLE-1]", "ap=2"]
    assert command_from_words(words, schema) == {"type": "UnitAction", "units": ["P-RIFLE-1"],
                                                 "ap": 2}  # fmt: skip


def test_a_number_too_big_for_a_float_is_no_value_not_null() -> None:
    # Red team 9b: `1e999` read as JSON is inf, and the client's wire encoder (msgspec)
    # writes inf and NaN as null: `RunDrvMovement flights=1e999` typed to `umpire play`
    # reached the gateway as `flights: null`, "all of them", where the player typed a
    # number; `{"type": "RunDrvMovement", "flights": NaN}` as JSON the same.
    ruleset = registry.get("downtown")
    for typed in ("1e999", "-1e999"):
        command = read(ruleset, ["RunDrvMovement", f"flights={typed}"])
        assert command == {"type": "RunDrvMovement", "flights": typed}  # as text: refused
        with pytest.raises(InvalidCommand, match=r"flights"):
            parse_command(ruleset, command)
    for text in ('{"type": "RunDrvMovement", "flights": NaN}',
                 '{"type": "RunDrvMovement", "flights": 1e999}',
                 '{"type": "RunDrvMovement", "flights": -Infinity}'):  # fmt: skip
        with pytest.raises(InvalidCommand, match=r"is not a value a command takes"):
            json_once(text)
