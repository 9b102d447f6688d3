"""Issue #42 items 1 and 6: signed receipts, proofs of equivocation, an honest headline.

Every receipt the server gives is signed by the game's key (GameCreated.receipt_key), and
only those count: a line a player writes without the key is reported as not signed and
never counts against an honest export; two lines the key signed that give one seq two
head hashes prove equivocation, in a small file (`umpire proof`) that each verifier
checks on its own. Without signed receipts an audit that passes leads with "consistent,
not anchored", never "verified". (The /verify page: tests/viewer/test_verify_page.py.)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.support.receipts import (
    conflicting,
    fabricated,
    forged_batches,
    marked,
    older_proofs,
    one_by_one,
    receipts_of,
    revealed_midway,
    unblinded,
)
from umpire.events.receipt import read_receipts
from umpire.testing.support.forgery import Cli, read_lines, write_lines
from umpire.testing.support.verifier import CONSISTENT, VERIFIED, headline_of, verify_with


def _played(cli: Cli) -> tuple[str, Path, Path]:
    """An honest game of counter with a mid-game reveal: (game id, its export, the
    receipts this machine kept)."""
    game = revealed_midway(cli, "counter")
    header, records = read_lines(cli.export(game))
    export = write_lines(cli.tmp / "honest.jsonl", header, records)
    return game, export, receipts_of(cli, game)


def _audit(cli: Cli, export: Path, *receipts: Path) -> tuple[int, str]:
    # None given: the log alone, not the receipts this machine kept.
    given = [arg for path in receipts for arg in ("--receipts", str(path))] or ["--no-receipts"]
    result = cli("audit", "--file", str(export), *given)
    return result.code, f"{result.out}\n{result.err}"


def _verify(export: Path, *receipts: Path) -> tuple[int, str]:
    given = [arg for path in receipts for arg in ("--receipts", str(path))]
    return verify_with(export, *given)


def test_a_fabricated_receipt_line_is_unsigned_and_the_honest_export_passes(cli: Cli) -> None:
    _, export, receipts = _played(cli)
    forged = fabricated(receipts)
    lines = len(forged.read_text().splitlines())
    for code, out in (_verify(export, forged), _audit(cli, export, forged)):
        # Before signatures: "FAILED ... the log was rewritten at or before seq N".
        assert code == 0, out
        assert headline_of(out).startswith(VERIFIED), out  # the real receipts still anchor it
        flat = " ".join(out.split())
        assert (
            f"2 receipts are not signed by the game's key (lines {lines - 1}, {lines})" in flat
        ), flat
        assert "they count neither for nor against the export" in flat


def test_two_conflicting_signed_receipts_prove_equivocation_to_every_verifier(
    cli: Cli,
) -> None:
    game, export, receipts = _played(cli)
    both = conflicting(cli, game, receipts)
    for code, out in (_verify(export, both), _audit(cli, export, both)):
        assert code == 1 and "equivocation proven" in out, out
        assert f"of game {game}" in out
    proof = cli.tmp / "proof.json"
    written = cli("proof", "--receipts", str(both), "-o", str(proof))
    assert written.code == 0 and "equivocation proven" in written.out, written
    text = json.loads(proof.read_text())
    # Both receipts are of blinded batches (the server's and the forger's tree of three):
    # version 3 carries each one's place in its tree, its blind and its root signature.
    assert text["format"] == "umpire-equivocation/3" and len(text["receipts"]) == 2
    assert [r["tree_size"] for r in text["receipts"]] == [1, 3], text
    assert all({"leaf_index", "proof", "signature", "blind"} <= set(r) for r in text["receipts"])
    assert set(text) == {"format", "game_id", "key_id", "public_key", "receipts"}
    # Each checks the proof on its own: no export, no store, no receipts file.
    checked = cli("proof", "--check", str(proof))
    assert checked.code == 0 and "equivocation proven" in checked.out, checked
    code, out = verify_with(proof.parent / "absent.jsonl", "--proof", str(proof))
    assert code == 0 and out.startswith("equivocation proven: "), out
    # `-o` at a planted symlink (server/output_files.py) is refused and writes nothing;
    # fails on the previous commit, which wrote the proof through it.
    victim, planted = cli.tmp / "profile", cli.tmp / "planted-proof.json"
    victim.write_text("the user's own file\n")
    planted.symlink_to(victim)
    refused = cli("proof", "--receipts", str(both), "-o", str(planted))
    said = f"{planted} is not written: it is a symbolic link".replace(" ", "")
    # rich wraps stderr at the terminal width, within the long path too: compare unspaced.
    assert refused.code == 2 and said in refused.err.replace(" ", ""), refused
    assert victim.read_text() == "the user's own file\n"


def _doctored(proof: dict[str, Any]) -> dict[str, dict[str, Any]]:
    second = proof["receipts"][1]
    other_key = "11" * 32
    return {
        "a head hash changed": proof | {"receipts": [proof["receipts"][0],
                                                      second | {"head_hash": "00" * 32}]},
        "the game changed": proof | {"game_id": proof["game_id"] + "x"},
        "another key": proof | {"public_key": other_key},
        "one receipt twice": proof | {"receipts": [proof["receipts"][0]] * 2},
        "a signature dropped": proof | {"receipts": [proof["receipts"][0],
                                                      second | {"signature": ""}]},
        "a proof element changed": proof | {"receipts": [proof["receipts"][0], second | {
            "proof": ["00" * 32, *second["proof"][1:]]}]},
        "another leaf index": proof | {"receipts": [proof["receipts"][0],
                                                     second | {"leaf_index": 0}]},
        "another tree size": proof | {"receipts": [proof["receipts"][0],
                                                    second | {"tree_size": 4}]},
        "batch receipts as version 1": proof | {"format": "umpire-equivocation/1"},
        "blinded receipts as version 2": proof | {"format": "umpire-equivocation/2"},
        "a blind changed": proof | {"receipts": [proof["receipts"][0], second | {
            "blind": second["blind"][::-1]}]},
        "a blind dropped": proof | {"receipts": [proof["receipts"][0], {
            k: v for k, v in second.items() if k != "blind"}]},
    }  # fmt: skip


def test_proofs_of_the_older_formats_still_prove(cli: Cli) -> None:
    """docs/audit.md 8.5: a version 2 proof (receipts of unblinded trees) and a version 1
    proof (receipts signed one by one) are checked as before by `umpire proof --check`
    and verify_export.py."""
    for name, older in older_proofs(cli, _a_proof(cli)).items():
        path = cli.tmp / "older.json"
        path.write_text(json.dumps(older))
        checked = cli("proof", "--check", str(path))
        assert checked.code == 0 and "equivocation proven" in checked.out, (name, checked)
        code, out = verify_with(path.parent / "absent.jsonl", "--proof", str(path))
        assert code == 0 and out.startswith("equivocation proven: "), (name, out)


def _a_proof(cli: Cli) -> Any:
    """A proof of equivocation written by `umpire proof` from a played game's receipts
    and a conflicting one, as JSON."""
    game, _, receipts = _played(cli)
    proof = cli.tmp / "proof.json"
    assert cli("proof", "--receipts", str(conflicting(cli, game, receipts)),
               "-o", str(proof)).code == 0  # fmt: skip
    return json.loads(proof.read_text())


def test_a_doctored_proof_fails_every_verifier(cli: Cli) -> None:
    for name, doctored in _doctored(_a_proof(cli)).items():
        path = cli.tmp / "doctored.json"
        path.write_text(json.dumps(doctored))
        checked = cli("proof", "--check", str(path))
        assert checked.code == 1 and "NOT A PROOF" in checked.out, (name, checked)
        code, out = verify_with(path.parent / "absent.jsonl", "--proof", str(path))
        assert code == 1 and out.startswith("NOT A PROOF: "), (name, out)


def test_no_proof_without_a_conflict(cli: Cli) -> None:
    _, _, receipts = _played(cli)
    found = cli("proof", "--receipts", str(fabricated(receipts)))
    assert found.code == 1 and "no proof" in found.out, found


def test_the_headline_is_verified_only_with_signed_receipts(cli: Cli) -> None:
    _, export, receipts = _played(cli)
    for code, out in (_verify(export), _audit(cli, export)):
        assert code == 0 and headline_of(out).startswith(CONSISTENT), out
        assert "verified" not in headline_of(out)
    for code, out in (_verify(export, receipts), _audit(cli, export, receipts)):
        assert code == 0 and headline_of(out).startswith(VERIFIED), out
    # A version 1 file (unsigned receipts) is read, and anchors nothing.
    lines = receipts.read_text().splitlines()
    header = json.loads(lines[0])
    old = [json.dumps({"format": "umpire-receipts/1", "game_id": header["game_id"]})] + [
        json.dumps({k: v for k, v in json.loads(line).items()
                    if k not in ("key_id", "signature", "first_seq")})
        for line in lines[1:]
    ]  # fmt: skip
    v1 = receipts.with_name("v1.receipts.jsonl")
    v1.write_text("\n".join(old) + "\n")
    for code, out in (_verify(export, v1), _audit(cli, export, v1)):
        assert code == 0 and headline_of(out).startswith(CONSISTENT), out
        assert "no receipt is signed by the game's key" in " ".join(out.split()), out


def test_umpire_keys_lists_and_rotates_and_an_old_game_keeps_its_key(cli: Cli) -> None:
    game = cli.new("counter", {"target": 40})
    old = read_lines(cli.export(game, "--operator"))[0]["receipt_key_id"]
    listed = cli("keys")
    assert listed.code == 0 and f"{old}  Ed25519" in listed.out and "(current)" in listed.out
    # The columns are named (a newcomer read two bare hex strings).
    assert listed.out.startswith("receipt signing keys: id, algorithm, public key;"), listed.out
    rotated = cli("keys", "--rotate")
    assert rotated.code == 0 and "games created before keep theirs" in rotated.out, rotated
    listed = cli("keys").out.splitlines()
    (current,) = [line.split()[0] for line in listed if line.endswith("(current)")]
    assert current != old and any(line.startswith(old) for line in listed)
    cli.send(game, {"type": "Push"})
    last = [json.loads(line) for line in receipts_of(cli, game).read_text().splitlines()][-1]
    assert last["key_id"] == old  # the game's key, fixed at its creation
    newer = cli.new("counter", {"target": 40})
    assert read_lines(cli.export(newer, "--operator"))[0]["receipt_key_id"] == current


def test_a_forged_batch_proof_is_not_signed_by_the_games_key_in_either_verifier(
    cli: Cli,
) -> None:
    """A batch receipt the game's key signed with another head hash proves equivocation;
    the same line with a proof element, its index or size changed, no proof, or its root
    signed by another key is not signed by the game's key: reported, and the honest export
    verifies. (The page: tests/viewer/test_verify_page.py.)"""
    game, export, receipts = _played(cli)
    lines = len(receipts.read_text().splitlines())
    for name, forged in forged_batches(cli, game, receipts).items():
        for code, out in (_verify(export, forged), _audit(cli, export, forged)):
            flat = " ".join(out.split())
            if name == "signed":
                assert code == 1 and "equivocation proven" in flat, (name, flat)
                continue
            assert code == 0 and headline_of(out).startswith(VERIFIED), (name, out)
            assert f"1 receipt is not signed by the game's key (lines {lines + 1})" in flat, (
                name, flat,
            )  # fmt: skip


def test_an_old_format_receipts_file_still_anchors_the_export(cli: Cli) -> None:
    """A version 2 receipts file, each receipt signed on its own as before batches, still
    verifies in every verifier: every receipt counts, none is reported unsigned."""
    _, export, receipts = _played(cli)
    old = one_by_one(cli, receipts)
    assert '"umpire-receipts/2"' in old.read_text().splitlines()[0]
    assert '"tree_size"' not in old.read_text() and '"tree_size"' in receipts.read_text()
    for code, out in (_verify(export, old), _audit(cli, export, old)):
        flat = " ".join(out.split())
        assert code == 0 and headline_of(out).startswith(VERIFIED), out
        assert "anchored: 7 signed receipts" in flat and "not signed" not in flat, flat


def test_receipts_signed_in_unblinded_trees_still_anchor_the_export(cli: Cli) -> None:
    """docs/audit.md 8.4: receipts of the trees signed before blinds (`batch/1`, no
    `blind`) still verify in every verifier: every receipt counts, none is unsigned."""
    game, export, receipts = _played(cli)
    old = unblinded(cli, game, receipts)
    assert '"blind"' not in old.read_text() and '"blind"' in receipts.read_text()
    for code, out in (_verify(export, old), _audit(cli, export, old)):
        flat = " ".join(out.split())
        assert code == 0 and headline_of(out).startswith(VERIFIED), out
        assert "anchored: 7 signed receipts" in flat and "not signed" not in flat, flat


def test_receipts_a_client_marked_as_failed_are_read_by_every_verifier(cli: Cli) -> None:
    """docs/audit.md 8.1: a receipt the client found unsigned when it arrived is kept with
    `client_check`; a file with such lines reads as before, the reader keeps the mark, and
    each verifier judges every signature itself (a marked honest receipt still counts, the
    doctored one counts for nothing). (The page: tests/viewer/test_verify_page.py.)"""
    _, export, receipts = _played(cli)
    kept = marked(receipts)
    lines = len(kept.read_text().splitlines())
    _, anchors = read_receipts(kept.read_text())
    assert [bool(a.client_check) for a in anchors[-2:]] == [True, True]
    assert not any(a.client_check for a in anchors[:-2])
    for code, out in (_verify(export, kept), _audit(cli, export, kept)):
        flat = " ".join(out.split())
        assert code == 0 and headline_of(out).startswith(VERIFIED), out
        assert f"1 receipt is not signed by the game's key (lines {lines})" in flat, flat
