"""The recorder: a command's events sealed onto its game's hash chain, as the bytes any
store appends. Pure: no I/O, no clock (the caller gives `recorded_at`), no store.

The hash chain, the payload digests and the commitments of secret events are all made
here (through events/envelope.py `seal`), once, in Python, whatever the store. A store
(events/store.py `EventStore`) never seals and never computes a hash: it checks the
batch's terms (credential, command id and body hash, expected version, prev-hash link)
atomically against what it holds, writes `records` under seqs `first_seq`..`last_seq`,
and keeps `last_hash` as the game's head hash. So a new store is only storage: it passes
`umpire.testing.store_contract.StoreContract`, which also reads back what it stored and
checks the chain (events/chain.py) over it.

The caller knows the link: the cached game's seq and last hash (server/games.py), the
genesis hash for a creation, the batch before for a copy or an import. A wrong one is
refused by the store as a VersionConflict, so a stale cache costs a reload, never a
broken chain.
"""

from __future__ import annotations

from collections.abc import Sequence

from umpire.events.envelope import (
    ENVELOPE_VERSION,
    check_command_id,
    encode_envelope,
    public_record,
    seal,
)
from umpire.events.errors import ExpectedVersionAhead, UmpireError
from umpire.events.store import Credential, PendingEvent, SealedBatch


def seal_batch(
    game_id: str,
    events: Sequence[PendingEvent],
    *,
    expected_version: int,
    prev_hash: str,
    command_id: str,
    recorded_at: str,
    commit_seed: bytes | None = None,
    secret: bytes | None = None,
    credential: Credential | None = None,
    body_hash: str = "",
) -> SealedBatch:
    """Seal `events` as seqs `expected_version + 1`.. after the event whose hash is
    `prev_hash`, all under `command_id` and `recorded_at`; the batch a store appends.

    `commit_seed` is the seed of the current epoch: it keys the commitment of each
    `secret` event (one that is not re-sealed from a given digest), and is required when
    there is one. `secret`, `credential` and `body_hash` are the append's terms, carried
    for the store (events/store.py `SealedBatch`).

    Raises InvalidCommandId for an illegal command id, UmpireError for no events or a
    secret event without `commit_seed`, ExpectedVersionAhead for a negative version.
    """
    check_command_id(command_id)
    if not events:
        raise UmpireError("a command must append at least one event", game_id=game_id)
    if expected_version < 0:
        raise ExpectedVersionAhead(
            f"expected version {expected_version} is negative", expected=expected_version
        )
    if commit_seed is None:
        # A loop, not any() over a generator: this runs for every command.
        for p in events:
            if p.secret and not p.digest:
                raise UmpireError(
                    "a secret event needs the game's seed to seal its commitment",
                    game_id=game_id,
                )
    records: list[bytes] = []
    link = prev_hash
    for seq, pending in enumerate(events, start=expected_version + 1):
        if (
            not pending.secret
            and not pending.digest
            and pending.envelope_version == ENVELOPE_VERSION
        ):
            # The common event (public, sealed now): one call (`public_record`).
            link, record = public_record(
                game_id, seq, pending.type, pending.version, pending.payload, command_id,
                recorded_at, link,
            )  # fmt: skip
            records.append(record)
            continue
        env = seal(
            game_id=game_id,
            seq=seq,
            type=pending.type,
            version=pending.version,
            payload=pending.payload,
            command_id=command_id,
            recorded_at=recorded_at,
            prev_hash=link,
            commit_seed=commit_seed if pending.secret else None,
            digest=pending.digest,
            envelope_version=pending.envelope_version,
        )
        link = env.hash
        records.append(encode_envelope(env))
    return SealedBatch(
        game_id=game_id,
        command_id=command_id,
        expected_version=expected_version,
        prev_hash=prev_hash,
        last_hash=link,
        records=tuple(records),
        secret=secret or b"",
        credential=credential,
        body_hash=body_hash,
    )
