"""`umpire dispute` and `umpire disputes` on the suite's store, and the disputes in an
export (issue 40 items 5 and 6): every ruleset's ended game is disputed under its first
declared reading; the finding is printed, listed, exported, and both `umpire audit --file`
and the independent verifier (verifier/verify_export.py) accept the export. A dispute the
umpire refuses exits 2 with its reason and writes nothing."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from tests.support.amendments import (
    FIRST_RULING,
    SECOND_LINE_ROLL,
    SECOND_RULING,
    amended_behind,
    amended_twice,
    play_to_the_end,
)
from umpire.engine import registry
from umpire.engine.kit.reading import value_text
from umpire.testing.support.drivers import rulesets
from umpire.testing.support.forgery import Cli, read_lines, reseal, write_lines
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
    ruled = cli("rule", game, str(dispute["id"]), "uphold")
    assert ruled.code == 0, ruled.err
    assert "uphold (by the player)" in ruled.out
    path = cli.export(game)
    audited = cli("audit", "--file", str(path))
    assert audited.code == 0, audited.out + audited.err
    code, out = verify(path)
    assert code == 0, out
    assert "1 dispute, 1 finding" in out


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


def test_a_forged_finding_in_the_export_fails(cli: Cli) -> None:
    """A finding moved onto another seq fails both checkers; a finding whose answer is
    changed fails `umpire audit`, which re-makes it; the independent verifier, which runs
    no rules, fails an answer that is not well formed (docs/audit.md "What a verifier
    without the rules checks"; an amended dispute's answer: the amended game's test)."""
    game = short_game(cli, "conflict_of_heroes")
    seq = _decision_seq(cli, game)
    assert cli("dispute", game, str(seq), "--claim", "x").code == 0
    path = cli.export(game)
    header, records = read_lines(path)
    moved = records[-1]["seq"] - 2
    records[-1]["payload"]["dispute"] = moved
    records[-1]["command_id"] = f"umpire:finding:{moved}"
    reseal(header, records, len(records) - 1)
    forged = write_lines(cli.tmp / "moved.jsonl", header, records)
    code, out = verify(forged)
    assert code != 0 and "which is no dispute" in out, out
    audited = cli("audit", "--file", str(forged))
    assert audited.code != 0 and "no open dispute" in audited.out + audited.err
    header, records = read_lines(path)
    records[-1]["payload"].update(same=False, parts_at=seq, as_played="x", under_reading="y")
    reseal(header, records, len(records) - 1)
    forged = write_lines(cli.tmp / "changed.jsonl", header, records)
    audited = cli("audit", "--file", str(forged))
    assert audited.code != 0 and "is not the one the log makes" in audited.out + audited.err
    # An answer that contradicts itself fails the independent verifier too: "the same"
    # where the lines part at the disputed seq itself, or a parting seq the finding does
    # not compare (the finding's own seq).
    finding = records[-1]["seq"]
    for name, answer, why in (
        ("same", {"same": True, "parts_at": seq}, f"same=True where the lines part at seq {seq}"),
        ("outside", {"same": True, "parts_at": finding}, f"part at seq {finding}, no event"),
    ):
        header, records = read_lines(path)
        records[-1]["payload"].update(as_played="x", under_reading="y", **answer)
        reseal(header, records, len(records) - 1)
        forged = write_lines(cli.tmp / f"answer-{name}.jsonl", header, records)
        code, out = verify(forged)
        assert code != 0 and f"FAILED at seq {finding}" in out and why in out, (name, out)
        audited = cli("audit", "--file", str(forged))
        assert audited.code != 0, (name, audited.out)


def test_a_ruling_by_a_spectator_is_refused_and_fails_the_verifier_when_forged(cli: Cli) -> None:
    game = short_game(cli, "conflict_of_heroes")
    seq = _decision_seq(cli, game)
    assert cli("dispute", game, str(seq), "--claim", "x").code == 0
    (dispute,) = json.loads(cli("disputes", game, "--json").out)
    refused = cli("rule", game, str(dispute["id"]), "uphold", "--as", "spectator")
    assert refused.code == 2 and "may not rule" in refused.err
    assert cli("rule", game, str(dispute["id"]), "uphold").code == 0
    header, records = read_lines(cli.export(game))
    assert verify(write_lines(cli.tmp / "honest.jsonl", header, records))[0] == 0
    records[-1]["payload"]["by"] = "spectator"
    reseal(header, records, len(records) - 1)  # the chain re-hashed, as a forger would
    forged = write_lines(cli.tmp / "forged.jsonl", header, records)
    code, out = verify(forged)
    assert code != 0 and "may not rule" in out, out
    audited = cli("audit", "--file", str(forged))
    assert audited.code != 0 and "may not rule" in audited.out + audited.err


def test_log_explain_and_replay_read_a_disputed_game(cli: Cli) -> None:
    """The other log commands take the dispute events in their stride."""
    game = short_game(cli, "conflict_of_heroes")
    seq = _decision_seq(cli, game)
    assert cli("dispute", game, str(seq), "--claim", "x").code == 0
    (dispute,) = json.loads(cli("disputes", game, "--json").out)
    assert cli("rule", game, str(dispute["id"]), "uphold").code == 0
    logged = cli("log", game)
    assert logged.code == 0, logged.err
    assert "Dispute filed" in logged.out and "Dispute ruled" in logged.out  # types in words
    for command in (("explain", game, str(dispute["id"])),
                    ("replay", game, "--at", str(dispute["id"] + 2)),
                    ("replay", game, "--diff", "2", str(dispute["id"] + 2))):  # fmt: skip
        result = cli(*command)
        assert result.code == 0, (command, result.err)


def test_a_sealed_export_takes_no_more_disputes(cli: Cli) -> None:
    """Issue 40 item 7: a dispute of an ended game's seq after its export was sealed is
    refused, saying what is possible instead, and writes nothing."""
    running = short_game(cli, "conflict_of_heroes", end=False)
    refused = cli("export", running, "--seal", "-o", str(cli.tmp / "running.jsonl"))
    assert refused.code == 2 and "a running game's export may not be sealed" in refused.err
    game = short_game(cli, "conflict_of_heroes")
    seq = _decision_seq(cli, game)
    assert cli("dispute", game, str(seq), "--claim", "x").code == 0
    (dispute,) = json.loads(cli("disputes", game, "--json").out)
    refused = cli("export", game, "--seal", "-o", str(cli.tmp / "open.jsonl"))
    assert refused.code == 2 and f"disputes {dispute['id']} are open" in refused.err
    assert cli("rule", game, str(dispute["id"]), "uphold").code == 0
    path = cli.export(game, "--seal")
    header, records = read_lines(path)
    assert records[-1]["type"] == "ExportSealed"
    assert verify(path)[0] == 0
    assert cli("audit", "--file", str(path)).code == 0
    before = cli("log", game, "--json").out
    refused = cli("dispute", game, str(seq), "--claim", "again")
    assert refused.code == 2 and "its export was sealed at seq" in refused.err
    assert "umpire readings" in refused.err  # what is possible instead
    refused = cli("export", game, "--seal", "-o", str(cli.tmp / "twice.jsonl"))
    assert refused.code == 2 and "export was sealed" in refused.err
    assert cli("log", game, "--json").out == before
    # Anything after the seal, forged into the export, fails both checkers.
    records.append({**records[-2], "seq": records[-1]["seq"] + 1,
                    "command_id": f"umpire:dispute:{records[-1]['seq'] + 1}"})  # fmt: skip
    header["events"] = len(records)
    reseal(header, records, len(records) - 1)
    forged = write_lines(cli.tmp / "after-seal.jsonl", header, records)
    code, out = verify(forged)
    assert code != 0 and "follows the seal of the export" in out, out
    audited = cli("audit", "--file", str(forged))
    assert audited.code != 0 and "follows the seal" in audited.out + audited.err


def test_a_spectators_open_dispute_does_not_hold_the_seal_back(cli: Cli) -> None:
    """docs/audit.md "Disputes": a spectator disputes a roll, the player disputes it too
    (filed and found beside the spectator's open one) and rules on their own; the ended
    game seals with the spectator's dispute still open, and the sealed export passes
    `umpire audit` and verify_export.py. The player's open dispute still holds the seal
    back, and a seal forged over it fails both checkers."""
    game = cli.new("counter", {"target": 100})
    cli.send(game, {"type": "Push"})  # seqs 2-4, the roll at 3
    spectator = cli("dispute", game, "3", "--claim", "the roll", "--as", "spectator")
    assert spectator.code == 0 and "finding: " in spectator.out, spectator.err  # seqs 5, 6
    player = cli("dispute", game, "3", "--claim", "the roll too")
    assert player.code == 0 and "finding: " in player.out, player.err  # seqs 7, 8
    cli.send(game, {"type": "EndGame", "result": "disputed"})
    refused = cli("export", game, "--seal", "-o", str(cli.tmp / "open.jsonl"))
    assert refused.code == 2 and "disputes 7 are open" in refused.err
    assert cli("rule", game, "7", "uphold").code == 0
    path = cli.export(game, "--seal")
    header, records = read_lines(path)
    assert records[-1]["type"] == "ExportSealed"
    listed = {d["id"]: d for d in json.loads(cli("disputes", game, "--json").out)}
    assert listed[5]["ruling"] is None and listed[5]["finding"] is not None
    audited = cli("audit", "--file", str(path))
    assert audited.code == 0, audited.out + audited.err
    code, out = verify(path)
    assert code == 0 and "2 disputes, 2 findings" in out, out
    # The ruling moved onto the spectator's dispute: the player's is open under the seal.
    ruling = next(r for r in records if r["type"] == "DisputeRuled")
    ruling["payload"]["dispute"] = 5
    ruling["command_id"] = "umpire:ruling:5"
    reseal(header, records, ruling["seq"] - 1)
    forged = write_lines(cli.tmp / "sealed-over-the-player.jsonl", header, records)
    code, out = verify(forged)
    assert code != 0 and "comes while a dispute of the player or the referee" in out, out
    audited = cli("audit", "--file", str(forged))
    assert audited.code != 0 and "disputes 7 are open" in audited.out + audited.err


def test_an_amended_game_exports_audits_and_verifies_and_a_forged_line_fails(cli: Cli) -> None:
    """`umpire rule GAME ID amend` (issue 40 item 4): the ruling's batch holds GameAmended
    and the re-applied commands with their recorded rolls; the game plays on and ends; the
    export passes `umpire audit` and verify_export.py. A re-applied roll with other faces,
    or a GameAmended naming other superseded seqs, fails both."""
    game = cli.new("counter", {"target": 100})
    cli.send(game, {"type": "Push"})  # seqs 2-4: CommandRecorded, DiceRolled, decision
    cli.send(game, {"type": "Push"})  # seqs 5-7
    assert cli("dispute", game, "3", "--claim", "the roll").code == 0  # seqs 8, 9
    ruled = cli("rule", game, "8", "amend")
    assert ruled.code == 0, ruled.err
    assert "amend (by the player)" in ruled.out
    cli.send(game, {"type": "Push"})
    cli.send(game, {"type": "EndGame", "result": "amended"})
    path = cli.export(game)
    header, records = read_lines(path)
    types = [r["type"] for r in records]
    assert types[9:12] == ["DisputeRuled", "GameAmended", "CommandRecorded"], types
    assert records[10]["payload"]["parts_from"] == 2
    assert records[10]["payload"]["superseded_to"] == 9
    assert {r["command_id"] for r in records[9:17]} == {"umpire:ruling:8"}
    audited = cli("audit", "--file", str(path))
    assert audited.code == 0, audited.out + audited.err
    code, out = verify(path)
    assert code == 0, out
    assert "1 amendment:" in out
    for command in (("log", game), ("explain", game, "11"), ("disputes", game)):
        shown = cli(*command)
        assert shown.code == 0, (command, shown.err)
    assert "Game amended" in cli("log", game).out  # its type in words (--json: GameAmended)
    reused = next(i for i in range(11, len(records)) if records[i]["type"] == "DiceRolled")
    faces = records[reused]["payload"]["faces"]

    def forge_roll(r: list[dict[str, Any]]) -> int:
        r[reused]["payload"]["faces"] = [f % 6 + 1 for f in faces]
        return reused

    def forge_range(r: list[dict[str, Any]]) -> int:
        r[10]["payload"]["superseded_to"] = 8
        return 10

    # The finding (seq 9: the lines never part, no reading) answered otherwise: the lines
    # parting at the disputed roll, or at the second Push's CommandRecorded. Well formed,
    # each fails the independent verifiers where the amended line shows it false.
    def forge_answer(r: list[dict[str, Any]]) -> int:
        r[8]["payload"].update(same=False, parts_at=3, as_played="x", under_reading="y")
        return 8

    def forge_parting(r: list[dict[str, Any]]) -> int:
        r[8]["payload"].update(same=True, parts_at=5, as_played="x", under_reading="y")
        return 8

    at_marker = "FAILED at seq 11: the finding at seq 9 says the lines part at seq"
    why = {"roll": "", "range": "", "answer": at_marker, "parting": at_marker}
    for name, forgery in (("roll", forge_roll), ("range", forge_range),
                          ("answer", forge_answer), ("parting", forge_parting)):  # fmt: skip
        header, records = read_lines(path)
        reseal(header, records, forgery(records))
        forged = write_lines(cli.tmp / f"amended-{name}.jsonl", header, records)
        code, out = verify(forged)
        assert code != 0 and why[name] in out, (name, out)
        audited = cli("audit", "--file", str(forged))
        assert audited.code != 0, (name, audited.out)


def test_replay_shows_each_line_of_an_amended_game(cli: Cli) -> None:
    """`umpire replay GAME --line N`: line 0 is the game as first played (the superseded
    line included), line 1 the amended game; a line the game lacks exits 2 saying which
    it has."""
    game = cli.new("counter", {"target": 100})
    cli.send(game, {"type": "Push"})  # seqs 2-4
    assert cli("dispute", game, "3", "--claim", "the roll").code == 0  # seqs 5, 6
    assert cli("rule", game, "5", "amend").code == 0  # seqs 7 (ruling), 8 (GameAmended), 9-
    first = cli("replay", game, "--line", "0", "--at", "6", "--json")
    assert first.code == 0, first.err
    assert json.loads(first.out)["head"] == 6
    now = json.loads(cli("replay", game, "--at", "4", "--json").out)
    amended = cli("replay", game, "--line", "1", "--at", "4", "--json")
    assert amended.code == 0, amended.err
    assert json.loads(amended.out)["state"] == now["state"]
    assert json.loads(amended.out)["head"] > 8
    # Past its head, line 0 has no seq 8.
    assert cli("replay", game, "--line", "0", "--at", "8").code == 2
    missing = cli("replay", game, "--line", "2", "--at", "2")
    assert missing.code == 2 and "lines 0 (as first played) to 1" in missing.err


def test_replay_line_alone_shows_the_line_at_its_head(cli: Cli) -> None:
    """`umpire replay GAME --line N`, as docs/audit.md and the seq_superseded and
    game_amended refusals give it: that line's last state. Fails without the fix: argparse
    stopped it (exit 2, "one of the arguments --at --diff is required")."""
    game = cli.new("counter", {"target": 100})
    cli.send(game, {"type": "Push"})  # seqs 2-4
    assert cli("dispute", game, "3", "--claim", "the roll").code == 0  # seqs 5, 6
    assert cli("rule", game, "5", "amend").code == 0
    first = cli("replay", game, "--line", "0", "--json")
    assert first.code == 0, first.err
    assert json.loads(first.out)["seq"] == json.loads(first.out)["head"] == 6
    text = cli("replay", game, "--line", "0")
    assert text.code == 0 and "after seq 6 of 6" in text.out, text.err
    # Without --at, --diff or --line: what it needs, in words, not a traceback.
    bare = cli("replay", game)
    assert bare.code == 2 and "needs --at SEQ" in bare.err and "--line N" in bare.err, bare.err


def test_a_game_refereed_by_the_operator_takes_no_ruling_from_the_player(cli: Cli) -> None:
    """`umpire new --referee operator` (GameCreated.referee): the player's ruling is
    refused and writes nothing; the operator's stands; a player's ruling forged into the
    export fails `umpire audit` and verify_export.py."""
    result = cli("new", "counter", "--json", "--waive-client-entropy", "--referee", "operator",
                 "--setup", json.dumps({"target": 100}))  # fmt: skip
    assert result.code == 0, result.err
    game = str(json.loads(result.out)["game_id"])
    cli.send(game, {"type": "Push"})
    assert cli("dispute", game, "3", "--claim", "the roll").code == 0  # seqs 5, 6
    before = cli("log", game, "--json").out
    refused = cli("rule", game, "5", "uphold")
    assert refused.code == 2 and "created with the operator as its referee" in refused.err
    assert cli("log", game, "--json").out == before
    ruled = cli("rule", game, "5", "uphold", "--as", "referee")
    assert ruled.code == 0, ruled.err  # seq 7
    cli.send(game, {"type": "EndGame", "result": "refereed"})
    path = cli.export(game)
    assert cli("audit", "--file", str(path)).code == 0
    assert verify(path)[0] == 0
    header, records = read_lines(path)
    records[6]["payload"]["by"] = "player"
    reseal(header, records, 6)
    forged = write_lines(cli.tmp / "by-player.jsonl", header, records)
    code, out = verify(forged)
    assert code != 0 and "operator as its referee" in out, out
    audited = cli("audit", "--file", str(forged))
    assert audited.code != 0 and "operator as its referee" in audited.out + audited.err


def test_a_reapplied_command_may_be_taken_back_and_every_checker_agrees(cli: Cli) -> None:
    """The amended line's commands push onto the takeback stack as any command does (the
    amendment itself empties it): the last re-applied command (no die rolled after it) is
    taken back; the export passes `umpire audit` and verify_export.py."""
    game = cli.new("counter", {"target": 100})
    cli.send(game, {"type": "Push"})  # seqs 2-4
    cli.send(game, {"type": "Add", "amount": 2})
    disputed = cli("dispute", game, "3", "--claim", "the roll")
    assert disputed.code == 0, disputed.err
    (dispute,) = json.loads(cli("disputes", game, "--json").out)
    assert cli("rule", game, str(dispute["id"]), "amend").code == 0
    taken = cli("takeback", game)
    assert taken.code == 0, taken.err
    cli.send(game, {"type": "EndGame", "result": "taken back"})
    path = cli.export(game)
    audited = cli("audit", "--file", str(path))
    assert audited.code == 0, audited.out + audited.err
    code, out = verify(path)
    assert code == 0, out
    assert "1 command taken back" in out


def test_a_game_amended_twice_ends_audits_and_verifies_and_a_forged_second_line_fails(
    cli: Cli,
) -> None:
    """A second dispute, of a roll in the first amended line, ruled `amend`: the second
    ruling's batch re-makes the current line from that roll's command on; the game plays on
    to its end; `umpire audit` and verify_export.py pass the export, and `replay --line N`
    shows each of its three lines. A seq the second amendment superseded may not be
    disputed (exit 2, saying what is possible instead, nothing written). A re-applied roll
    of the second line with other faces, or a dispute forged onto a superseded seq,
    fails both."""
    game = amended_twice(cli)
    path = cli.export(game)
    header, records = read_lines(path)
    types = [r["type"] for r in records]
    assert types[FIRST_RULING - 1 : FIRST_RULING + 1] == ["DisputeRuled", "GameAmended"]
    assert types[SECOND_RULING - 1 : SECOND_RULING + 2] == [
        "DisputeRuled", "GameAmended", "CommandRecorded"
    ]  # fmt: skip
    second = records[SECOND_RULING]["payload"]
    assert (second["dispute"], second["parts_from"], second["superseded_to"]) == (21, 15, 22)
    assert second["reapplied"] == 2 and not second["stopped"]
    assert records[SECOND_LINE_ROLL - 1]["payload"] == records[15]["payload"]  # roll 16's
    assert records[-1]["type"] == "SeedRevealed" and "GameEnded" in types
    audited = cli("audit", "--file", str(path))
    assert audited.code == 0, audited.out + audited.err
    code, out = verify(path)
    assert code == 0, out
    assert "2 amendments" in out
    heads = []
    for line in (0, 1, 2):
        shown = cli("replay", game, "--line", str(line), "--at", "4", "--json")
        assert shown.code == 0, (line, shown.err)
        heads.append(json.loads(shown.out)["head"])
    assert heads == [FIRST_RULING - 1, SECOND_RULING - 1, len(records)]
    missing = cli("replay", game, "--line", "3", "--at", "2")
    assert missing.code == 2 and "lines 0 (as first played) to 2" in missing.err
    before = cli("log", game, "--json").out
    refused = cli("dispute", game, "19", "--claim", "the superseded push")
    assert refused.code == 2
    assert "superseded by the amendment at seq 24" in refused.err
    assert "--line N" in refused.err
    assert cli("log", game, "--json").out == before

    def forge_roll(r: list[dict[str, Any]]) -> int:
        faces = r[SECOND_LINE_ROLL - 1]["payload"]["faces"]
        r[SECOND_LINE_ROLL - 1]["payload"]["faces"] = [f % 6 + 1 for f in faces]
        return SECOND_LINE_ROLL - 1

    def forge_dispute(r: list[dict[str, Any]]) -> int:
        r[20]["payload"]["seq"] = 6  # a roll the first amendment superseded
        return 20

    for name, forgery in (("roll", forge_roll), ("dispute", forge_dispute)):
        header, records = read_lines(path)
        reseal(header, records, forgery(records))
        forged = write_lines(cli.tmp / f"amended-twice-{name}.jsonl", header, records)
        code, out = verify(forged)
        assert code != 0, (name, out)
        audited = cli("audit", "--file", str(forged))
        assert audited.code != 0, (name, audited.out)
        if name == "dispute":
            assert "which the amendment at seq 11 superseded" in out, out


def test_an_amendment_may_return_behind_an_earlier_one(cli: Cli) -> None:
    """The current line runs from seq 1 through the first amendment's line: a decision
    before the first amendment's `parts_from` is on it, and its amendment re-applies the
    current line's commands from there (the first amended line's among them), superseding
    the first amendment and its line. The game ends; both checkers pass the export."""
    game = amended_behind(cli)
    refused = cli("dispute", game, "13", "--claim", "the first amended line")
    assert refused.code == 2 and "superseded by the amendment at seq 18" in refused.err
    play_to_the_end(cli, game)
    path = cli.export(game)
    _, records = read_lines(path)
    marker = records[17]["payload"]
    assert records[17]["type"] == "GameAmended"
    assert (marker["parts_from"], marker["superseded_to"], marker["reapplied"]) == (2, 16, 2)
    # Re-applied: the push at seq 2, then the first amended line's push (seqs 12-14).
    assert [r["payload"] for r in records[18:24]] == [
        r["payload"] for r in (*records[1:4], *records[11:14])
    ]
    audited = cli("audit", "--file", str(path))
    assert audited.code == 0, audited.out + audited.err
    code, out = verify(path)
    assert code == 0 and "2 amendments" in out, out


def test_readjudicate_refuses_an_amended_game_saying_what_reads_it_and_writes_nothing(
    cli: Cli,
) -> None:
    """`umpire readjudicate` re-runs a log of one line: on an amended log it would decide
    the superseded commands again and copy the amended line as it stands, so it refuses
    (exit 2, `game_amended`), naming `umpire audit` and `umpire replay --line N`, and
    writes no copy."""
    game = cli.new("counter", {"target": 100})
    cli.send(game, {"type": "Push"})  # seqs 2-4
    assert cli("dispute", game, "3", "--claim", "the roll").code == 0  # seqs 5, 6
    assert cli("rule", game, "5", "amend").code == 0  # seq 7 on; GameAmended at 8
    before = cli("log", game, "--json").out
    result = cli("readjudicate", game, "--new-game-id", "g-copy")
    assert result.code == 2, result.out
    assert f"game {game!r} was amended (GameAmended at seq 8)" in result.err
    assert f"umpire audit {game}" in result.err and "--line N` shows each line (0 to 1)" in (
        result.err
    )
    assert cli("log", "g-copy").code == 2  # no copy written
    assert cli("log", game, "--json").out == before
    # The game as first played is readjudicated as ever (one line, before the ruling).
    game = cli.new("counter", {"target": 100})
    cli.send(game, {"type": "Push"})
    assert cli("dispute", game, "3", "--claim", "the roll").code == 0
    assert cli("rule", game, "5", "uphold").code == 0
    assert cli("readjudicate", game, "--new-game-id", "g-upheld").code == 0
