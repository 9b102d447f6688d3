"""`umpire state` says a view's coded values in words, as the table does: a built-in Age
of Dogfights aircraft type by its name ("SPAD XIII", not `spad_xiii`), and any coded value
a ruleset names nowhere in words (a Down in Flames card's placeholders: "ceiling level",
not `ceiling_level`). `state --json` keeps the values as they are."""

from __future__ import annotations

import json
import re

from umpire.engine.kit.labels import Labels
from umpire.engine.replay import diff
from umpire.server.render import change_said
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


def test_replay_diff_says_each_change_in_the_states_words(cli: Cli) -> None:
    # Fails on the previous commit: the table read `active_side | null | "A"`, the JSON of
    # each value under the view's own keys.
    game = _new(cli, "down_in_flames")
    for words in (["BeginTurn", "side=A"],
                  ["SetPosition", "position=advantaged", "attacker=a1", "target=b1"]):  # fmt: skip
        sent = cli("send", game, *words)
        assert sent.code == 0, sent.err
    table = cli("replay", game, "--diff", "1", "5")
    assert table.code == 0, table.err
    rows = [[cell.strip() for cell in line.split("│")[1:-1]]
            for line in table.out.splitlines() if line.startswith("│")]  # fmt: skip
    assert ["Active side", "-", "A"] in rows
    assert ["Positions › a1>b1", "(absent)", "Advantaged"] in rows
    assert "null" not in table.out and '"' not in table.out
    raw = {c["path"]: c for c in json.loads(cli("replay", game, "--diff", "1", "5", "--json").out)}
    assert raw["active_side"]["before"] is None and raw["active_side"]["after"] == "A"


def test_a_changed_element_is_said_by_its_place_and_its_fields() -> None:
    labels = Labels(
        fields={"units": "Units", "sides": "Sides", "hex": "Hex", "id": "Unit"}, keyed=("sides",)
    )
    changes = diff(
        {"units": [{"id": "A", "hex": "0101"}], "sides": {"a_side": {"hex": "0101"}}},
        {"units": [{"id": "A", "hex": "0102"}, {"id": "B", "hex": "0303"}],
         "sides": {"a_side": {"hex": "0202"}}},
    )  # fmt: skip
    assert [change_said(c, labels) for c in changes] == [
        ("Sides › a_side › Hex", "0101", "0202"),  # a name the game gives, as it is
        ("Units › item 1 › Hex", "0101", "0102"),
        ("Units › item 2", "(absent)", "Hex: 0303\nUnit: B"),
    ]
