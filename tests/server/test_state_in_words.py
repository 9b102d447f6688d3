"""`umpire state` says a view's coded values in words, as the table does: a built-in Age
of Dogfights aircraft type by its name ("SPAD XIII", not `spad_xiii`), and any coded value
a ruleset names nowhere in words (a Down in Flames card's placeholders: "ceiling level",
not `ceiling_level`). `state --json` keeps the values as they are."""

from __future__ import annotations

import json
import re

from umpire.testing.support.forgery import Cli

SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b", re.ASCII)


def _new(cli: Cli, ruleset: str) -> str:
    """A game of the ruleset's default scenario; its id."""
    made = cli("new", ruleset, "--json", "--waive-client-entropy")
    assert made.code == 0, made.err
    return str(json.loads(made.out)["game_id"])


def _values(text: str) -> list[str]:
    """The value side of each `label: value` line of `umpire state`'s text."""
    return [line.split(": ", 1)[1] for line in text.splitlines()[1:] if ": " in line]


def test_state_names_aircraft_types_and_says_placeholders_in_words(cli: Cli) -> None:
    # Fails on the previous commit: "Aircraft type: spad_xiii" and "Placeholders:
    # ceiling_level, hit_value, ...".
    dogfight = _new(cli, "age_of_dogfights")
    shown = cli("state", dogfight)
    assert shown.code == 0, shown.err
    assert "Aircraft type: SPAD XIII" in shown.out
    flames = _new(cli, "down_in_flames")
    cards = cli("state", flames)
    assert cards.code == 0, cards.err
    assert "ceiling level, hit value" in cards.out
    for text in (shown.out, cards.out):
        assert [v for v in _values(text) if SNAKE.search(v)] == []
    raw = json.loads(cli("state", dogfight, "--json").out)
    assert "spad_xiii" in json.dumps(raw["view"])
