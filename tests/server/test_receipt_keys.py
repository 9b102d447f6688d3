"""Issue #42 item 1: the game's receipt key, fixed at creation, signs every answer.

The `created` and `accepted` answers (a command's and `bind_seed`'s) carry the signature of
the key GameCreated names, which /keys.json lists with its public half; a rotation gives
new games a new key and leaves every older game signing with its own (docs/audit.md
8.4, docs/operations.md "Receipt keys"). The private half is never in the log.
"""

from __future__ import annotations

import asyncio
import json
import urllib.request
from typing import Any

import msgspec

from tests.rulesets.downtown.setups import SETUP
from umpire.clients import UmpireClient
from umpire.events.receipt_signature import Statement, key_id_of, signature_valid
from umpire.events.types import GameCreated
from umpire.server.app import Running
from umpire.server.games import Games
from umpire.server.receipt_keys import ReceiptKeys


def _keys_json(port: int) -> Any:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/keys.json", timeout=10) as answer:
        assert answer.headers["Content-Type"] == "application/json"
        return json.loads(answer.read())


async def test_every_answer_is_signed_by_the_key_gamecreated_names_and_keys_json_lists(
    gateway: Running, ws_url: str
) -> None:
    async with UmpireClient(ws_url) as client:
        created = await client.create("downtown", SETUP)
        accepted = await client.send(created.game_id, {"type": "DeployGroundUnits"})
    gid = created.game_id
    (first,) = await gateway.gateway.store.read(gid, 1, 1)
    logged = msgspec.msgpack.decode(first.payload, type=GameCreated)
    assert (logged.receipt_key_id, logged.receipt_key) == (created.key_id, created.receipt_key)
    assert key_id_of(logged.receipt_key) == logged.receipt_key_id
    # Both answers verify under the logged key, over the statement docs/audit.md gives.
    made = Statement(
        game_id=gid, key_id=created.key_id, reply="created", role="player", first_seq=1,
        head_seq=created.head_seq, head_hash=created.head_hash, state_hash=created.state_hash,
    )  # fmt: skip
    made_in = (created.leaf_index, created.tree_size, created.proof)
    assert signature_valid(logged.receipt_key, made, created.signature, made_in, created.blind)
    sent = Statement(
        game_id=gid, key_id=accepted.key_id, reply="accepted", role="player",
        first_seq=accepted.seqs[0], head_seq=accepted.head_seq, head_hash=accepted.head_hash,
        state_hash=accepted.state_hash,
    )  # fmt: skip
    sent_in = (accepted.leaf_index, accepted.tree_size, accepted.proof)
    assert signature_valid(logged.receipt_key, sent, accepted.signature, sent_in, accepted.blind)
    # Another head under the same signature is not signed.
    other = msgspec.structs.replace(sent, head_hash="00" * 32)
    assert not signature_valid(
        logged.receipt_key, other, accepted.signature, sent_in, accepted.blind
    )
    listing = await asyncio.to_thread(_keys_json, gateway.port)
    assert listing["algorithm"] == "Ed25519"
    assert {"key_id": logged.receipt_key_id, "algorithm": "Ed25519",
            "public_key": logged.receipt_key, "current": True} in listing["keys"]  # fmt: skip
    # The private half is in no event of the log.
    keys = await gateway.gateway.store.receipt_keys()
    seed = keys[logged.receipt_key_id].hex()
    assert all(seed not in env.payload.hex() for env in await gateway.gateway.store.read(gid))


async def test_a_rotation_gives_new_games_a_new_key_and_old_games_keep_theirs(
    gateway: Running,
) -> None:
    store = gateway.gateway.store
    games = Games(store)
    before = await games.create("counter", {"target": 10})
    old = await games.receipt_keys.for_game(before.game_id)
    fresh = await ReceiptKeys(store).rotate()
    assert old is not None and fresh.key_id != old.key_id
    after = await Games(store).create("counter", {"target": 10})
    # A fresh process (no cache) finds each game's own key from its GameCreated.
    reloaded = Games(store)
    signers = [await reloaded.receipt_keys.for_game(g.game_id) for g in (before, after)]
    assert [s.key_id if s else "" for s in signers] == [old.key_id, fresh.key_id]
    listing = {k["key_id"]: k["current"] for k in await reloaded.receipt_keys.listing()}
    assert listing[old.key_id] is False and listing[fresh.key_id] is True


async def test_the_command_path_finds_a_games_signer_in_the_cache(
    gateway: Running, ws_url: str
) -> None:
    # The driver answers a command's GameSigner from here without a coroutine
    # (server/driver.py `serve_frame`); a game not known yet is asked of the store.
    keys = gateway.gateway.games.receipt_keys
    assert keys.cached("g0000000000000000") is None
    async with UmpireClient(ws_url) as client:
        created = await client.create("downtown", SETUP)
        accepted = await client.send(created.game_id, {"type": "DeployGroundUnits"})
    signer = keys.cached(created.game_id)
    assert signer is not None and signer.key_id == created.key_id == accepted.key_id
    assert signer is await keys.for_game(created.game_id)
