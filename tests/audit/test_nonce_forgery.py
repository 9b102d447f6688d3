"""A recorded command nonce is part of what the dice checks re-derive (issue #30 item 5):
an export whose nonce was changed, or dropped, fails `umpire audit --file` and the
independent verifier at the first roll of that command, even with the chain re-hashed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.support.nonce_forgeries import NONCE_TAMPERS, rolled_game
from umpire.testing.support.forgery import Cli, counter_game, read_lines, reseal, write_lines
from umpire.testing.support.verifier import verify

Payload = dict[str, Any]


def test_an_honest_export_rederives_every_roll_with_its_commands_nonce(cli: Cli) -> None:
    path = cli.export(rolled_game(cli))
    _, records = read_lines(path)
    # `umpire send` adds a fresh nonce to each command, as the clients do
    commands = [r for r in records if r["type"] == "CommandRecorded"]
    assert len(commands) == 2 and all(len(r["payload"]["nonce"]) == 32 for r in commands)
    code, out = verify(path)
    assert code == 0 and "2 server rolls recomputed (2 of them from their command's nonce" in out
    audited = cli("audit", "--file", str(path))
    assert audited.code == 0, audited.out
    assert "2 of 2 server rolls also derive from their command's nonce" in audited.out


def test_a_waived_game_takes_no_nonce(cli: Cli) -> None:
    """A game that waived client entropy derives its dice from the server's seed alone: the
    nonce `umpire send` adds is neither used nor recorded."""
    _, records = read_lines(cli.export(counter_game(cli), "--operator"))
    commands = [r for r in records if r["type"] == "CommandRecorded"]
    assert commands and all("nonce" not in r["payload"] for r in commands)


@pytest.mark.parametrize("tamper", list(NONCE_TAMPERS.values()), ids=list(NONCE_TAMPERS))
@pytest.mark.parametrize("rehash", [False, True], ids=["as edited", "chain re-hashed"])
def test_a_forged_nonce_fails_the_audit_and_the_verifier(
    cli: Cli, tamper: Callable[[Payload], None], rehash: bool
) -> None:
    header, records = read_lines(cli.export(rolled_game(cli)))
    assert records[2]["type"] == "CommandRecorded" and records[3]["type"] == "DiceRolled"
    tamper(records[2]["payload"])
    if rehash:
        reseal(header, records, 2)
    path = write_lines(cli.tmp / "nonce.jsonl", header, records)
    named = 4 if rehash else 3  # the roll no longer derives; else the edited link itself
    code, out = verify(path)
    assert code == 1 and out.startswith(f"FAILED at seq {named}:"), out
    result = cli("audit", "--file", str(path))
    assert result.code != 0 and f"first divergence at seq {named} " in result.out, result.out
