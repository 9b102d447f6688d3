"""Proofs of equivocation (docs/audit.md 8.5) in each of their three formats, checked by
events/receipt_signature.py and by the independent verifier (verifier/verify_export.py).

Version 1 holds receipts signed one by one, version 2 receipts of unblinded trees too
(`batch/1`, before blinds), version 3 blinded ones too (each with its `blind`): a proof
is written in the oldest format that holds both receipts, every version is still read,
and a blinded receipt in a version 1 or 2 proof, or one whose blind was changed or
dropped, proves nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from umpire.events.receipt_signature import (
    BLIND_BYTES,
    Equivocation,
    ProofInvalid,
    ReceiptSigner,
    SignedReceipt,
    Statement,
    check_proof,
    sign_batch,
)
from umpire.testing.support.verifier import verifier_module

SIGNER = ReceiptSigner(hashlib.sha256(b"proof test key").digest())


def _statement(head_hash: str) -> Statement:
    return Statement(
        game_id="g1", key_id=SIGNER.key_id, reply="accepted", role="player", first_seq=3,
        head_seq=4, head_hash=head_hash, state_hash="",
    )  # fmt: skip


def _other(n: int) -> Statement:
    return Statement(
        game_id="g2", key_id=SIGNER.key_id, reply="state", role="spectator", first_seq=n,
        head_seq=n, head_hash="cd" * 32, state_hash="ef" * 32,
    )  # fmt: skip


def _receipt(head_hash: str, form: str) -> SignedReceipt:
    """A receipt of seq 4 with `head_hash`, signed one by one, in an unblinded tree of
    three (batch/1) or in a blinded one (batch/2), as the middle leaf."""
    statement = _statement(head_hash)
    if form == "one by one":
        return SignedReceipt(statement=statement, signature=SIGNER.sign(statement))
    blinds = os.urandom(3 * BLIND_BYTES) if form == "blinded" else None
    _, s, _ = sign_batch(SIGNER, [_other(1), statement, _other(2)], blinds=blinds)
    return SignedReceipt(
        statement=statement, signature=s.signature, leaf_index=s.leaf_index,
        tree_size=s.tree_size, proof=s.proof, blind=s.blind,
    )  # fmt: skip


def _proof(first: str, second: str) -> str:
    return Equivocation(
        game_id="g1", public_key=SIGNER.public_key,
        first=_receipt("aa" * 32, first), second=_receipt("bb" * 32, second),
    ).text()  # fmt: skip


def _both_check(text: str, tmp_path: Path) -> tuple[str, str]:
    """What each implementation makes of a proof: its summary, or "NOT A PROOF"."""
    try:
        ours = check_proof(text).summary()
    except ProofInvalid:
        ours = "NOT A PROOF"
    path = tmp_path / "proof.json"
    path.write_text(text)
    verifier = verifier_module()
    try:
        theirs = verifier.check_proof(str(path))
    except verifier.Failure:
        theirs = "NOT A PROOF"
    return ours, theirs


@pytest.mark.parametrize(
    ("first", "second", "version"),
    [
        ("one by one", "one by one", 1),
        ("unblinded", "one by one", 2),
        ("unblinded", "unblinded", 2),
        ("blinded", "one by one", 3),
        ("blinded", "unblinded", 3),
        ("blinded", "blinded", 3),
    ],
)
def test_a_proof_is_written_in_the_oldest_format_that_holds_it_and_both_check_it(
    first: str, second: str, version: int, tmp_path: Path
) -> None:
    text = _proof(first, second)
    record = json.loads(text)
    assert record["format"] == f"umpire-equivocation/{version}"
    assert [bool(r.get("blind")) for r in record["receipts"]] == [
        first == "blinded", second == "blinded"
    ]  # fmt: skip
    ours, theirs = _both_check(text, tmp_path)
    assert ours == theirs and ours.startswith("equivocation proven: "), (ours, theirs)


def test_a_blinded_receipt_proves_nothing_in_an_older_format_or_with_its_blind_changed(
    tmp_path: Path,
) -> None:
    record = json.loads(_proof("unblinded", "blinded"))
    first, second = record["receipts"]
    blind = second["blind"]
    flipped = blind[:-1] + ("0" if blind[-1] != "0" else "1")
    doctored = {
        "as version 2": record | {"format": "umpire-equivocation/2"},
        "as version 1": record | {"format": "umpire-equivocation/1"},
        "a blind changed": record | {"receipts": [first, second | {"blind": flipped}]},
        "a blind dropped": record | {"receipts": [
            first, {k: v for k, v in second.items() if k != "blind"}]},
        "a blind on an unblinded receipt": record | {"receipts": [
            first | {"blind": blind}, second]},
        "a blind not hex": record | {"receipts": [first, second | {"blind": "zz" * 16}]},
        "a blind too short": record | {"receipts": [first, second | {"blind": blind[:-2]}]},
        "an unknown format": record | {"format": "umpire-equivocation/4"},
    }  # fmt: skip
    for name, proof in doctored.items():
        assert _both_check(json.dumps(proof), tmp_path) == ("NOT A PROOF",) * 2, name
    assert _both_check(json.dumps(record), tmp_path)[0].startswith("equivocation proven")
