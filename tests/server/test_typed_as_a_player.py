"""A command as a wargamer types it at `umpire send` (and `play`): its type in any
capitals, and the example `umpire actions` prints with a list of names as typed
(`units=P-RIFLE-1`), never JSON in quotes (`'units=["P-RIFLE-1"]'`)."""

from __future__ import annotations

import json
import shlex

from umpire.testing.support.forgery import Cli


def test_a_type_in_other_capitals_is_the_type_it_spells(cli: Cli) -> None:
    # Fails without the fix: "unknown command type 'endphase' for nightfighter; allowed:
    # AttemptTally, ..." (exit 2), where the player meant EndPhase.
    game = json.loads(cli("new", "nightfighter", "--json").out)["game_id"]
    sent = cli("send", game, "endphase")
    assert sent.code == 0, sent.err
    assert "player command EndPhase" in sent.out, sent.out
    unknown = cli("send", game, "flyhome")
    assert unknown.code == 2 and "unknown command type 'flyhome'" in unknown.err, unknown.err


def test_the_printed_example_names_a_list_of_units_as_typed(cli: Cli) -> None:
    # Fails without the fix: "or, as words: UnitAction 'units=[\"P-RIFLE-1\"]' action=fire
    # ap=1", JSON in shell quotes where the words take `units=P-RIFLE-1`.
    game = json.loads(cli("new", "conflict_of_heroes", "--json").out)["game_id"]
    listed = cli("actions", game)
    assert listed.code == 0, listed.err
    example = next(
        line.split("or, as words: ", 1)[1]
        for line in listed.out.splitlines()
        if "or, as words: UnitAction " in line
    )
    assert example == "UnitAction units=P-RIFLE-1 action=fire ap=1", example
    sent = cli("send", game, *shlex.split(example))
    assert sent.code == 0, sent.err
