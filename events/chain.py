"""Verification of a game's hash chain: contiguous seqs, links and recomputed hashes."""

from __future__ import annotations

from collections.abc import Iterable

from msgspec import Struct

from umpire.events.envelope import (
    ENVELOPE_VERSION,
    GENESIS_HASH,
    Envelope,
    expected_hash,
    payload_commitment,
    payload_digest,
)
from umpire.events.epochs import Epochs
from umpire.events.errors import ChainBroken


def digest_matches(env: Envelope, seed: bytes | None) -> bool | None:
    """Whether a version-2 envelope's digest covers its payload: True or False, or None for
    a commitment that cannot be opened yet (no seed for its epoch). A version-1 envelope's
    hash covers the payload itself, so its digest is always True here."""
    if env.envelope_version != ENVELOPE_VERSION:
        return True
    if not env.committed:
        return env.digest == payload_digest(env.payload)
    if not seed:
        return None
    return env.digest == payload_commitment(seed, env.game_id, env.seq, env.payload)


def verify_chain(
    envelopes: Iterable[Envelope],
    *,
    start_seq: int = 1,
    prev_hash: str = GENESIS_HASH,
    game_id: str | None = None,
    epochs: Epochs | None = None,
) -> int:
    """Check every link of a chain and return the number of events verified.

    Raises ChainBroken naming the first bad seq: a seq out of order (an event removed or
    reordered), a prev-hash that does not link, a version-1 envelope after a version-2 one,
    a hash that does not match its fields (an edited event), or a payload its digest does
    not cover. A secret payload's
    commitment is opened with the key `epochs` gives for it (`Epochs.key_of`: a hidden
    roll's epoch seed, a ruleset secret's sealing key); while that is unpublished only its
    link is checked.
    """
    expected_seq = start_seq
    count = 0
    committed: list[Envelope] = []
    current_since = 0  # the first seq sealed by the current envelope version (0: none yet)
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
        if env.envelope_version == ENVELOPE_VERSION and not current_since:
            current_since = env.seq
        elif env.envelope_version != ENVELOPE_VERSION and current_since:
            # Version 1 hashed the payload itself (a guess can be tested against it); every
            # event since version 2 is sealed by its rule, so an old one after is a forgery.
            raise ChainBroken(
                f"event {env.seq} is sealed as envelope version {env.envelope_version} after "
                f"version {ENVELOPE_VERSION} events (from seq {current_since}): a log never "
                "goes back to the old rule",
                seq=env.seq,
                reason="envelope_downgrade",
            )
        if expected_hash(env) != env.hash:
            raise ChainBroken(
                f"event {env.seq} does not match its hash: its content was changed",
                seq=env.seq,
                reason="hash_mismatch",
            )
        if env.committed:
            committed.append(env)  # opened once every link and public digest holds
        elif digest_matches(env, None) is False:
            raise _payload_mismatch(env)
        prev_hash = env.hash
        expected_seq += 1
        count += 1
    if epochs is not None:
        for env in committed:
            if digest_matches(env, epochs.key_of(env)) is False:
                raise _payload_mismatch(env)
    return count


def _payload_mismatch(env: Envelope) -> ChainBroken:
    return ChainBroken(
        f"event {env.seq}: its payload does not match its "
        f"{'commitment' if env.committed else 'digest'}: its content was changed",
        seq=env.seq,
        reason="payload_mismatch",
    )


class Damage(Struct, frozen=True):
    """Stored events `first`..`last` of a game that are damaged or missing: `reason` is a
    code (missing, undecodable, foreign_event, broken_link, hash_mismatch,
    payload_mismatch), `message` says it in words."""

    first: int
    last: int
    reason: str
    message: str

    def describe(self, game_id: str) -> str:
        seqs = (
            f"seq {self.first}"
            if self.first == self.last
            else (f"seqs {self.first} to {self.last}")
        )
        return f"game {game_id} {seqs}: {self.message}"


def chain_damages(
    entries: Iterable[tuple[int, Envelope | Exception]],
    *,
    game_id: str,
    epochs: Epochs | None = None,
) -> list[Damage]:
    """Every damage of a stored chain, not only the first (verify_chain stops there).

    `entries` are (seq the store filed it under, the envelope or why it did not decode),
    in seq order. A missing run of seqs is one Damage; an event that does not decode, does
    not match its hash or its payload's digest or commitment (opened with `epochs`' keys
    where they are given), or does not link to the one before, is named by its seq. After
    a damaged event the next link is not held against it (its own hash field may be what
    changed), so one changed event is named once.
    """
    found: list[Damage] = []
    expected = 1
    prev: str | None = GENESIS_HASH
    for seq, item in entries:
        if seq > expected:
            found.append(Damage(expected, seq - 1, "missing", "missing from the store"))
            prev = None
        expected = seq + 1
        if isinstance(item, Exception):
            found.append(Damage(seq, seq, "undecodable", f"does not decode ({item})"))
            prev = None
            continue
        env = item
        problem: tuple[str, str] | None = None
        if env.game_id != game_id or env.seq != seq:
            problem = ("foreign_event", f"holds event {env.seq} of game {env.game_id!r}")
        elif expected_hash(env) != env.hash:
            problem = ("hash_mismatch", "does not match its hash: its content was changed")
        elif prev is not None and env.prev_hash != prev:
            problem = ("broken_link", "does not link to the event before it")
        else:
            key = epochs.key_of(env) if (env.committed and epochs is not None) else None
            if digest_matches(env, key) is False:
                what = "commitment" if env.committed else "digest"
                problem = ("payload_mismatch", f"its payload does not match its {what}")
        if problem is not None:
            found.append(Damage(seq, seq, *problem))
            prev = None
            continue
        prev = env.hash
    return found


def merged(damages: Iterable[Damage]) -> list[Damage]:
    """Neighbouring damages of one reason as one range."""
    out: list[Damage] = []
    for damage in damages:
        last = out[-1] if out else None
        if last is not None and last.reason == damage.reason and last.last + 1 == damage.first:
            out[-1] = Damage(last.first, damage.last, last.reason, last.message)
        else:
            out.append(damage)
    return out
