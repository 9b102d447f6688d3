"""The rules' own text and the event types in words (events/rules_words.py): the shared
cases of tests/data/in_words.json, which the browser's `inWords` is tested on too
(tests/viewer/test_rules_text_in_words.py), and the types as a player reads them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from umpire.engine import registry
from umpire.events.rules_words import acronyms, field_text, in_words, type_in_words

CASES = json.loads((Path(__file__).parents[1] / "data" / "in_words.json").read_text("utf-8"))


@pytest.mark.parametrize(("text", "shown"), CASES["cases"])
def test_keys_in_the_rules_text_in_words_as_the_table_says_them(text: str, shown: str) -> None:
    assert in_words(text) == shown


@pytest.mark.parametrize(
    ("event_type", "shown"),
    [
        ("DiceRolled", "Dice rolled"),
        ("CommandTakenBack", "Command taken back"),
        ("nightfighter.AISearched", "AI searched"),
        ("nightfighter.Corkscrewed", "Corkscrewed"),
        ("downtown.PhaseBegan", "Phase began"),
        ("counter.Added", "Added"),
        ("odd_type", "odd type"),
    ],
)
def test_event_types_in_words(event_type: str, shown: str) -> None:
    assert type_in_words(event_type) == shown


def test_a_rulesets_capitals_come_from_its_own_words() -> None:
    """Downtown writes AAA, SAM, DRV and US in capitals in its labels: its types say so."""
    downtown = registry.get("downtown")
    capitals = acronyms(downtown.title, downtown.labels.fields, downtown.labels.values)
    assert {"AAA", "SAM", "DRV", "US"} <= capitals
    assert type_in_words("downtown.AaaActivationChecked", capitals) == "AAA activation checked"
    assert type_in_words("downtown.UsFlightsReported", capitals) == "US flights reported"
    assert type_in_words("downtown.SamReacted", capitals) == "SAM reacted"
    assert type_in_words("downtown.SamReacted") == "Sam reacted"


def test_a_fields_value_reads_as_typed_not_as_python() -> None:
    """`umpire log` shows a command's fields as a player types them: true, not True."""
    flights = [{"id": "x", "on_map": False, "detected": True, "hex": None}]
    assert field_text(flights) == "[{id: x, on_map: false, detected: true, hex: null}]"
