"""Issue #30 item 1 and the rest of item 2: the player's receipts anchor the log.

The forgery kinds of breaks 1 to 4, over a game of every ruleset with a mid-game reveal:
each passes (or, for 3 and 4, is only a prefix or already fails) without receipts, and
fails at its seq against the receipts this machine kept (`umpire receipts GAME`), in
`verifier/verify_export.py` and in `umpire audit --file` alike.
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

import pytest

from tests.support.receipts import receipts_of, revealed_midway, verdicts
from umpire.engine.dice import DiceKind, DiceSpec, derive_faces
from umpire.testing.support.forgery import Cli, read_lines, reseal, write_lines
from umpire.testing.support.short_games import every_ruleset

Records = list[dict[str, Any]]
CHOSEN = bytes(range(100, 132))  # the seed the forger chose for epoch 1


def _played(cli: Cli, ruleset: str) -> tuple[dict[str, Any], Records, Any]:
    game = revealed_midway(cli, ruleset)
    header, records = read_lines(cli.export(game))
    assert header["complete"] is True
    return header, records, receipts_of(cli, game)


@pytest.mark.parametrize("ruleset", every_ruleset())
def test_a_real_export_agrees_with_its_receipts(cli: Cli, ruleset: str) -> None:
    header, records, receipts = _played(cli, ruleset)
    lines = receipts.read_text().splitlines()
    assert json.loads(lines[0]) == {"format": "umpire-receipts/1", "game_id": header["game_id"]}
    kinds = [json.loads(line)["kind"] for line in lines[1:]]
    assert kinds.count("commitment") == 2  # epoch 0 at creation, epoch 1 at the reveal
    verified, audited = verdicts(cli, header, records, "real", receipts)
    assert verified.startswith("0 OK: ") and f"up to seq {len(records)}" in verified, verified
    assert audited.startswith("0 OK: ") and "anchored: " in audited, audited
    verified, audited = verdicts(cli, header, records, "real-bare", None)
    assert "not anchored: no receipts given" in verified
    assert "not anchored: no receipts given" in audited


@pytest.mark.parametrize("ruleset", every_ruleset())
def test_break_1_a_rewrite_from_the_mid_game_reveal_fails_against_receipts(
    cli: Cli, ruleset: str
) -> None:
    """The mid-game reveal's next_commitment pointed at a seed the forger chose, and every
    server roll after it re-derived under that seed: consistent on its own."""
    header, records, receipts = _played(cli, ruleset)
    reveal = next(i for i, r in enumerate(records)
                  if r["type"] == "SeedRevealed" and r["payload"]["next_commitment"])  # fmt: skip
    records[reveal]["payload"]["next_commitment"] = hashlib.sha256(CHOSEN).hexdigest()
    for record in records[reveal + 1 :]:
        p = record["payload"]
        if record["type"] == "DiceRolled" and p["by"] == "server":
            spec = DiceSpec(DiceKind(p["kind"]), tuple(p["sides"]), tuple(p["labels"]))
            p["faces"] = list(derive_faces(CHOSEN, "", p["roll"], spec))
            p["total"] = (p["faces"][0] * 10 + p["faces"][1] or 100) if p["kind"] == "d100" \
                else sum(p["faces"])  # fmt: skip
        if record["type"] == "SeedRevealed":
            p["seed"] = CHOSEN.hex()
    header["seed"] = CHOSEN.hex()
    reseal(header, records, reveal)
    verified, audited = verdicts(cli, header, records, "rewrite-bare", None)
    assert verified.startswith("0 OK: ") and "not anchored" in verified, verified
    assert audited.startswith("0 OK: ") and "not anchored" in audited, audited
    verified, audited = verdicts(cli, header, records, "rewrite", receipts)
    seq = reveal + 1
    assert verified.startswith(f"1 FAILED at seq {seq}: "), verified
    assert "commitment on line" in verified or "receipt on line" in verified
    assert audited.startswith("1 ") and f"first divergence at seq {seq} (receipt)" in audited


def _command_of(records: Records, index: int) -> int:
    return max(i for i in range(index) if records[i]["type"] == "CommandRecorded")


@pytest.mark.parametrize("ruleset", every_ruleset())
@pytest.mark.parametrize("how", ["server roll as physical", "opponent_manual_dice"])
def test_break_2_a_relabelled_roll_fails_against_receipts(cli: Cli, ruleset: str, how: str) -> None:
    header, records, receipts = _played(cli, ruleset)
    if how == "server roll as physical":
        # The generic roll (the player's own): manual_dice flipped, by player, a new face.
        index = max(i for i, r in enumerate(records) if r["type"] == "DiceRolled")
        roll = records[index]["payload"]
        assert roll["by"] == "server" and roll["owner"] == "player"
        roll["by"] = "player"
        roll["faces"][0] = roll["faces"][0] % 6 + 1
        roll["total"] = sum(roll["faces"])
        first = _command_of(records, index)
        records[first]["payload"]["manual_dice"] = True
    else:
        # The game made to allow the opponent's dice by hand, and the opponent's first
        # roll (if the openings make one) relabelled physical, its face kept.
        first = 0
        records[0]["payload"]["opponent_manual_dice"] = True
        theirs = [i for i, r in enumerate(records) if r["type"] == "DiceRolled"
                  and r["payload"]["owner"] == "opponent"]  # fmt: skip
        if theirs:
            records[theirs[0]]["payload"]["by"] = "player"
            records[_command_of(records, theirs[0])]["payload"]["manual_dice"] = True
            # Every roll of that command is the player's now.
            command = _command_of(records, theirs[0])
            for record in records[command + 1 :]:
                if record["command_id"] != records[command]["command_id"]:
                    break
                if record["type"] == "DiceRolled":
                    record["payload"]["by"] = "player"
    reseal(header, records, first)
    verified, audited = verdicts(cli, header, records, "relabel-bare", None)
    assert verified.startswith("0 OK: ") and "not anchored" in verified, verified
    assert audited.startswith("0 OK: ") and "not anchored" in audited, audited
    verified, audited = verdicts(cli, header, records, "relabel", receipts)
    # The first receipt at or after the relabelled event names it.
    anchored = sorted(json.loads(line)["head_seq"] for line in receipts.read_text().splitlines()
                      if '"receipt"' in line)  # fmt: skip
    seq = min(s for s in anchored if s >= first + 1)
    assert verified.startswith(f"1 FAILED at seq {seq}: receipt on line"), verified
    assert "the log was rewritten at or before" in verified
    assert audited.startswith("1 ") and f"first divergence at seq {seq} (receipt)" in audited


@pytest.mark.parametrize("ruleset", every_ruleset())
@pytest.mark.parametrize("where", ["final reveal", "after the reveal"])
def test_break_3_a_cut_log_fails_against_receipts(cli: Cli, ruleset: str, where: str) -> None:
    header, records, receipts = _played(cli, ruleset)
    if where == "final reveal":
        keep = len(records) - 1  # ended without its final reveal
    else:  # cut right after the mid-game reveal
        reveals = [i for i, r in enumerate(records) if r["type"] == "SeedRevealed"]
        keep = reveals[0] + 1
    cut = copy.deepcopy(records[:keep])
    seeds = [r["payload"]["seed"] for r in cut if r["type"] == "SeedRevealed"]
    header.update(events=keep, last_hash=cut[-1]["hash"], complete=False, seed=seeds[-1])
    verified, audited = verdicts(cli, header, cut, "cut-bare", None)
    assert verified.startswith("0 PREFIX: ") and "not anchored" in verified, verified
    assert audited.startswith("0 PREFIX: ") and "not anchored" in audited, audited
    verified, audited = verdicts(cli, header, cut, "cut", receipts)
    assert verified.startswith(f"1 FAILED at seq {keep + 1}: receipt on line"), verified
    assert f"the export ends at seq {keep}" in verified
    assert audited.startswith("1 ") and f"first divergence at seq {keep + 1} (receipt)" in audited


@pytest.mark.parametrize("ruleset", every_ruleset())
@pytest.mark.parametrize("how", ["plain digest", "envelope version 1"])
def test_break_4_a_downgraded_envelope_fails_with_and_without_receipts(
    cli: Cli, ruleset: str, how: str
) -> None:
    header, records, receipts = _played(cli, ruleset)
    rolls = [i for i, r in enumerate(records) if r["type"] == "DiceRolled"]
    index = rolls[0]
    if how == "plain digest":
        records[index]["payload"]["hidden"] = True
        records[index]["committed"] = False
    else:
        records[index]["envelope_version"] = 1
        records[index]["committed"] = False
    reseal(header, records, index)
    seq = index + 1
    for given in (None, receipts):
        verified, audited = verdicts(cli, header, records, "downgrade", given)
        assert verified.startswith(f"1 FAILED at seq {seq}: "), verified
        assert audited.startswith("1 ") and f"first divergence at seq {seq} " in audited, audited


def test_import_refuses_an_export_the_machines_receipts_contradict(cli: Cli) -> None:
    header, records, receipts = _played(cli, "counter")
    real = write_lines(cli.tmp / "real.jsonl", copy.deepcopy(header), copy.deepcopy(records))
    index = max(i for i, r in enumerate(records) if r["type"] == "DiceRolled")
    records[index]["payload"]["by"] = "player"
    records[_command_of(records, index)]["payload"]["manual_dice"] = True
    reseal(header, records, _command_of(records, index))
    forged_path = write_lines(cli.tmp / "forged.jsonl", header, records)
    cli.use_prefix(cli.prefix + "-second")  # another store; this machine's receipts
    refused = cli("import", str(forged_path))
    assert refused.code == 2 and "(receipt)" in refused.err, refused
    assert "receipt on line" in refused.err
    # Given as a file, on a machine that kept none, the same receipts refuse it too.
    elsewhere = cli.tmp / "elsewhere"
    cli.monkeypatch.setenv("UMPIRE_DATA_DIR", str(elsewhere))
    again = cli("import", str(forged_path), "--receipts", str(receipts))
    assert again.code == 2 and "receipt on line" in again.err, again
    assert cli("import", str(real), "--receipts", str(receipts)).code == 0


def test_receipts_of_a_game_this_machine_never_played_is_a_clear_error(cli: Cli) -> None:
    result = cli("receipts", "g-never-played")
    assert result.code == 2 and "no receipts are kept for game 'g-never-played'" in result.err


def test_a_damaged_receipts_file_is_refused_by_both_verifiers(cli: Cli) -> None:
    header, records, receipts = _played(cli, "counter")
    lines = receipts.read_text().splitlines()
    lines[1] = json.dumps({"kind": "receipt", "reply": "accepted", "head_seq": 0})
    receipts.write_text("\n".join(lines) + "\n")
    verified, audited = verdicts(cli, header, records, "damaged", receipts)
    assert verified.startswith("2 FAILED at seq 0: the receipts file is not readable"), verified
    assert audited.startswith("2 ") and "line 2: head_seq is 0" in audited, audited


def test_a_receipts_folder_that_cannot_be_written_warns_and_the_command_stands(
    cli: Cli,
) -> None:
    blocked = cli.tmp / "blocked"
    blocked.write_text("a file where the data directory would be")
    cli.monkeypatch.setenv("UMPIRE_DATA_DIR", str(blocked))
    game = cli.new("counter", {"target": 40})  # must succeed
    sent = cli("send", game, json.dumps({"type": "Push"}))
    assert sent.code == 0 and "the receipt was not kept" in sent.err, sent


def test_a_view_the_log_does_not_make_fails_the_audit_against_its_receipt(cli: Cli) -> None:
    """The head hashes agree, but one receipt's state hash is not the hash of the view the
    log gives at its seq (a server that showed the player another state): `umpire audit`
    rebuilds each view and fails at that receipt's seq. verify_export.py, without the
    rules, cannot rebuild a view and passes."""
    header, records, receipts = _played(cli, "downtown")
    lines = receipts.read_text().splitlines()
    index = max(i for i, line in enumerate(lines) if '"accepted"' in line)
    anchor = json.loads(lines[index])
    anchor["state_hash"] = "0" * 64
    lines[index] = json.dumps(anchor)
    receipts.write_text("\n".join(lines) + "\n")
    verified, audited = verdicts(cli, header, records, "other-view", receipts)
    assert verified.startswith("0 OK: "), verified
    seq = anchor["head_seq"]
    assert audited.startswith("1 ") and f"first divergence at seq {seq} (receipt)" in audited
    assert f"receipt on line {index + 1}" in audited and "the log does not make" in audited
