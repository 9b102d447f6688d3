"""Issue #30 item 1: the Python client keeps the receipts of the games it plays
(clients/receipts.py, docs/audit.md 8.1), including the `created` reply's receipt and each
mid-game reveal's next commitment, in a file the verifiers take."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.rulesets.downtown.setups import SETUP
from umpire.clients import UmpireClient
from umpire.clients.receipts import MemoryReceipts, ReceiptFiles
from umpire.engine import registry
from umpire.events.errors import InvalidGameId
from umpire.events.receipt import check_anchors, read_receipts, signed_by
from umpire.events.wire import EventFrame
from umpire.server.app import Running
from umpire.server.receipts_file import check_state_hashes


async def test_the_client_keeps_every_receipt_and_the_next_commitment(
    gateway: Running, ws_url: str, tmp_path: Path
) -> None:
    files = ReceiptFiles(tmp_path / "receipts")
    async with UmpireClient(ws_url, receipts=files) as client:
        created = await client.create("downtown", SETUP)
        gid = created.game_id
        store = gateway.gateway.store
        first = (await store.read(gid, 1, 1))[0]
        # The created reply carries the receipt of the game's GameCreated.
        assert (created.head_seq, created.head_hash) == (1, first.hash)
        await client.send(gid, {"type": "DeployGroundUnits"})
        seen: list[EventFrame] = []

        async def follow() -> None:
            async for frame in client.subscribe(gid, 0):
                assert isinstance(frame, EventFrame)
                seen.append(frame)
                if frame.event_type == "SeedRevealed":
                    return

        await gateway.gateway.games.reveal(gid)  # the owner's mid-game reveal
        await follow()
        await client.bind_seed(gid)  # epoch 1's client seed
        log = await store.read(gid)
    game, anchors = read_receipts(files.path(gid).read_text())
    assert game == gid
    kinds = [(a.kind, a.reply) for a in anchors]
    receipt, commitment = ("receipt", "accepted"), ("commitment", "")
    assert kinds == [commitment, ("receipt", "created"), receipt, receipt, commitment, receipt]
    reveal = next(e for e in seen if e.event_type == "SeedRevealed")
    assert anchors[4].epoch == 1 and anchors[4].commitment == reveal.payload["next_commitment"]
    assert anchors[0].commitment == created.seed_commitment
    assert anchors[5].head_seq > reveal.seq  # the next receipt covers the reveal too
    assert "create_id" not in files.path(gid).read_text()  # a secret, never kept
    failure, reach = check_anchors(anchors, log)
    assert failure is None and f"up to seq {len(log)}" in reach, reach
    # The state hashes the gateway sent are those of the views the log gives.
    assert check_state_hashes(anchors, log, registry.get("downtown")) is None
    # A log cut before the last receipt disagrees with it.
    failure, _ = check_anchors(anchors, log[:-1])
    assert failure is not None and failure.seq == len(log), failure


async def test_the_default_store_is_in_memory_and_exports_the_file_format(
    gateway: Running, ws_url: str
) -> None:
    async with UmpireClient(ws_url) as client:
        created = await client.create("downtown", SETUP)
        assert isinstance(client.receipts, MemoryReceipts)
        text = client.receipts.export(created.game_id)
    lines = [json.loads(line) for line in text.splitlines()]
    assert lines[0] == {
        "format": "umpire-receipts/3", "game_id": created.game_id,
        "public_key": created.receipt_key,
    }  # fmt: skip
    assert [line["kind"] for line in lines[1:]] == ["commitment", "receipt", "receipt"]
    # Each receipt carries the signature of the game's key (docs/audit.md 8.4).
    assert all(line["key_id"] == created.key_id and len(line["signature"]) == 128
               for line in lines[2:])  # fmt: skip
    game_id, anchors = read_receipts(text)
    assert game_id == created.game_id
    # With the tree each signature covers (its leaf, the tree's size, the proof): each
    # receipt verifies on its own under the game's key.
    assert all({"leaf_index", "tree_size", "proof"} <= set(line) for line in lines[2:])
    receipts = [a for a in anchors if a.kind == "receipt"]
    assert receipts and all(signed_by(a, game_id, created.receipt_key) for a in receipts)


def test_a_game_id_names_no_other_file(tmp_path: Path) -> None:
    files = ReceiptFiles(tmp_path / "receipts")
    with pytest.raises(InvalidGameId):
        files.path("../outside")
