"""Takebacks in the log (issue #18 item 4): `umpire takeback` takes back or says why not,
`umpire log` and `explain` show what was taken back, an honest log with takebacks audits
and verifies, and a forged `CommandTakenBack` fails both the audit and the independent
verifier (docs/audit.md (6) "Takeback"), naming the seq.

Games are created with client entropy waived: seq 1 is GameCreated, commands follow."""

from __future__ import annotations

import json
from typing import Any

import pytest

from umpire.testing.support.forgery import Cli, read_lines, reseal, write_lines
from umpire.testing.support.forgery_kinds import TAKEBACK_FORGERIES
from umpire.testing.support.verifier import verify

Records = list[dict[str, Any]]


def _game(cli: Cli) -> str:
    """Add 1 (seqs 2-3), Add 2 (4-5), Add 3 (6-7), then a takeback of Add 3 (8-9)."""
    game = cli.new("counter", {"target": 100})
    for n in (1, 2, 3):
        cli.send(game, {"type": "Add", "amount": n})
    result = cli("takeback", game)
    assert result.code == 0, result.err
    assert "took back Add (seq 6" in result.out and "seqs 8..9" in result.out, result.out
    return game


def test_takeback_on_the_command_line_log_and_explain(cli: Cli) -> None:
    game = _game(cli)
    state = json.loads(cli("state", game, "--json").out)
    assert state["view"]["total"] == 3
    log = cli("log", game)
    assert log.code == 0
    flat = " ".join(log.out.split())
    assert "[taken back at seq 9]" in flat and "took back Add (seq 6" in flat, log.out
    explained = cli("explain", game, "6")
    assert "took it back at seq 9" in " ".join(explained.out.split()), explained.out
    assert cli("audit", game).code == 0


def test_a_refused_takeback_says_why_and_writes_nothing(cli: Cli) -> None:
    game = cli.new("counter", {"target": 100})
    result = cli("takeback", game)
    assert result.code == 2 and "nothing to take back" in result.err, result.err
    cli.send(game, {"type": "Add", "amount": 1})
    cli.send(game, {"type": "Push"})  # seqs 4-6, its roll at 5
    result = cli("takeback", game)
    assert result.code == 2 and "command_not_allowed" in result.err, result.err
    assert "a die was rolled since: at seq 5" in result.err, result.err
    events = cli("log", game, "--json").out.splitlines()
    assert len(events) == 6  # nothing written
    actions = cli("actions", game, "--json")
    assert "TakeBack" not in actions.out


def test_actions_lists_takeback_naming_the_command(cli: Cli) -> None:
    game = cli.new("counter", {"target": 100})
    cli.send(game, {"type": "Add", "amount": 1})
    actions = json.loads(cli("actions", game, "--json").out)
    (takeback,) = [a for a in actions if a["type"] == "TakeBack"]
    assert takeback["description"].startswith("Take back: Add (seq 2)")


def test_an_honest_log_with_takebacks_verifies(cli: Cli) -> None:
    game = _game(cli)
    cli("takeback", game)  # the one before it too (seqs 10-11)
    assert cli("reveal", game).code == 0
    code, out = verify(cli.export(game))
    assert code == 0 and "2 commands taken back" in out, out


@pytest.mark.parametrize("name", list(TAKEBACK_FORGERIES))
def test_a_forged_takeback_fails_the_audit_and_the_verifier(cli: Cli, name: str) -> None:
    game = _game(cli)
    cli.send(game, {"type": "Push"})  # seqs 10-12 (roll at 11)
    assert cli("reveal", game).code == 0  # seq 13
    header, records = read_lines(cli.export(game))
    forgery, audit_seq, check, verifier_seq = TAKEBACK_FORGERIES[name]
    reseal(header, records, forgery(header, records))
    path = write_lines(cli.tmp / "forged.jsonl", header, records)
    result = cli("audit", "--file", str(path))
    assert result.code == 1, result.out
    assert f"first divergence at seq {audit_seq} ({check})" in result.out, result.out
    code, out = verify(path)
    assert code == 1 and out.startswith(f"FAILED at seq {verifier_seq}:"), out
