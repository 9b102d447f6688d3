"""Issue #44 (tput): the receipts of one loop turn are signed as one blinded tree
(docs/audit.md 8.4).

Commands of several games that one worker answers in the same event-loop turn get one
signature: the same root signature, distinct leaf indexes in one tree size, and each
receipt, with its own inclusion proof and its leaf's blind, verifies alone under the
game's key. A proof now carries other games' and roles' leaf hashes, so each leaf is
blinded: the attack that made the last session split the trees (a spectator of one game
who plays another tests guesses of a hidden pilot against its proof's siblings) finds
nothing. Over real websockets, against the suite's Valkey.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
from collections import defaultdict
from typing import Any

import msgspec
import pytest

from tests.support.receipts import accepted_statement
from umpire.clients import UmpireClient
from umpire.engine.redaction import view_for
from umpire.engine.roles import Role
from umpire.engine.rulesets.down_in_flames.terms import PilotQuality
from umpire.events.receipt import receipt_state_hash
from umpire.events.receipt_signature import (
    BLIND_BYTES,
    ReceiptSigner,
    Statement,
    leaf_hash,
    sign_batch,
    signature_valid,
)
from umpire.events.wire import Accepted
from umpire.server.app import Running
from umpire.server.receipt_batch import SigningBatcher
from umpire.testing.support.drivers import start_setup

GAMES = 8
ROUNDS = 10  # rounds of one command a game at once
ATTACK_ROUNDS = 20  # rounds of the attack: some must put both games in one tree


def _verifies(key: str, accepted: Accepted) -> bool:
    batch = (accepted.leaf_index, accepted.tree_size, accepted.proof)
    return signature_valid(
        key, accepted_statement(accepted), accepted.signature, batch, accepted.blind
    )


async def test_concurrent_commands_of_several_games_share_a_tree_and_each_verifies(
    gateway: Running, ws_url: str
) -> None:
    """One tree a key and turn, whatever the games: replies of several games share one
    signature (so a proof holds other games' leaves), each with a blind of its own, and
    each verifies alone under its game's key, with its blind and not without it."""
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
    shared = [tree for tree in trees.values() if len({a.game_id for a in tree}) > 1]
    assert shared, "no tree held two games' replies"
    assert all(a.proof for tree in shared for a in tree)  # siblings of other games
    assert signing.leaves - before[1] > signing.trees - before[0]
    blinds = [a.blind for tree in trees.values() for a in tree]
    assert len(set(blinds)) == len(blinds) == GAMES * ROUNDS
    assert all(len(b) == 2 * BLIND_BYTES and int(b, 16) >= 0 for b in blinds)
    for tree in trees.values():
        assert len({(a.tree_size, a.signature) for a in tree}) == 1
        assert len({a.leaf_index for a in tree}) == len(tree)
        for accepted in tree:
            key = keys[accepted.game_id]
            assert _verifies(key, accepted)
            assert not _verifies(key, msgspec.structs.replace(accepted, blind=""))
            other = ("0" if accepted.blind[0] != "0" else "1") + accepted.blind[1:]
            assert not _verifies(key, msgspec.structs.replace(accepted, blind=other))


# -- the attack: a spectator of game A who plays game B ----------------------------------------

PILOT = {"pilot_quality": "veteran", "crack_shot": True, "keen_eyesight": False}
# Every value a1's secret fields may take (9.1.11): 5 qualities, each trait or not.
CANDIDATES = [
    {"pilot_quality": q.value, "crack_shot": c, "keen_eyesight": k}
    for q, c, k in itertools.product(PilotQuality, (False, True), (False, True))
]


def _guesses(
    state: Any, ruleset: Any, accepted: Accepted, key_id: str
) -> list[tuple[dict[str, Any], Statement]]:
    """A's player statement of `accepted` under each guess of a1's pilot: what one who
    knows all of the player's view but the pilot (A's spectator: every event, its seq and
    hash, the rules) can write out. `state` is A's at the reply's head."""
    plane = state.aircraft["a1"]
    out = []
    for guess in CANDIDATES:
        changed = msgspec.structs.replace(
            plane, pilot_quality=PilotQuality(guess["pilot_quality"]),
            crack_shot=guess["crack_shot"], keen_eyesight=guess["keen_eyesight"],
        )  # fmt: skip
        guessed = msgspec.structs.replace(state, aircraft={**state.aircraft, "a1": changed})
        view = view_for(ruleset, guessed, Role.PLAYER, revealed=False)
        statement = Statement(
            game_id=accepted.game_id, key_id=key_id, reply="accepted", role="player",
            first_seq=accepted.seqs[0], head_seq=accepted.head_seq,
            head_hash=accepted.head_hash,
            state_hash=receipt_state_hash(accepted.head_seq, accepted.head_hash, view),
        )  # fmt: skip
        out.append((guess, statement))
    return out


def _search(guesses: list[tuple[dict[str, Any], Statement]], siblings: set[str]) -> list[Any]:
    """The guesses whose leaf hash (as a leaf without a blind is hashed) is a sibling."""
    return [g for g, s in guesses if leaf_hash(s.signed_bytes()).hex() in siblings]


async def test_a_spectator_who_plays_another_game_learns_no_pilot_from_its_proofs(
    gateway: Running, ws_url: str
) -> None:
    """A Down in Flames player (game A) sees their own pilot; A's spectator does not. The
    spectator plays a counter game (B) on the same worker, and each round both send a
    command at once, so A's player receipt and B's share a tree: B's proof then holds A's
    player leaf. The spectator writes out A's player statement under each of the 20 values
    of the pilot and looks for its leaf hash among B's proof siblings: nothing matches.
    Not vacuous: with the blind of A's receipt (which only A's player holds) the true
    guess's leaf is among them, and the same search over the same two statements in an
    unblinded tree (as before blinds) finds the pilot."""
    games = gateway.gateway.games
    setup = start_setup("down_in_flames")
    setup["aircraft"][0] |= PILOT
    async with UmpireClient(ws_url) as player, UmpireClient(ws_url) as watcher:
        a = await player.create("down_in_flames", setup, client_entropy="waived")
        b = await watcher.create("counter", {"target": 10_000}, client_entropy="waived")
        await watcher.auth(a.spectator_credential)  # A's spectator, B's player
        await player.send(a.game_id, {"type": "BeginTurn", "side": "B"})
        siblings: set[str] = set()  # every sibling hash B's receipts carried
        shared: list[tuple[Accepted, Accepted, Any]] = []
        for n in range(ATTACK_ROUNDS):
            roll = {"type": "RollDice", "dice": "2d6", "purpose": "attack test"}
            mine, theirs = await asyncio.gather(
                player.send(a.game_id, roll, command_id=f"a{n}"),
                watcher.send(b.game_id, {"type": "Push"}, command_id=f"b{n}"),
            )
            ruleset, game = await games.load(a.game_id)
            assert game.meta.seq == mine.head_seq
            siblings.update(theirs.proof)
            if mine.signature == theirs.signature:
                shared.append((mine, theirs, game.state))
    assert shared, "no round put A's and B's receipts in one tree"
    for mine, theirs, state in shared:
        guesses = _guesses(state, ruleset, mine, mine.key_id)
        assert _search(guesses, siblings) == []  # the attack: nothing
        (true,) = [s for g, s in guesses if g == PILOT]
        assert true == accepted_statement(mine)  # the guesses hold the truth
        # A's player leaf is a sibling of B's: only its blind hides it.
        blinded = leaf_hash(true.signed_bytes(), bytes.fromhex(mine.blind)).hex()
        assert blinded in theirs.proof
    # The same search against an unblinded tree of the same two statements finds the pilot.
    mine, theirs, state = shared[0]
    signer = ReceiptSigner(hashlib.sha256(b"attack test key").digest())
    guesses = _guesses(state, ruleset, mine, signer.key_id)
    (true,) = [s for g, s in guesses if g == PILOT]
    b_statement = msgspec.structs.replace(accepted_statement(theirs), key_id=signer.key_id)
    _, unblinded = sign_batch(signer, [true, b_statement], blinds=None)
    assert _search(guesses, set(unblinded.proof)) == [PILOT]


# -- the batcher's trees ---------------------------------------------------------------------


def _lone(i: int, signer: ReceiptSigner, game: int = 0, role: str = "player") -> Statement:
    return Statement(
        game_id=f"g{game:016x}", key_id=signer.key_id, reply="accepted", role=role,
        first_seq=i + 1, head_seq=i + 1, head_hash="ab" * 32, state_hash="",
    )  # fmt: skip


def _valid(signer: ReceiptSigner, statement: Statement, s: Any) -> bool:
    batch = (s.leaf_index, s.tree_size, s.proof)
    return signature_valid(signer.public_key, statement, s.signature, batch, s.blind)


async def test_a_turn_signs_once_per_key_whatever_the_games_and_roles() -> None:
    batcher = SigningBatcher()
    a, b = (ReceiptSigner(hashlib.sha256(name).digest()) for name in (b"a", b"b"))
    # One turn: five replies under key a (two games, two roles) share a tree; the one
    # under key b has its own.
    statements = [
        (a, _lone(0, a)), (b, _lone(1, b)), (a, _lone(2, a)), (a, _lone(3, a, game=1)),
        (a, _lone(4, a, role="referee")), (a, _lone(5, a)),
    ]  # fmt: skip
    signed = await asyncio.gather(*[batcher.sign(k, s) for k, s in statements])
    assert (batcher.trees, batcher.leaves) == (2, 6)
    assert [(s.leaf_index, s.tree_size) for s in signed] == [
        (0, 5), (0, 1), (1, 5), (2, 5), (3, 5), (4, 5),
    ]  # fmt: skip
    assert len({signed[i].signature for i in (0, 2, 3, 4, 5)}) == 1
    assert len({s.blind for s in signed}) == 6
    for (signer, statement), s in zip(statements, signed, strict=True):
        assert _valid(signer, statement, s)
    # A proof of game 0's reply carries game 1's and the referee's leaves: blinded.
    assert len(signed[0].proof) == 3
    # The next turn: a lone reply, a tree of one (blinded too).
    (alone,) = await asyncio.gather(batcher.sign(a, _lone(6, a)))
    assert (alone.leaf_index, alone.tree_size, alone.proof) == (0, 1, [])
    assert alone.blind and _valid(a, _lone(6, a), alone)


@pytest.mark.parametrize("size", [2, 5])
async def test_a_caller_gone_before_the_turn_ends_leaves_the_others_signed(size: int) -> None:
    batcher = SigningBatcher()
    signer = ReceiptSigner(hashlib.sha256(b"gone").digest())
    futures = [batcher.sign(signer, _lone(i, signer)) for i in range(size)]
    futures[0].cancel()
    rest = await asyncio.gather(*futures[1:])
    assert [s.leaf_index for s in rest] == list(range(1, size))
    for i, s in enumerate(rest, start=1):
        assert _valid(signer, _lone(i, signer), s)
