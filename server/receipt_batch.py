"""The receipts of one event-loop turn are signed as one tree (docs/audit.md 8.4).

Ed25519 signing was ~24 µs of a worker's ~120 µs of CPU per command, one signature per
`created` and `accepted` reply. In the closed loop a worker answers 5 to 30 commands in
one loop turn (the append batcher, events/append_batch.py, resolves a turn's appends
together, so their replies are made in the next turn). Certificate Transparency's way:
each reply's statement waits here until the end of the turn (`loop.call_soon`), then the
statements of each receipt key are the leaves of one Merkle tree whose root that key
signs once, and each reply gets the signature, its leaf's index, the tree's size, its
inclusion proof and its leaf's blind. A turn with one reply costs what it did (one signature) plus
one hash; it waits one loop turn longer, as an append does for its batch.

A tree holds every game's and role's statements of the turn (one signature for up to ~30
replies in the closed loop), and each of its leaves is blinded (docs/audit.md 8.4): a
receipt's proof carries its siblings' leaf hashes, and a leaf is the hash of a statement
whose state hash covers its role's view, so one who knows all of another view but its
secrets (a Down in Flames spectator, whose player sees their own pilots) could try each
value of the secret until a leaf hash matched a sibling. With 16 random bytes hashed into
each leaf, given only with that leaf's receipt, a sibling's hash matches no guess. (The
session before kept one tree per key, game and role instead, and paid one signature per
move again.) What a tree's size and a leaf's index still tell (how many statements the
worker signed in the turn) is counted in docs/audit.md 8.4, "What a tree's size tells".
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from umpire.engine.game import Game
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.events.receipt_signature import (
    BLIND_BYTES,
    BatchSignature,
    ReceiptSigner,
    Statement,
    receipt_statement,
    sign_batch,
)
from umpire.server.receipt_keys import ReceiptKeys
from umpire.server.view_digests import ViewDigests

# Early statements kept for the session to take (one per command in flight is the need).
KEPT_EARLY = 1024

# One waiting reply: its statement, and the future its session's driver awaits.
Waiting = tuple[Statement, "asyncio.Future[BatchSignature]"]


class SigningBatcher:
    """Signs every receipt statement waiting at the end of a loop turn, one blinded tree
    and one signature per receipt key (one batcher per worker: its state is the one
    turn's waiting statements)."""

    def __init__(self) -> None:
        # Key id -> its signer and the statements waiting for it, in arrival order (a dict
        # keeps insertion order: the trees, and the indexes, follow the replies).
        self._waiting: dict[str, tuple[ReceiptSigner, list[Waiting]]] = {}
        self.trees = 0  # signatures made (figures for the benchmark)
        self.leaves = 0  # receipts signed in them

    def sign(self, signer: ReceiptSigner, statement: Statement) -> asyncio.Future[BatchSignature]:
        """The future of `statement`'s BatchSignature, made at the end of this loop turn."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[BatchSignature] = loop.create_future()
        if not self._waiting:
            loop.call_soon(self._flush)
        known = self._waiting.get(signer.key_id)
        if known is None:
            self._waiting[signer.key_id] = (signer, [(statement, future)])
        else:
            known[1].append((statement, future))
        return future

    def _flush(self) -> None:
        waiting, self._waiting = self._waiting, {}
        for signer, replies in waiting.values():
            try:
                # One draw of the OS's randomness for the whole tree, sliced a blind a leaf
                # (bench/sign_batch.py: ~0.3 us a call, so one a tree, not one a leaf).
                blinds = os.urandom(BLIND_BYTES * len(replies))
                signed = sign_batch(signer, [statement for statement, _ in replies], blinds=blinds)
            except Exception as exc:  # each caller is told (a statement of another key)
                for _, future in replies:
                    if not future.done():
                        future.set_exception(exc)
                continue
            self.trees += 1
            self.leaves += len(replies)
            for (_, future), answer in zip(replies, signed, strict=True):
                if not future.done():  # its caller went away: its leaf stays in the tree
                    future.set_result(answer)


class EarlySignatures:
    """`accepted` receipts signed while their append is on its way to the store.

    A lone command pays its signature after its append's round trip, where the worker has
    nothing else to do while the store works (a sequential move spent ~45 us of its ~335 on
    the gateway signing after the reply). The append's bytes say what the receipt will
    state if it succeeds: its seqs, the head and the state after it (the events folded, a
    pure step). So once the append is written (`start`, from the store's `on_sent`) the
    statement goes to this turn's tree (`SigningBatcher`) and the signature is made while
    the store works. `Games.handle` returns the statement with the command's result, and
    the driver `take`s its signature while the cache still holds the head it states
    (server/driver.py `_early_signature`): the session answers with it, asking for nothing
    more. Otherwise the session asks for the signature of the statement it makes from the
    game it then holds, and `take` hands over the early one only for an equal statement;
    any other is signed then, as before. An
    append that fails or turns out a duplicate drops its statement (`drop`): its leaf
    stays in its tree, which no reply names (as a leaf whose caller went away), and a
    statement is signed only after its events were sealed and written."""

    __slots__ = ("_early", "_size", "digests", "keys", "signing", "started", "used")

    def __init__(
        self,
        signing: SigningBatcher,
        keys: ReceiptKeys,
        digests: ViewDigests,
        size: int = KEPT_EARLY,
    ) -> None:
        self.signing = signing
        self.keys = keys
        self.digests = digests
        self._size = size
        # statement -> its signature's future, oldest first (a statement the session never
        # asked for, because the game moved on before it did, is dropped past `size`).
        self._early: dict[Statement, asyncio.Future[BatchSignature]] = {}
        self.started = 0  # statements signed early (figures for the benchmark and tests)
        self.used = 0  # of them, taken by the reply they were made for

    def start(
        self, ruleset: Ruleset[Any], game: Game, role: Role, first_seq: int
    ) -> Statement | None:
        """Sign now the receipt of `role`'s command whose events, from `first_seq`, made
        `game`; the statement (None: the game has no receipt key in hand)."""
        meta = game.meta
        signer = self.keys.cached(meta.game_id)
        if signer is None:
            return None
        state_hash = self.digests.state_hash(ruleset, game, role)
        statement = receipt_statement(
            signer, meta.game_id, "accepted", str(role), (first_seq,), meta.seq,
            meta.last_hash, state_hash,
        )  # fmt: skip
        if statement is None or statement in self._early:
            return statement
        if len(self._early) >= self._size:
            _forget(self._early.pop(next(iter(self._early))))
        self._early[statement] = self.signing.sign(signer, statement)
        self.started += 1
        return statement

    def take(self, statement: Statement) -> asyncio.Future[BatchSignature] | None:
        """The early signature of exactly `statement`, if one was started (once)."""
        future = self._early.pop(statement, None)
        if future is not None:
            self.used += 1
        return future

    def drop(self, statement: Statement | None) -> None:
        """Forget a statement whose append did not succeed."""
        if statement is not None and (future := self._early.pop(statement, None)):
            _forget(future)

    def __len__(self) -> int:
        return len(self._early)


def _forget(future: asyncio.Future[BatchSignature]) -> None:
    """A signature no one will await: its error, if any, retrieved (not logged as lost)."""
    if future.done():
        if not future.cancelled():
            future.exception()
    else:
        future.add_done_callback(_forget)
