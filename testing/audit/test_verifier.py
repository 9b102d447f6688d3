"""The independent verifier (verifier/verify_export.py, written from docs/audit.md alone)
accepts an honest export of every ruleset and refuses tampered ones, naming the seq; and
`umpire audit --file` refuses the same tampering (issue #16, item 7). It checks the batch
grammar as far as it needs no rules (docs/audit.md (6), (7)), and a log rewritten under a
new seed against the commitment the player kept (--commitment)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from umpire.testing.support.forgery import (
    Cli,
    counter_game,
    ended_counter_game,
    read_lines,
    renumber,
    reseal,
    write_lines,
)
from umpire.testing.support.forgery_kinds import (
    COUNTER_TAMPERS,
    GRAMMAR_FORGERIES,
    SYSTEM_BATCH_FORGERIES,
    Forgery,
    lone_roll,
    relabelled_opponent_roll,
    rewritten_game,
    second_end,
)
from umpire.testing.support.short_games import every_ruleset, short_game
from umpire.testing.support.verifier import VERIFIER, after_headline, verify, verify_with

Records = list[dict[str, Any]]


def test_the_verifier_imports_nothing_of_umpire() -> None:
    source = VERIFIER.read_text()
    # "umpire" first: the project's modules are umpire.<folder> (a bare folder name is
    # refused by tests/test_imports.py, so it alone would check nothing).
    for package in ("umpire", "engine", "events", "server", "clients", "tests"):
        assert f"import {package}" not in source and f"from {package}" not in source


@pytest.mark.parametrize("ruleset", every_ruleset())
def test_an_export_of_every_ruleset_verifies(cli: Cli, ruleset: str) -> None:
    path = cli.export(short_game(cli, ruleset))
    code, out = verify(path)
    assert code == 0 and after_headline(out).startswith("OK: "), out
    assert "1 revealed seed matches its commitment" in out and "0 still closed" in out, out


def test_the_verifier_opens_commitments_and_recomputes_rolls(cli: Cli) -> None:
    # After a mid-game reveal only the operator's copy exports (a player's would hold the
    # sealed payloads): the hidden roll and the withheld number (a ruleset secret still in
    # play) stay sealed until the final reveal, which opens both (issue #30 item 4).
    code, out = verify(cli.export(counter_game(cli), "--operator"))
    assert code == 0, out
    assert "0 commitments opened, 2 still closed" in out, out
    assert "2 server rolls recomputed" in out, out
    code, out = verify(cli.export(ended_counter_game(cli)))
    assert code == 0 and "2 commitments opened, 0 still closed" in out, out
    assert "3 server rolls recomputed" in out, out


@pytest.mark.parametrize("rehash", [False, True], ids=["as edited", "chain re-hashed"])
@pytest.mark.parametrize("name", sorted(COUNTER_TAMPERS))
def test_tampering_fails_the_verifier_and_the_audit(cli: Cli, name: str, rehash: bool) -> None:
    tamper, seq, named, named_rehashed = COUNTER_TAMPERS[name]
    # An ended game: its final reveal opens the hidden roll as well (issue #30 item 4).
    header, records = read_lines(cli.export(ended_counter_game(cli)))
    tamper(records, seq)
    if rehash:
        for index, record in enumerate(records):
            record["seq"] = index + 1
        header["events"] = len(records)
        reseal(header, records, 0)
    path = write_lines(cli.tmp / "tampered.jsonl", header, records)
    code, out = verify(path)
    expected = named_rehashed if rehash else named
    assert code == 1 and out.startswith(f"FAILED at seq {expected}:"), out
    result = cli("audit", "--file", str(path))
    assert result.code != 0, result.out
    # A deleted roll, re-hashed, is a command batch short of the roll its rules ask for:
    # the audit's grammar names that command (seq 2), the verifier the first changed link.
    assert f"first divergence at seq {expected} " in result.out or (
        rehash and name == "deleted roll" and "first divergence at seq 2 (decision)" in result.out
    ), result.out


def test_an_edited_readable_payload_fails_the_verifier(cli: Cli) -> None:
    """Editing only the readable JSON (not the bytes the hash covers) is found too."""
    path = cli.export(ended_counter_game(cli))
    lines = path.read_text().splitlines()
    lines[9] = lines[9].replace('"amount":3', '"amount":5')  # seq 9: the player added 3
    assert lines[9] != path.read_text().splitlines()[9]
    edited = cli.tmp / "readable.jsonl"
    edited.write_text("\n".join(lines) + "\n")
    code, out = verify(edited)
    assert code == 1 and out.startswith("FAILED at seq 9:") and "readable" in out, out


# -- the batch grammar (docs/audit.md (6), structure only) -----------------------------------
# Each forgery is re-hashed from the edit on (forgery.reseal), so only the grammar catches
# it. The game (`ended_counter_game`): 1 created; 2-4 push (3 roll #0); 5-7 hide (6 hidden
# roll #1); 8-9 add; 10-12 push (11 roll #2); 13-15 EndGame (14 GameEnded, 15 the final
# SeedRevealed).


@pytest.mark.parametrize("name", list(GRAMMAR_FORGERIES))
def test_a_forgery_of_the_batch_grammar_fails_the_verifier(cli: Cli, name: str) -> None:
    game = ended_counter_game(cli)
    honest = cli.export(game)
    code, out = verify(honest)
    assert code == 0 and "the game ended at seq 14 with its final reveal" in out, out
    header, records = read_lines(honest)
    forgery, seq = GRAMMAR_FORGERIES[name]
    reseal(header, records, forgery(header, records))
    path = write_lines(cli.tmp / "forged.jsonl", header, records)
    code, out = verify(path)
    assert code == 1 and out.startswith(f"FAILED at seq {seq}:"), out
    result = cli("audit", "--file", str(path))
    assert result.code == 1 and f"first divergence at seq {seq} (grammar)" in result.out


def test_the_grammar_failures_say_why(cli: Cli) -> None:
    header, records = read_lines(cli.export(ended_counter_game(cli)))
    reasons: dict[str, Forgery] = {
        "no command produced it": lone_roll,
        "follows the end of the game (GameEnded at seq 14)": second_end,
    }
    for reason, forgery in reasons.items():
        h, r = json.loads(json.dumps(header)), json.loads(json.dumps(records))
        reseal(h, r, forgery(h, r))
        code, out = verify(write_lines(cli.tmp / "why.jsonl", h, r))
        assert code == 1 and reason in out, out


def test_a_server_roll_relabelled_as_the_players_fails_the_verifier(cli: Cli) -> None:
    """The push's roll (seq 3) is the opponent's and the game does not let the player
    enter the opponent's dice: marked by the player, with or without its command marked
    as hand-entered, it fails at seq 3."""
    game = cli.new("counter", {"target": 40})
    cli.send(game, {"type": "Push"})
    exported = cli.export(game, "--operator")
    header, records = read_lines(exported)
    assert records[0]["payload"]["opponent_manual_dice"] is False
    assert records[2]["payload"]["owner"] == "opponent"
    assert verify(exported)[0] == 0
    reseal(header, records, relabelled_opponent_roll(records, with_command=True))
    code, out = verify(write_lines(cli.tmp / "relabel.jsonl", header, records))
    assert code == 1 and out.startswith("FAILED at seq 3:"), out
    assert "is the opponent's, but the player entered it" in out, out
    header, records = read_lines(exported)
    # the command not marked as hand-entered
    reseal(header, records, relabelled_opponent_roll(records, with_command=False))
    code, out = verify(write_lines(cli.tmp / "relabel2.jsonl", header, records))
    assert code == 1 and out.startswith("FAILED at seq 3:"), out
    assert "recorded without manual dice" in out, out


def test_a_player_roll_of_the_opponents_stands_where_the_game_allows_it(cli: Cli) -> None:
    made = cli("new", "counter", "--json", "--setup", '{"target": 40}', "--allow-opponent-dice")
    game = json.loads(made.out)["game_id"]
    cli.send(game, {"type": "Push"}, dice=[[6]])
    code, out = verify(cli.export(game, "--operator"))
    assert code == 0 and "1 player roll;" in out, out


def test_a_log_rewritten_under_a_new_seed_fails_against_the_kept_commitment(cli: Cli) -> None:
    # The same command played again in a fresh game under the same id and client seed:
    # a new seed and commitment, and a log consistent on its own.
    path, original, kept = rewritten_game(cli)
    assert verify(path)[0] == 0
    code, out = verify_with(path, "--commitment", original)
    assert code == 1 and out.startswith("FAILED at seq 1:"), out
    assert "rewritten under another seed" in out, out
    code, out = verify_with(path, "--commitment", kept)
    assert code == 0 and "the seed commitment is the one given" in out, out
    code, out = verify_with(path, "--commitment", "xyz")
    assert code == 2 and "64 lowercase hex digits" in out, out


def test_system_batches_stand_only_where_section_6_puts_them(cli: Cli) -> None:
    """A game that binds its client seed (seq 2, umpire:bind:0), pushes (3-5) and is
    revealed (6, umpire:reveal): moved or renamed, each system batch fails where it is."""
    made = cli("new", "counter", "--json", "--setup", json.dumps({"target": 40}))
    game = json.loads(made.out)["game_id"]
    cli.send(game, {"type": "Push"})
    assert cli("reveal", game).code == 0
    header, records = read_lines(cli.export(game))
    assert [r["command_id"] for r in records][1::4] == ["umpire:bind:0", "umpire:reveal"]
    assert verify(cli.export(game))[0] == 0
    for name, (edit, seq, reason) in SYSTEM_BATCH_FORGERIES.items():
        h, r = json.loads(json.dumps(header)), json.loads(json.dumps(records))
        edit(r)
        renumber(h, r)
        reseal(h, r, 0)
        code, out = verify(write_lines(cli.tmp / "system.jsonl", h, r))
        assert code == 1 and out.startswith(f"FAILED at seq {seq}:") and reason in out, (name, out)


def test_a_game_that_binds_and_rotates_its_seed_verifies(cli: Cli) -> None:
    """Epoch 0 bound at seq 2, revealed mid-game (umpire:reveal), epoch 1 bound
    (umpire:bind:1) before its first roll, then the end with the final reveal."""
    made = cli("new", "counter", "--json", "--setup", json.dumps({"target": 1000}))
    game = json.loads(made.out)["game_id"]
    cli.send(game, {"type": "Push"})
    assert cli("reveal", game).code == 0
    assert cli("bind", game, "mine").code == 0
    cli.send(game, {"type": "Push"})
    cli.send(game, {"type": "EndGame", "result": "done"})
    path = cli.export(game)
    ids = [r["command_id"] for r in read_lines(path)[1]]
    assert "umpire:bind:0" in ids and "umpire:reveal" in ids and "umpire:bind:1" in ids
    code, out = verify(path)
    assert code == 0 and "2 revealed seeds match their commitments" in out
    assert "2 server rolls recomputed" in out, out
    assert "with its final reveal" in out, out
    # The epoch-1 bind moved after that epoch's roll: a server roll before its client seed.
    header, records = read_lines(path)
    bind = ids.index("umpire:bind:1")
    records.insert(bind + 2, records.pop(bind))
    renumber(header, records)
    reseal(header, records, 0)
    code, out = verify(write_lines(cli.tmp / "late-bind.jsonl", header, records))
    assert code == 1 and out.startswith(f"FAILED at seq {bind + 2}:"), out  # the roll
    assert "before the client seed of seed epoch 1 was bound" in out, out
