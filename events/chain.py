"""Verification of a game's hash chain: contiguous seqs, links and recomputed hashes."""

from __future__ import annotations

from collections.abc import Iterable

from events.envelope import GENESIS_HASH, Envelope, expected_hash
from events.errors import ChainBroken


def verify_chain(
    envelopes: Iterable[Envelope],
    *,
    start_seq: int = 1,
    prev_hash: str = GENESIS_HASH,
    game_id: str | None = None,
) -> int:
    """Check every link of a chain and return the number of events verified.

    Raises ChainBroken naming the first bad seq: a seq out of order (an event removed or
    reordered), a prev-hash that does not link, or a hash that does not match its fields
    (an edited event).
    """
    expected_seq = start_seq
    count = 0
    for env in envelopes:
        if game_id is not None and env.game_id != game_id:
            raise ChainBroken(
                f"event {env.seq} belongs to game {env.game_id!r}, not {game_id!r}",
                seq=env.seq,
                reason="foreign_event",
            )
        if env.seq != expected_seq:
            raise ChainBroken(
                f"expected event {expected_seq} but found {env.seq}: "
                "an event is missing or out of order",
                seq=expected_seq,
                reason="seq_gap",
            )
        if env.prev_hash != prev_hash:
            raise ChainBroken(
                f"event {env.seq} does not link to event {env.seq - 1}: "
                "an earlier event was changed, removed or reordered",
                seq=env.seq,
                reason="broken_link",
            )
        if expected_hash(env) != env.hash:
            raise ChainBroken(
                f"event {env.seq} does not match its hash: its content was changed",
                seq=env.seq,
                reason="hash_mismatch",
            )
        prev_hash = env.hash
        expected_seq += 1
        count += 1
    return count
