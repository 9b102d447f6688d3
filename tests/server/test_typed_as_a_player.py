"""A command as a wargamer types it at `umpire send` (and `play`): its type in any
capitals, and the example `umpire actions` prints with a list of names as typed
(`units=P-RIFLE-1`), never JSON in quotes (`'units=["P-RIFLE-1"]'`)."""

from __future__ import annotations

import json
import shlex

from umpire.testing.support.forgery import Cli


def test_a_type_in_other_capitals_is_the_type_it_spells(cli: Cli) -> None:
    # Fails without the fix: "unknown command type 'endphase' for nightfighter; allowed:
    # AttemptTally, ..." (exit 2), where the player meant EndPhase (now MoveBombers).
    game = json.loads(cli("new", "nightfighter", "--json").out)["game_id"]
    sent = cli("send", game, "movebombers")  # Nightfighter v9's first step
    assert sent.code == 0, sent.err
    assert "player command MoveBombers" in sent.out, sent.out
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


def test_a_value_of_several_words_without_quotes_is_told_how_to_quote_it(cli: Cli) -> None:
    # Fails without the fix: "'was' is not FIELD=VALUE; EndGame takes result", with no
    # word of the quotes that keep "B1 was lost" one value.
    game = json.loads(cli("new", "nightfighter", "--json").out)["game_id"]
    split = cli("send", game, "EndGame", "result=B1", "was", "lost")
    assert split.code == 2, split
    said = "'was' is not FIELD=VALUE; EndGame takes result; a value of several words goes in"
    assert said in split.err and 'quotes: result="B1 was lost"' in split.err, split.err
    assert cli("send", game, "EndGame", "result=B1 was lost").code == 0


def test_a_list_of_records_is_typed_item_by_item_without_json(cli: Cli) -> None:
    # Fails without the fix: Downtown's every-turn report printed its example as
    # `'flights=[{"id":"x","mission":"strike","task":"bombing","hex":"0101"}]'`, JSON in
    # shell quotes, the one command a player could not type as words.
    game = json.loads(cli("new", "downtown", "--json").out)["game_id"]
    assert cli("send", game, "DeployGroundUnits").code == 0
    listed = cli("actions", game)
    example = next(
        line.split("or, as words: ", 1)[1]
        for line in listed.out.splitlines()
        if "or, as words: ReportUsFlights " in line
    )
    assert example == (
        "ReportUsFlights flights.1.id=x flights.1.mission=strike flights.1.task=bombing "
        "flights.1.hex=0101"
    ), example
    typed = ["flights.1.id=Red 1", "flights.1.mission=strike", "flights.1.task=bombing",
             "flights.1.hex=0101", "flights.2.id=Blue 1", "flights.2.mission=cap",
             "flights.2.task=cap", "flights.2.hex=0102", "flights.2.altitude=high"]  # fmt: skip
    sent = cli("send", game, "ReportUsFlights", *typed)
    assert sent.code == 0, sent.err
    out_of_order = cli("send", game, "ReportUsFlights", "flights.2.id=x")
    assert out_of_order.code == 2, out_of_order
    assert "items are numbered from 1 in order; the next of flights is 1" in out_of_order.err


def test_an_item_is_given_once_and_numbered_one_way(cli: Cli) -> None:
    # Red team 9b: on main `flights.1=null` then `flights.1.id=...` sent the item the
    # later words built (the null given for it dropped without a word), a record given
    # whole as JSON took more fields from words, `flights.01.hex` and `flights.1.id`
    # named one item in two spellings, and `flights.².id` raised a ValueError, no
    # typed refusal (Python reads `²` as a digit, `int` does not).
    game = json.loads(cli("new", "downtown", "--json").out)["game_id"]
    assert cli("send", game, "DeployGroundUnits").code == 0
    rest = ["flights.1.mission=strike", "flights.1.task=bombing", "flights.1.hex=0101"]
    twice = "field 'flights.1.id' is given twice"
    for words, says in [
        (["flights.1=null", "flights.1.id=x", *rest], twice),
        (['flights.1={"id": "x"}', "flights.1.mission=strike"], "'flights.1.mission' is given"),
        (["flights.1.id=x", "flights.1.mission=strike", "flights.01.task=bombing"],
         "'flights.01.task': an item's number is written in the digits 0-9 without a leading"),
        (["flights.².id=x", *rest], "'flights.².id': an item's number is written in the"),
        (["flights.١.id=x", *rest], "'flights.١.id': an item's number is written in the"),
    ]:  # fmt: skip
        sent = cli("send", game, "ReportUsFlights", *words)
        assert sent.code == 2, (words, sent)
        assert says in sent.err, (words, sent.err)
    sent = cli("send", game, "ReportUsFlights", "flights.1.id=x", *rest)
    assert sent.code == 0, sent.err
