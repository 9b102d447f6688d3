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
ROUNDS = 10  # rounds of one command a game at once


async def test_concurrent_commands_of_several_games_never_share_a_tree_and_each_verifies(
    gateway: Running, ws_url: str
) -> None:
    """A proof's siblings are leaf hashes of the same tree: a tree of another game's
    statements would hand a player (or a spectator) hashes of views it may know all but
    the secrets of, to test guesses against. Each game's replies have trees of their own."""
    clients = [UmpireClient(ws_url) for _ in range(GAMES)]
    for client in clients:
        await client.__aenter__()
    signing = gateway.gateway.signing
    try:
        games = [await c.create("counter", {"target": 10_000}) for c in clients]
        keys = {g.game_id: g.receipt_key for g in games}
        trees: dict[str, list[Accepted]] = defaultdict(list)
        before = (signing.trees, signing.leaves)
        for n in range(ROUNDS):
            sent = await asyncio.gather(*[
                c.send(g.game_id, {"type": "Push"}, command_id=f"r{n}")
                for c, g in zip(clients, games, strict=True)
            ])  # fmt: skip
            for accepted in sent:
                trees[accepted.signature].append(accepted)
    finally:
        for client in clients:
            await client.__aexit__(None, None, None)
    assert len(trees) == GAMES * ROUNDS  # no signature covers two games' replies
    for (accepted,) in trees.values():
        assert (accepted.leaf_index, accepted.tree_size, accepted.proof) == (0, 1, [])
        batch = (accepted.leaf_index, accepted.tree_size, accepted.proof)
        key = keys[accepted.game_id]
        assert signature_valid(key, accepted_statement(accepted), accepted.signature, batch)
    assert signing.trees - before[0] == signing.leaves - before[1]


def _lone(i: int, signer: ReceiptSigner, game: int = 0, role: str = "player") -> Statement:
    return Statement(
        game_id=f"g{game:016x}", key_id=signer.key_id, reply="accepted", role=role,
        first_seq=i + 1, head_seq=i + 1, head_hash="ab" * 32, state_hash="",
    )  # fmt: skip


async def test_a_turn_signs_once_per_key_game_and_role_and_a_lone_reply_is_a_tree_of_one() -> None:
    batcher = SigningBatcher()
    a, b = (ReceiptSigner(hashlib.sha256(name).digest()) for name in (b"a", b"b"))
    # One turn: three replies of game 0's player under key a share a tree; game 1's
    # player, game 0's referee and a reply under key b each have their own.
    futures = [
        batcher.sign(a, _lone(0, a)), batcher.sign(b, _lone(1, b)),
        batcher.sign(a, _lone(2, a)), batcher.sign(a, _lone(3, a, game=1)),
        batcher.sign(a, _lone(4, a, role="referee")), batcher.sign(a, _lone(5, a)),
    ]  # fmt: skip
    signed = await asyncio.gather(*futures)
    assert (batcher.trees, batcher.leaves) == (4, 6)
    assert [(s.leaf_index, s.tree_size) for s in signed] == [
        (0, 3),
        (0, 1),
        (1, 3),
        (0, 1),
        (0, 1),
        (2, 3),
    ]
    assert signed[0].signature == signed[2].signature == signed[5].signature
    assert len({signed[0].signature, signed[3].signature, signed[4].signature}) == 3
    # The next turn: a lone reply, a tree of one.
    (alone,) = await asyncio.gather(batcher.sign(a, _lone(6, a)))
    assert (alone.leaf_index, alone.tree_size, alone.proof) == (0, 1, [])
    assert signature_valid(a.public_key, _lone(6, a), alone.signature, (0, 1, []))


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
