"""Whose dice (issue #16 item 6): every roll records whose it is; the player's physical
dice for an opponent's roll are refused unless the game was created to allow it, and
where it was, `audit` and `log` say so. A forged player roll of the opponent's fails the
audit."""

from __future__ import annotations

import json

import pytest
from msgspec import Struct

from umpire.engine import registry
from umpire.engine.commands import GENERIC_ROLL_RULE
from umpire.engine.dice import ManualDice, d6
from umpire.engine.errors import OpponentDiceRefused
from umpire.engine.game import codec_for
from umpire.events.types import Owner, Roller
from umpire.server.games import Games
from umpire.server.render import describe
from umpire.testing.support.forgery import Cli, read_lines, reseal, write_lines


def last_event(cli: Cli, game: str, seq: int = 0) -> Struct:
    """An event of a game's log (the last by default), decoded."""
    record = json.loads(cli("log", game, "--json").out.splitlines()[seq - 1])
    codec = codec_for(registry.get("counter"))
    return codec.from_builtins(record["type"], record["version"], record["payload"])


def test_the_players_dice_for_an_opponents_roll_are_refused(cli: Cli) -> None:
    game = cli.new("counter", {"target": 40})
    result = cli("send", game, json.dumps({"type": "Push"}), "--dice", "[[6]]")
    assert result.code == 2, result.out
    assert "(opponent_dice)" in result.err
    assert "roll 1 entered is the opponent's" in result.err
    assert "--allow-opponent-dice" in result.err
    # Nothing was written; the player's own roll (a generic roll) takes their dice.
    cli.send(game, {"type": "RollDice", "dice": "d6", "purpose": "my own"}, dice=[[4]])
    owners = [
        json.loads(line)["payload"].get("owner")
        for line in cli("log", game, "--json").out.splitlines()
    ]
    assert owners[-1] == "player"
    assert describe(last_event(cli, game)).endswith(
        "(player) for my own — " + GENERIC_ROLL_RULE + " · the player's roll"
    )
    audited = cli("audit", game)
    assert audited.code == 0 and "1 player roll\n" in audited.out
    assert "opponent's dice" not in audited.out


def test_a_game_created_to_allow_it_takes_them_and_says_so(cli: Cli) -> None:
    made = cli("new", "counter", "--json", "--setup", '{"target": 40}', "--allow-opponent-dice")
    created = json.loads(made.out)
    assert created["opponent_manual_dice"] is True
    game = created["game_id"]
    cli.send(game, {"type": "Push"}, dice=[[6]])
    lines = [json.loads(line) for line in cli("log", game, "--json").out.splitlines()]
    assert lines[0]["payload"]["opponent_manual_dice"] is True
    # seq 2 binds the client seed (after the commitment), seq 3 records the command.
    assert lines[3]["payload"]["owner"] == "opponent" and lines[3]["payload"]["by"] == "player"
    codec = codec_for(registry.get("counter"))
    first = codec.from_builtins("GameCreated", 1, lines[0]["payload"])
    assert "player may enter the opponent's dice" in describe(first)
    assert "(player) for bot push — test-counter R2 · the opponent's roll" in describe(
        last_event(cli, game, 4)
    )
    audited = cli("audit", game)
    assert audited.code == 0, audited.out
    assert "the game was created to let the player enter the opponent's dice; 1 of the " \
        "opponent's rolls were entered so" in " ".join(audited.out.split())  # fmt: skip


def test_server_rolls_record_their_owner(cli: Cli) -> None:
    game = cli.new("counter", {"target": 40})
    cli.send(game, {"type": "Push"})
    cli.send(game, {"type": "RollDice", "dice": "2d6", "purpose": "base game"})
    _, records = read_lines(cli.export(game, "--operator"))
    owners = [r["payload"]["owner"] for r in records if r["type"] == "DiceRolled"]
    assert owners == ["opponent", "player"]


def test_a_server_roll_relabelled_as_the_players_fails_the_audit(cli: Cli) -> None:
    """ "What was found" 5: a server roll relabelled as a player roll, its command marked
    as hand-entered, re-hashed: the opponent's roll cannot be the player's here."""
    game = cli.new("counter", {"target": 40})
    cli.send(game, {"type": "Push"})
    header, records = read_lines(cli.export(game, "--operator"))
    records[1]["payload"]["manual_dice"] = True
    records[2]["payload"]["by"] = "player"
    reseal(header, records, 1)
    # The log alone (--no-receipts): the rules find it, receipts or not.
    relabelled = write_lines(cli.tmp / "relabel.jsonl", header, records)
    result = cli("audit", "--file", str(relabelled), "--no-receipts")
    assert result.code == 1
    assert "first divergence at seq 3 (player_roll)" in result.out
    assert "is the opponent's, but the player entered it" in result.out
    # Marking the roll alone (the command not hand-entered) fails too.
    header, records = read_lines(cli.export(game, "--operator"))
    records[2]["payload"]["by"] = "player"
    reseal(header, records, 2)
    relabelled = write_lines(cli.tmp / "relabel2.jsonl", header, records)
    result = cli("audit", "--file", str(relabelled), "--no-receipts")
    assert result.code == 1 and "first divergence at seq 3 (player_roll)" in result.out


def test_an_old_log_without_owners_still_audits(cli: Cli) -> None:
    """A log from before rolls had owners: the audit takes the owner the rules give."""
    game = cli.new("counter", {"target": 40})
    cli.send(game, {"type": "Push"})
    header, records = read_lines(cli.export(game, "--operator"))
    for record in records:
        record["payload"].pop("owner", None)
        record["payload"].pop("opponent_manual_dice", None)
    reseal(header, records, 0)
    # Made from this machine's game: its receipts are of the log as it was written.
    old = write_lines(cli.tmp / "old.jsonl", header, records)
    result = cli("audit", "--file", str(old), "--no-receipts")
    assert result.code == 0, result.out


async def test_the_refusal_is_typed_and_writes_nothing(games: Games) -> None:
    created = await games.create("counter", {"target": 100})
    with pytest.raises(OpponentDiceRefused) as refused:
        await games.handle(created.game_id, "m1", {"type": "Push"}, manual_dice=[[5]])
    assert refused.value.code == "opponent_dice"
    assert refused.value.details == {"entry": 1}  # which entry; never the roll's rule
    assert await games.store.version(created.game_id) == 1


def test_manual_dice_refuse_an_opponents_roll_unless_told_otherwise() -> None:
    dice = ManualDice([[3]], 0, opponent_dice=False)
    with pytest.raises(OpponentDiceRefused, match="roll 1 entered is the opponent's"):
        dice.roll(d6(), purpose="bot push", rule="R2", owner=Owner.OPPONENT)
    assert dice.roll(d6(), purpose="mine", rule="R1", owner=Owner.PLAYER).faces == (3,)
    assert dice.rolled[0].owner is Owner.PLAYER and dice.rolled[0].by is Roller.PLAYER
