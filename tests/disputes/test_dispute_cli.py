"""`umpire dispute` and `umpire disputes` on the suite's store, and the disputes in an
export (issue 40 items 5 and 6): every ruleset's ended game is disputed under its first
declared reading; the finding is printed, listed, exported, and both `umpire audit --file`
and the independent verifier (verifier/verify_export.py) accept the export. A dispute the
umpire refuses exits 2 with its reason and writes nothing."""

from __future__ import annotations

import itertools
import json

import pytest

from umpire.engine import registry
from umpire.engine.kit.reading import value_text
from umpire.testing.support.drivers import rulesets
from umpire.testing.support.forgery import Cli, read_lines, write_lines
from umpire.testing.support.short_games import short_game
from umpire.testing.support.verifier import verify

SHIPPED = [n for n in rulesets() if registry.get(n).readings]


def _decision_seq(cli: Cli, game: str) -> int:
    """The seq of the first event a command's batch holds after its CommandRecorded."""
    result = cli("log", game, "--json", "--role", "referee")
    assert result.code == 0, result.err
    lines = [json.loads(line) for line in result.out.splitlines() if line.startswith("{")]
    records = [r for r in lines if "seq" in r]
    for record, after in itertools.pairwise(records):
        if record["type"] == "CommandRecorded" and after["command_id"] == record["command_id"]:
            return int(after["seq"])
    raise AssertionError("no decision in the log")


@pytest.mark.parametrize("name", SHIPPED)
def test_an_ended_games_dispute_is_found_listed_exported_and_verified(cli: Cli, name: str) -> None:
    game = short_game(cli, name)
    seq = _decision_seq(cli, game)
    reading = registry.get(name).readings[0]
    value = value_text(reading.alternatives[0])
    result = cli("dispute", game, str(seq), "--claim", "read it the other way",
                 "--reading", f"{reading.name}={value}")  # fmt: skip
    assert result.code == 0, result.err
    assert f"of seq {seq} filed by the player" in result.out
    assert "finding: " in result.out
    listed = cli("disputes", game, "--json")
    assert listed.code == 0, listed.err
    (dispute,) = json.loads(listed.out)
    assert dispute["filed"]["seq"] == seq and dispute["filed"]["reading"] == reading.name
    assert dispute["finding"] is not None  # the game ended: nothing is pending
    path = cli.export(game)
    audited = cli("audit", "--file", str(path))
    assert audited.code == 0, audited.out + audited.err
    code, out = verify(path)
    assert code == 0, out
    assert "1 disputes, 1 findings" in out


def test_a_refused_dispute_exits_2_says_why_and_writes_nothing(cli: Cli) -> None:
    game = short_game(cli, "conflict_of_heroes", end=False)
    seq = _decision_seq(cli, game)
    before = cli("log", game, "--json").out
    result = cli("dispute", game, str(seq), "--claim", "x", "--reading", "no_such")
    assert result.code == 2
    assert "declares no reading 'no_such'" in result.err and "sideways_moves" in result.err
    result = cli("dispute", game, "1", "--claim", "x")
    assert result.code == 2 and "no decision or roll" in result.err
    assert cli("log", game, "--json").out == before


def test_a_finding_moved_in_the_export_fails_the_verifier(cli: Cli) -> None:
    game = short_game(cli, "conflict_of_heroes")
    seq = _decision_seq(cli, game)
    assert cli("dispute", game, str(seq), "--claim", "x").code == 0
    header, records = read_lines(cli.export(game))
    # The finding claims to answer a dispute that is not one (the seq before it).
    records[-1]["payload"]["dispute"] = records[-1]["seq"] - 2
    code, out = verify(write_lines(cli.tmp / "forged.jsonl", header, records))
    assert code != 0, out
