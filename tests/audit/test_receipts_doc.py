"""The worked example of docs/audit.md 8.1 (the receipts file) is what the code and the
independent verifier compute: the file reads in both, its state hash recomputes, it
agrees with section 2's one-event log, and the later receipt fails as the document says."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from umpire.events.envelope import GENESIS_HASH, seal
from umpire.events.receipt import check_anchors, read_receipts, receipt_state_hash

REPO = Path(__file__).resolve().parents[2]
DOC = (REPO / "docs" / "audit.md").read_text()
FLAT = " ".join(DOC.split())


def _verifier() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "verify_export", REPO / "verifier" / "verify_export.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["verify_export"] = module
    spec.loader.exec_module(module)
    return module


def _example() -> str:
    """The receipts file of the worked example: the code block after its heading."""
    start = DOC.index("Worked example (checked by `tests/audit/test_receipts_doc.py`)")
    block = re.search(r"```\n(.*?)```", DOC[start:], re.S)
    assert block is not None
    return block.group(1)


def _later_receipt() -> dict[str, Any]:
    return {"kind": "receipt", "reply": "accepted", "command_id": "c-2", "role": "player",
            "head_seq": 2, "head_hash": "ab" * 32, "state_hash": ""}  # fmt: skip


def test_the_receipts_example_reads_recomputes_and_agrees(tmp_path: Path) -> None:
    text = _example()
    game, anchors = read_receipts(text)
    (receipt,) = anchors
    assert game == "g1" and receipt.line == 2 and receipt.reply == "created"
    env = seal(game_id="g1", seq=1, type="T", version=1, payload=b"\x80", command_id="c",
               recorded_at="2026-01-01T00:00:00.000Z", prev_hash=GENESIS_HASH)  # fmt: skip
    assert receipt.head_hash == env.hash
    assert receipt.state_hash == receipt_state_hash(1, env.hash, {})
    failure, reach = check_anchors(anchors, [env])
    assert failure is None and reach in FLAT, reach
    # The independent verifier reads the same file and agrees.
    verifier = _verifier()
    path = tmp_path / "example.receipts.jsonl"
    path.write_text(text)
    vgame, vanchors = verifier.read_receipts(str(path))
    event = verifier.Event({"seq": 1, "type": "T", "hash": env.hash}, b"\x80", {})
    vfailure, vreach = verifier.check_anchors(vanchors, [event])
    assert vgame == "g1" and vfailure is None and vreach == reach


def test_the_later_receipt_fails_as_the_document_says(tmp_path: Path) -> None:
    text = _example() + json.dumps(_later_receipt()) + "\n"
    _, anchors = read_receipts(text)
    env = seal(game_id="g1", seq=1, type="T", version=1, payload=b"\x80", command_id="c",
               recorded_at="2026-01-01T00:00:00.000Z", prev_hash=GENESIS_HASH)  # fmt: skip
    failure, _ = check_anchors(anchors, [env])
    assert failure is not None and failure.seq == 2
    said = failure.message.replace("ab" * 32, "...")
    assert said in FLAT, said
    verifier = _verifier()
    path = tmp_path / "later.receipts.jsonl"
    path.write_text(text)
    _, vanchors = verifier.read_receipts(str(path))
    event = verifier.Event({"seq": 1, "type": "T", "hash": env.hash}, b"\x80", {})
    vfailure, _ = verifier.check_anchors(vanchors, [event])
    assert vfailure.seq == 2 and vfailure.reason == failure.message
