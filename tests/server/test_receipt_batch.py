"""Issue #44 item 3: the receipts of one loop turn are signed as one tree (docs/audit.md 8.4).

Commands of several games that one worker answers in the same event-loop turn get one
signature: the same root signature, distinct leaf indexes in one tree size, and each
receipt, with its own inclusion proof, verifies alone under the game's key. A lone
command gets a tree of one. Over real websockets, against the suite's Valkey.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import defaultdict

import pytest

from tests.support.receipts import accepted_statement
from umpire.clients import UmpireClient
from umpire.events.receipt_signature import ReceiptSigner, Statement, signature_valid
from umpire.events.wire import Accepted
from umpire.server.app import Running
from umpire.server.receipt_batch import SigningBatcher

GAMES = 8
ROUNDS = 40  # rounds of one command a game at once, until two replies share a turn


async def test_concurrent_commands_on_one_worker_share_one_signature_and_each_verifies(
    gateway: Running, ws_url: str
) -> None:
    clients = [UmpireClient(ws_url) for _ in range(GAMES)]
    for client in clients:
        await client.__aenter__()
    try:
        games = [await c.create("counter", {"target": 10_000}) for c in clients]
        keys = {g.game_id: g.receipt_key for g in games}
        trees: dict[str, list[Accepted]] = defaultdict(list)
        for n in range(ROUNDS):
            sent = await asyncio.gather(*[
                c.send(g.game_id, {"type": "Push"}, command_id=f"r{n}")
                for c, g in zip(clients, games, strict=True)
            ])  # fmt: skip
            for accepted in sent:
                trees[accepted.signature].append(accepted)
            if any(len(replies) > 1 for replies in trees.values()):
                break
    finally:
        for client in clients:
            await client.__aexit__(None, None, None)
    shared = [replies for replies in trees.values() if len(replies) > 1]
    assert shared, f"no two of {GAMES} concurrent commands shared a loop turn in {ROUNDS} rounds"
    for replies in trees.values():
        sizes = {a.tree_size for a in replies}
        assert len(sizes) == 1 and replies[0].tree_size >= len(replies), replies
        indexes = [a.leaf_index for a in replies]
        assert len(set(indexes)) == len(indexes), indexes  # one leaf each
        for accepted in replies:
            batch = (accepted.leaf_index, accepted.tree_size, accepted.proof)
            key = keys[accepted.game_id]
            assert signature_valid(key, accepted_statement(accepted), accepted.signature, batch)
            # Its own proof, no other's: another leaf's index does not verify.
            moved = ((accepted.leaf_index + 1) % accepted.tree_size, accepted.tree_size,
                     accepted.proof)  # fmt: skip
            assert accepted.tree_size == 1 or not signature_valid(
                key, accepted_statement(accepted), accepted.signature, moved
            )
    assert gateway.gateway.signing.trees < gateway.gateway.signing.leaves


def _lone(i: int, signer: ReceiptSigner) -> Statement:
    return Statement(
        game_id=f"g{i:016x}", key_id=signer.key_id, reply="accepted", role="player",
        first_seq=1, head_seq=2, head_hash="ab" * 32, state_hash="",
    )  # fmt: skip


async def test_a_turn_signs_once_per_key_and_a_lone_reply_is_a_tree_of_one() -> None:
    batcher = SigningBatcher()
    a, b = (ReceiptSigner(hashlib.sha256(name).digest()) for name in (b"a", b"b"))
    # One turn: three replies under key a, one under key b; two signatures.
    futures = [batcher.sign(a, _lone(0, a)), batcher.sign(b, _lone(1, b)),
               batcher.sign(a, _lone(2, a)), batcher.sign(a, _lone(3, a))]  # fmt: skip
    signed = await asyncio.gather(*futures)
    assert (batcher.trees, batcher.leaves) == (2, 4)
    assert [(s.leaf_index, s.tree_size) for s in signed] == [(0, 3), (0, 1), (1, 3), (2, 3)]
    assert signed[0].signature == signed[2].signature == signed[3].signature
    # The next turn: a lone reply, a tree of one.
    (alone,) = await asyncio.gather(batcher.sign(a, _lone(4, a)))
    assert (alone.leaf_index, alone.tree_size, alone.proof) == (0, 1, [])
    assert signature_valid(a.public_key, _lone(4, a), alone.signature, (0, 1, []))


@pytest.mark.parametrize("size", [2, 5])
async def test_a_caller_gone_before_the_turn_ends_leaves_the_others_signed(size: int) -> None:
    batcher = SigningBatcher()
    signer = ReceiptSigner(hashlib.sha256(b"gone").digest())
    futures = [batcher.sign(signer, _lone(i, signer)) for i in range(size)]
    futures[0].cancel()
    rest = await asyncio.gather(*futures[1:])
    assert [s.leaf_index for s in rest] == list(range(1, size))
    for i, s in enumerate(rest, start=1):
        assert signature_valid(signer.public_key, _lone(i, signer), s.signature,
                               (s.leaf_index, s.tree_size, s.proof))  # fmt: skip
