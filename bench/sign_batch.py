"""CPU per command of signing its receipt: one signature per command, or one per loop turn.

`python -m bench.sign_batch [--commands N] [--runs R]` signs N typical `accepted`
statements in-process, R times each way, and prints the median process CPU per command:

- `one by one`: each statement signed on its own (the form before batches,
  `ReceiptSigner.sign`: the statement's bytes, then Ed25519);
- `batched at k`: the statements of a turn of k commands as one tree (`sign_batch`: k leaf
  hashes, k - 1 node hashes, the proofs, one Ed25519 signature), for k = 1, 10 and 30,
  each leaf blinded (docs/audit.md 8.4) with one `os.urandom` call a tree, sliced, as the
  batcher does; `unblinded at k` the same without blinds (`batch/1`, the form before);
  `blinds a leaf at k` with one `os.urandom` call a leaf (the choice the batcher did not
  make);
- `batcher at k`: the same through the worker's `SigningBatcher` (server/receipt_batch.py)
  on an event loop: k replies ask for their signature in one turn (a future each, as the
  driver awaits it) and are answered at its end, the futures and the loop's turn
  included (the event loop's start, once per run, too).

Beside each it prints the share of issue #44's goal of 55 µs of worker CPU per move. In
the closed loop a worker has 5 to 30 acks ready in one turn (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import statistics
import time
from collections.abc import Callable

from umpire.events.receipt_signature import BLIND_BYTES, ReceiptSigner, Statement, sign_batch
from umpire.server.receipt_batch import SigningBatcher

GOAL_US = 55.0  # issue #44 item 3: worker CPU per move in the closed loop
TURNS = (1, 10, 30)


def statements(signer: ReceiptSigner, n: int) -> list[Statement]:
    """n `accepted` statements shaped like a counter game's (distinct heads)."""
    return [
        Statement(
            game_id=f"g{i % 100:016x}",
            key_id=signer.key_id,
            reply="accepted",
            role="player",
            first_seq=2 * i + 3,
            head_seq=2 * i + 4,
            head_hash=hashlib.sha256(b"head %d" % i).hexdigest(),
            state_hash=hashlib.sha256(b"state %d" % i).hexdigest(),
        )
        for i in range(n)
    ]


def cpu_per_command(work: Callable[[], None], commands: int, runs: int) -> float:
    """Median process CPU (µs) per command of `work`, which handles `commands` commands."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append((time.process_time() - start) / commands * 1e6)
    return statistics.median(times)


def one_by_one(signer: ReceiptSigner, todo: list[Statement]) -> Callable[[], None]:
    def work() -> None:
        for statement in todo:
            signer.sign(statement)

    return work


def batched(
    signer: ReceiptSigner, todo: list[Statement], k: int, blinds: str = "tree"
) -> Callable[[], None]:
    """`blinds`: "tree" (one draw a tree), "leaf" (one draw a leaf) or "none" (batch/1)."""

    def work() -> None:
        for start in range(0, len(todo), k):
            turn = todo[start : start + k]
            if blinds == "none":
                sign_batch(signer, turn, blinds=None)
            elif blinds == "leaf":
                drawn = b"".join(os.urandom(BLIND_BYTES) for _ in turn)
                sign_batch(signer, turn, blinds=drawn)
            else:
                sign_batch(signer, turn, blinds=os.urandom(BLIND_BYTES * len(turn)))

    return work


def through_batcher(signer: ReceiptSigner, todo: list[Statement], k: int) -> Callable[[], None]:
    async def turns() -> None:
        batcher = SigningBatcher()
        for start in range(0, len(todo), k):
            # k replies ask in one turn (as the driver does: a future each, no task), and
            # are answered at its end.
            futures = [batcher.sign(signer, s) for s in todo[start : start + k]]
            await futures[-1]

    def work() -> None:
        asyncio.run(turns())

    return work


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.sign_batch", description=__doc__)
    parser.add_argument("--commands", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    signer = ReceiptSigner(hashlib.sha256(b"bench receipt key").digest())
    todo = statements(signer, args.commands)
    rows = [("one by one", cpu_per_command(one_by_one(signer, todo), len(todo), args.runs))]
    for name, blinds in (("batched", "tree"), ("unblinded", "none"), ("blinds a leaf", "leaf")):
        for k in TURNS:
            rows.append((f"{name} at {k}", cpu_per_command(batched(signer, todo, k, blinds),
                                                           len(todo), args.runs)))  # fmt: skip
    for k in TURNS:
        rows.append((f"batcher at {k}", cpu_per_command(through_batcher(signer, todo, k),
                                                        len(todo), args.runs)))  # fmt: skip
    print(f"{'signing':<20} {'CPU/command':>12} {'of the 55 µs goal':>18}")
    for name, us in rows:
        print(f"{name:<20} {us:>9.1f} µs {us / GOAL_US:>17.0%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
