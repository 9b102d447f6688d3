"""The receipts of one event-loop turn are signed as one tree (docs/audit.md 8.4).

Ed25519 signing was ~24 µs of a worker's ~120 µs of CPU per command, one signature per
`created` and `accepted` reply. In the closed loop a worker answers 5 to 30 commands in
one loop turn (the append batcher, events/append_batch.py, resolves a turn's appends
together, so their replies are made in the next turn). Certificate Transparency's way:
each reply's statement waits here until the end of the turn (`loop.call_soon`), then the
statements of each receipt key are the leaves of one Merkle tree whose root that key
signs once, and each reply gets the signature, its leaf's index, the tree's size and its
inclusion proof. A turn with one reply costs what it did (one signature) plus one hash;
it waits one loop turn longer, as an append does for its batch.
"""

from __future__ import annotations

import asyncio

from umpire.events.receipt_signature import (
    BatchSignature,
    ReceiptSigner,
    Statement,
    sign_batch,
)

# One waiting reply: its statement, and the future its session's driver awaits.
Waiting = tuple[Statement, "asyncio.Future[BatchSignature]"]


class SigningBatcher:
    """Signs every receipt statement waiting at the end of a loop turn, one signature per
    receipt key (one per worker: its state is the one turn's waiting statements)."""

    def __init__(self) -> None:
        # Key id -> its signer and the statements waiting for it, in arrival order (a
        # dict keeps insertion order: the trees, and the indexes, follow the replies).
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
                signed = sign_batch(signer, [statement for statement, _ in replies])
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
