"""The worked example of docs/audit.md 8.1 (the receipts file) is what the code and the
independent verifier compute: the file reads in both, its state hash recomputes, it
agrees with section 2's one-event log, and the later receipt fails as the document says."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import msgspec

from umpire.events.envelope import GENESIS_HASH, Envelope, seal
from umpire.events.receipt import check_anchors, read_receipts, receipt_state_hash
from umpire.events.receipt_signature import (
    ReceiptSigner,
    Statement,
    leaf_hash,
    node_hash,
    root_statement,
    sign_batch,
    signature_valid,
)
from umpire.testing.support.verifier import verifier_module

REPO = Path(__file__).resolve().parents[2]
DOC = (REPO / "docs" / "audit.md").read_text()
FLAT = " ".join(DOC.split())


def _example() -> str:
    """The receipts file of the worked example: the code block after its heading."""
    start = DOC.index("Worked example (checked by `tests/audit/test_receipts_doc.py`)")
    block = re.search(r"```\n(.*?)```", DOC[start:], re.S)
    assert block is not None
    return block.group(1)


EXAMPLE_SEED = hashlib.sha256(b"umpire example receipt key").digest()


def _later_receipt() -> dict[str, Any]:
    """Line 3 of the document's "had the player also kept" example, signed by the key."""
    record: dict[str, Any] = {
        "kind": "receipt", "reply": "accepted", "command_id": "c-2", "role": "player",
        "head_seq": 2, "head_hash": "ab" * 32, "state_hash": "", "first_seq": 2,
    }  # fmt: skip
    signer = ReceiptSigner(EXAMPLE_SEED)
    _, (anchor,) = read_receipts(_example().splitlines()[0] + "\n" + json.dumps(record))
    anchor = msgspec.structs.replace(anchor, key_id=signer.key_id)
    return record | {"key_id": signer.key_id, "signature": signer.sign(anchor.statement("g1"))}


def _env() -> Envelope:
    """Section 2's one-event log."""
    return seal(game_id="g1", seq=1, type="T", version=1, payload=b"\x80", command_id="c",
                recorded_at="2026-01-01T00:00:00.000Z", prev_hash=GENESIS_HASH)  # fmt: skip


def _keyed(env: Envelope) -> Envelope:
    """A one-event log of a game whose GameCreated names the example key, its event 1 of
    the same hash (the anchors are compared after the chain is checked, so only the hash
    and the payload's key are read here)."""
    created = {"seed_commitment": "", "receipt_key": ReceiptSigner(EXAMPLE_SEED).public_key}
    payload = msgspec.msgpack.encode(created)
    return msgspec.structs.replace(env, type="GameCreated", payload=payload)


def _other_statement(signer: ReceiptSigner) -> Statement:
    """The worked example's second leaf: a command of game g2 answered in the same turn."""
    return Statement(
        game_id="g2", key_id=signer.key_id, reply="accepted", role="player", first_seq=4,
        head_seq=5, head_hash="cd" * 32, state_hash="",
    )  # fmt: skip


def test_the_example_signature_is_the_documents(tmp_path: Path) -> None:
    """Section 8.4's worked example: the key, its id, the two statements, their leaf
    hashes, the root, the signed root statement and its signature, each byte as the
    document gives it; both implementations find the receipt valid (and a changed field,
    index, size or proof not); the one-by-one signature of the same statement too."""
    signer = ReceiptSigner(EXAMPLE_SEED)
    for value in (EXAMPLE_SEED.hex(), signer.public_key, signer.key_id):
        assert value in FLAT, value
    _, (receipt,) = read_receipts(_example())
    statement, other = receipt.statement("g1"), _other_statement(signer)
    leaves = [leaf_hash(s.signed_bytes()) for s in (statement, other)]
    root = node_hash(*leaves)
    for shown in (statement.signed_bytes(), other.signed_bytes(),
                  root_statement(signer.key_id, root, 2, False)):  # fmt: skip
        assert shown.decode() in DOC, shown
    for value in (*leaves, root):
        assert value.hex() in FLAT, value.hex()
    first, second = sign_batch(signer, [statement, other], blinds=None)
    assert (first.leaf_index, first.tree_size, first.proof) == (0, 2, [leaves[1].hex()])
    assert (second.leaf_index, second.proof) == (1, [leaves[0].hex()])
    assert f'["{leaves[1].hex()[:8]}...{leaves[1].hex()[-4:]}"]' in FLAT
    assert f'["{leaves[0].hex()[:8]}...{leaves[0].hex()[-4:]}"]' in FLAT
    assert receipt.key_id == signer.key_id and first.signature == receipt.signature
    assert (receipt.leaf_index, receipt.tree_size, list(receipt.proof)) == (0, 2, first.proof)
    assert receipt.signature in FLAT
    assert receipt.signed("g1").valid(signer.public_key)
    line = json.loads(_example().splitlines()[1])
    verifier = verifier_module()
    assert verifier.signature_valid("g1", signer.public_key, line)
    for changed in ({"head_seq": 2}, {"leaf_index": 1}, {"tree_size": 3},
                    {"proof": [leaves[0].hex()]}, {"proof": []}):  # fmt: skip
        assert not verifier.signature_valid("g1", signer.public_key, line | changed), changed
        assert (
            not read_receipts(_example().splitlines()[0] + "\n" + json.dumps(line | changed))[1][0]
            .signed("g1")
            .valid(signer.public_key)
        ), changed
    assert not verifier.signature_valid("g2", signer.public_key, line)
    # Signed one by one, as before batches: the document's older signature still verifies.
    alone = signer.sign(statement)
    assert alone in FLAT
    old = {k: v for k, v in line.items() if k not in ("leaf_index", "tree_size", "proof")}
    assert signature_valid(signer.public_key, statement, alone)
    assert verifier.signature_valid("g1", signer.public_key, old | {"signature": alone})
    assert not verifier.signature_valid("g1", signer.public_key, old)  # the batch's, alone


def test_the_blinded_example_is_the_documents() -> None:
    """Section 8.4's blinded example: the same two statements with the document's blinds
    give its leaf hashes, root, `batch/2` root statement and signature; the `g1` line with
    that signature, proof and blind verifies in both implementations, and without its
    blind, with another, or as a `batch/1` leaf it does not."""
    signer = ReceiptSigner(EXAMPLE_SEED)
    _, (receipt,) = read_receipts(_example())
    statement, other = receipt.statement("g1"), _other_statement(signer)
    blinds = hashlib.sha256(b"umpire example blinds").digest()
    leaves = [leaf_hash(statement.signed_bytes(), blinds[:16]),
              leaf_hash(other.signed_bytes(), blinds[16:])]  # fmt: skip
    root = node_hash(*leaves)
    assert root_statement(signer.key_id, root, 2, True).decode() in DOC
    first, second = sign_batch(signer, [statement, other], blinds=blinds)
    for value in (first.blind, second.blind, *(h.hex() for h in leaves), root.hex(),
                  first.signature):  # fmt: skip
        assert value in FLAT, value
    assert f'"proof": ["{leaves[1].hex()[:8]}...{leaves[1].hex()[-4:]}"]' in FLAT
    line = json.loads(_example().splitlines()[1]) | {
        "signature": first.signature, "proof": first.proof, "blind": first.blind,
    }  # fmt: skip
    header = _example().splitlines()[0]
    verifier = verifier_module()
    for changed, valid in (
        ({}, True),
        ({"blind": second.blind}, False),
        ({"blind": ""}, False),
        ({"blind": first.blind.upper()}, False),
    ):
        record = line | changed
        assert verifier.signature_valid("g1", signer.public_key, record) is valid, changed
        ours = read_receipts(header + "\n" + json.dumps(record))[1][0]
        assert ours.signed("g1").valid(signer.public_key) is valid, changed


def test_the_receipts_example_reads_recomputes_and_agrees(tmp_path: Path) -> None:
    text = _example()
    game, anchors = read_receipts(text)
    (receipt,) = anchors
    assert game == "g1" and receipt.line == 2 and receipt.reply == "created"
    env = _env()
    assert receipt.head_hash == env.hash
    assert receipt.state_hash == receipt_state_hash(1, env.hash, {})
    verifier = verifier_module()
    path = tmp_path / "example.receipts.jsonl"
    path.write_text(text)
    vgame, vanchors = verifier.read_receipts(str(path))
    # Against a log whose GameCreated names the key: it agrees. Against section 2's log,
    # which names none: it counts for nothing, as the document says.
    for log, key in ((_keyed(env), ReceiptSigner(EXAMPLE_SEED).public_key), (env, "")):
        failure, reach = check_anchors(anchors, [log])
        assert failure is None and reach in FLAT, reach
        event = verifier.Event({"seq": 1, "type": log.type, "hash": env.hash, "game_id": "g1"},
                               b"", {"receipt_key": key})  # fmt: skip
        vfailure, vreach = verifier.check_anchors(vanchors, [event])
        assert vgame == "g1" and vfailure is None and vreach == reach


def test_the_later_receipt_fails_as_the_document_says(tmp_path: Path) -> None:
    text = _example() + json.dumps(_later_receipt()) + "\n"
    _, anchors = read_receipts(text)
    env = _keyed(_env())
    failure, _ = check_anchors(anchors, [env])
    assert failure is not None and failure.seq == 2
    said = failure.message.replace("ab" * 32, "...")
    assert said in FLAT, said
    verifier = verifier_module()
    path = tmp_path / "later.receipts.jsonl"
    path.write_text(text)
    _, vanchors = verifier.read_receipts(str(path))
    key = ReceiptSigner(EXAMPLE_SEED).public_key
    event = verifier.Event({"seq": 1, "type": "GameCreated", "hash": env.hash, "game_id": "g1"},
                           b"", {"receipt_key": key})  # fmt: skip
    vfailure, _ = verifier.check_anchors(vanchors, [event])
    assert vfailure.seq == 2 and vfailure.reason == failure.message
