"""Issue #30 item 1 and the rest of item 2: the player's receipts anchor the log.

The forgery kinds of breaks 1 to 4, over a game of every ruleset with a mid-game reveal:
each passes (or, for 3 and 4, is only a prefix or already fails) without receipts, and
fails at its seq against the receipts this machine kept (`umpire receipts GAME`), in
`verifier/verify_export.py` and in `umpire audit --file` alike.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests.support.receipt_breaks import BREAKS, check_audit, check_verifier, command_of
from tests.support.receipts import (
    receipts_of,
    revealed_midway,
    server_signer,
    signed_line,
    verdicts,
)
from umpire.testing.support.forgery import Cli, read_lines, reseal, write_lines
from umpire.testing.support.short_games import every_ruleset

Records = list[dict[str, Any]]


def _played(cli: Cli, ruleset: str) -> tuple[dict[str, Any], Records, Any]:
    game = revealed_midway(cli, ruleset)
    header, records = read_lines(cli.export(game))
    assert header["complete"] is True
    return header, records, receipts_of(cli, game)


@pytest.mark.parametrize("ruleset", every_ruleset())
def test_a_real_export_agrees_with_its_receipts(cli: Cli, ruleset: str) -> None:
    header, records, receipts = _played(cli, ruleset)
    lines = receipts.read_text().splitlines()
    assert json.loads(lines[0]) == {
        "format": "umpire-receipts/3", "game_id": header["game_id"],
        "public_key": header["receipt_key"],
    }  # fmt: skip
    kinds = [json.loads(line)["kind"] for line in lines[1:]]
    assert kinds.count("commitment") == 2  # epoch 0 at creation, epoch 1 at the reveal
    verified, audited = verdicts(cli, header, records, "real", receipts)
    assert verified.startswith("0 OK: ") and f"up to seq {len(records)}" in verified, verified
    assert audited.startswith("0 OK: ") and "anchored: " in audited, audited
    verified, audited = verdicts(cli, header, records, "real-bare", None)
    assert "not anchored: no receipts given" in verified
    assert "not anchored: no receipts given" in audited


def _split(verdict: str) -> tuple[int, str]:
    code, _, text = verdict.partition(" ")
    return int(code), text


@pytest.mark.parametrize("ruleset", every_ruleset())
@pytest.mark.parametrize("name", list(BREAKS))
def test_each_break_fails_against_receipts_and_is_named_without(
    cli: Cli, ruleset: str, name: str
) -> None:
    """Breaks 1 to 4 (tests/support/receipt_breaks.py): without receipts, a rewrite from
    the mid-game reveal and a relabelled roll pass as "OK", a cut log is a "PREFIX", each
    saying "not anchored"; a downgraded envelope fails on its own. Given the receipts,
    every one fails at its seq in verify_export.py and `umpire audit --file` alike."""
    header, records, receipts = _played(cli, ruleset)
    expected = BREAKS[name](header, records, receipts)
    bare = [_split(v) for v in verdicts(cli, header, records, "bare", None)]
    given = [_split(v) for v in verdicts(cli, header, records, "given", receipts)]
    check_verifier(expected, bare[0], given[0])
    check_audit(expected, bare[1], given[1])


def test_import_refuses_an_export_the_machines_receipts_contradict(cli: Cli) -> None:
    header, records, receipts = _played(cli, "counter")
    real = write_lines(cli.tmp / "real.jsonl", copy.deepcopy(header), copy.deepcopy(records))
    index = max(i for i, r in enumerate(records) if r["type"] == "DiceRolled")
    records[index]["payload"]["by"] = "player"
    records[command_of(records, index)]["payload"]["manual_dice"] = True
    reseal(header, records, command_of(records, index))
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
    assert "no nonce key could be kept" in sent.err, sent  # and the command still went


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
    # Signed by the game's key (a server that showed another state and signed it): a
    # receipt doctored without the key would simply not count (test_signed_receipts.py).
    anchor = signed_line(anchor, header["game_id"], server_signer(cli))
    lines[index] = json.dumps(anchor)
    receipts.write_text("\n".join(lines) + "\n")
    verified, audited = verdicts(cli, header, records, "other-view", receipts)
    assert verified.startswith("0 OK: "), verified
    seq = anchor["head_seq"]
    assert audited.startswith("1 ") and f"first divergence at seq {seq} (receipt)" in audited
    assert f"receipt on line {index + 1}" in audited and "the log does not make" in audited
