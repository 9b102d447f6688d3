"""The audit checks the batch grammar (issue #16, "What was found" 5): each forged or
tampered log fails `umpire audit` in the store and as an export, naming the first bad seq
and why, whether or not the forger re-hashed the chain from the edit on.

The game (`ended_counter_game`): 1 created; 2-4 push (3 roll #0, 4 BotPushed); 5-7 hide
(6 hidden roll #1, 7 SecretChosen); 8-9 add; 10-12 push (11 roll #2, 12 BotPushed); 13-15
EndGame (14 GameEnded, 15 final SeedRevealed).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from umpire.testing.support.forgery import (
    Cli,
    ended_counter_game,
    forged,
    insert,
    read_lines,
    renumber,
    reseal,
    rewrite_stream,
    write_lines,
)
from umpire.testing.support.forgery_kinds import (
    forged_decision,
    lone_roll,
    second_end,
    second_end_in_batch,
)

FAILED = 1
Records = list[dict[str, Any]]
Tamper = Callable[[dict[str, Any], Records], int]  # edits in place, returns the index edited


def _forged_decision_in_batch(header: dict[str, Any], records: Records) -> int:
    """The same, under the push command's id (so grouping by id would take it in)."""
    added = {"type": "counter.Added", "amount": 6}
    insert(header, records, 4, forged(records[3], added, records[3]["command_id"]))
    return 4


def _deleted(header: dict[str, Any], records: Records) -> int:
    del records[6]  # seq 7, the bot's secret choice
    renumber(header, records)
    return 6


def _swapped(header: dict[str, Any], records: Records) -> int:
    records[2], records[3] = records[3], records[2]  # roll #0 and BotPushed
    renumber(header, records)
    return 2


def _face(header: dict[str, Any], records: Records) -> int:
    roll = records[10]["payload"]  # seq 11, roll #2
    roll["faces"] = [roll["faces"][0] % 6 + 1]
    roll["total"] = roll["faces"][0]
    return 10


def _owner(header: dict[str, Any], records: Records) -> int:
    records[2]["payload"]["owner"] = "player"  # seq 3, the bot's push roll
    return 2


def _seed(header: dict[str, Any], records: Records) -> int:
    records[14]["payload"]["seed"] = "ab" * 32
    return 14


# name: (tamper, seq and check when re-hashed); without re-hashing, every one is a
# hash_chain failure at the first seq the edit touched.
TAMPERS: dict[str, tuple[Tamper, int, str]] = {
    "lone DiceRolled burning a roll": (lone_roll, 13, "grammar"),
    "second GameEnded": (second_end, 16, "grammar"),
    "second GameEnded inside the ending batch": (second_end_in_batch, 15, "grammar"),
    "forged decision under its own id": (forged_decision, 5, "grammar"),
    "forged decision under the command's id": (_forged_decision_in_batch, 5, "grammar"),
    "deleted event": (_deleted, 7, "decision"),
    "swapped events": (_swapped, 3, "decision"),
    "changed face": (_face, 11, "server_roll"),
    "changed owner": (_owner, 3, "decision"),
    "changed revealed seed": (_seed, 15, "seed_commitment"),
}


def _failure_at(out: str, seq: int, check: str) -> bool:
    return f"first divergence at seq {seq} ({check})" in out


@pytest.mark.parametrize("where", ["store", "file"])
@pytest.mark.parametrize("rehash", [True, False], ids=["rehashed", "not-rehashed"])
@pytest.mark.parametrize("name", list(TAMPERS))
def test_a_tampered_log_fails_the_audit_at_its_seq(
    cli: Cli, name: str, rehash: bool, where: str
) -> None:
    game = ended_counter_game(cli)
    assert cli("audit", game).code == 0
    header, records = read_lines(cli.export(game))
    tamper, seq, check = TAMPERS[name]
    index = tamper(header, records)
    if rehash:
        reseal(header, records, index)
    else:
        seq, check = index + 1, "hash_chain"
    if where == "store":
        rewrite_stream(cli.redis_url, cli.prefix, game, header, records)
        result = cli("audit", game)
    else:
        result = cli("audit", "--file", str(write_lines(cli.tmp / "forged.jsonl", header, records)))
    assert result.code == FAILED, result.out
    assert _failure_at(result.out, seq, check), result.out


def test_the_reasons_name_what_is_wrong(cli: Cli) -> None:
    header, records = read_lines(cli.export(ended_counter_game(cli)))
    cases: dict[str, Tamper] = {
        "no command produced it": lone_roll,
        "follows the end of the game (GameEnded at seq 14)": second_end,
    }
    for reason, tamper in cases.items():
        h, r = json.loads(json.dumps(header)), json.loads(json.dumps(records))
        reseal(h, r, tamper(h, r))
        result = cli("audit", "--file", str(write_lines(cli.tmp / "r.jsonl", h, r)))
        assert result.code == FAILED and reason in result.out, result.out


def test_a_log_rewritten_under_a_new_seed_fails_against_the_players_commitment(
    cli: Cli,
) -> None:
    made = cli("new", "counter", "--json", "--setup", json.dumps({"target": 40}))
    original = json.loads(made.out)
    game = original["game_id"]
    cli.send(game, {"type": "Push"})
    # The operator plays the same command again in a fresh game under the same id and
    # client seed (a new seed and commitment) and puts its log in place of the original.
    real_prefix = cli.prefix
    cli.use_prefix(real_prefix[:26] + "-forge")
    args = ["new", "counter", "--json", "--setup", json.dumps({"target": 40}),
            "--game-id", game, "--client-seed", original["client_seed"]]  # fmt: skip
    assert cli(*args).code == 0
    cli.send(game, {"type": "Push"})
    assert cli("reveal", game).code == 0
    path = cli.export(game)
    header, records = read_lines(path)
    cli.use_prefix(real_prefix)
    rewrite_stream(cli.redis_url, cli.prefix, game, header, records)
    # On its own the rewritten log is consistent: what the log alone can show (not with
    # the receipts this machine kept of the game, tests/audit/test_kept_receipts.py).
    assert cli("audit", game, "--no-receipts").code == 0
    assert cli("audit", "--file", str(path), "--no-receipts").code == 0
    # Against the commitment the player received at creation it fails, at seq 1.
    for source in ([game], ["--file", str(path)]):
        result = cli("audit", *source, "--no-receipts", "--commitment", original["seed_commitment"])
        assert result.code == FAILED and _failure_at(result.out, 1, "seed_commitment"), result.out
        assert "rewritten under another seed" in result.out
    honest = cli("audit", "--file", str(path), "--no-receipts",
                 "--commitment", header_commitment(records))  # fmt: skip
    assert honest.code == 0, honest.out


def header_commitment(records: Records) -> str:
    """The seed commitment a log's GameCreated holds."""
    return str(records[0]["payload"]["seed_commitment"])


def test_a_bad_commitment_argument_is_refused(cli: Cli) -> None:
    game = ended_counter_game(cli)
    with pytest.raises(SystemExit) as exited:
        cli("audit", game, "--commitment", "xyz")
    assert exited.value.code == 2
    assert "64 lowercase hex digits" in cli.capsys.readouterr().err


def test_a_reveal_mid_game_then_the_end_audits_ok(cli: Cli) -> None:
    """The system batches that exist in this build: creation, the reveal of a running game
    (umpire:reveal) and, after GameEnded, the final reveal in the ending batch."""
    game = cli.new("counter", {"target": 40})
    cli.send(game, {"type": "Push"})
    assert cli("reveal", game).code == 0
    cli.send(game, {"type": "Push"})
    cli.send(game, {"type": "EndGame", "result": "done"})
    result = cli("audit", game)
    assert result.code == 0, result.out
    assert "3 commands, 3 decisions re-made" in result.out


def test_a_reveal_under_a_clients_command_id_is_refused(cli: Cli) -> None:
    game = cli.new("counter", {"target": 40})
    cli.send(game, {"type": "Push"})
    assert cli("reveal", game).code == 0
    header, records = read_lines(cli.export(game))
    records[4]["command_id"] = "my-reveal"
    reseal(header, records, 4)
    result = cli("audit", "--file", str(write_lines(cli.tmp / "reveal.jsonl", header, records)))
    assert result.code == FAILED and _failure_at(result.out, 5, "grammar"), result.out
    assert "its command id 'my-reveal' is not 'umpire:reveal'" in result.out


def test_a_reused_or_reserved_command_id_is_refused(cli: Cli) -> None:
    game = cli.new("counter", {"target": 40})
    cli.send(game, {"type": "Push"})
    cli.send(game, {"type": "Add", "amount": 2})
    assert cli("reveal", game).code == 0
    header, records = read_lines(cli.export(game))
    for record in records[4:6]:  # the Add batch under the push's id
        record["command_id"] = records[1]["command_id"]
    reseal(header, records, 4)
    result = cli("audit", "--file", str(write_lines(cli.tmp / "reuse.jsonl", header, records)))
    assert result.code == FAILED and _failure_at(result.out, 5, "command_id"), result.out
    assert "was used by the batch at seq 2" in result.out
    header, records = read_lines(cli.export(game))
    for record in records[4:6]:
        record["command_id"] = "umpire:add"
    reseal(header, records, 4)
    result = cli("audit", "--file", str(write_lines(cli.tmp / "sys.jsonl", header, records)))
    assert result.code == FAILED and _failure_at(result.out, 5, "command_id"), result.out
    assert "reserved for system batches" in result.out
