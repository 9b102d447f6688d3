"""The stored record of one event: a small frozen struct of ids, version, tag and bytes.

The payload stays encoded (canonical MessagePack) inside the envelope, so the store never
needs a ruleset's types and the hash covers exactly the bytes that were written.
"""

from __future__ import annotations

import hashlib
import hmac
import re

import msgspec
from msgspec import Struct

from umpire.events.errors import CorruptEvent, InvalidCommandId, InvalidGameId

GENESIS_HASH = "0" * 64

# Envelope versions (docs/audit.md "The hash chain"). Version 1 hashed the payload bytes
# themselves, so the hash of a redacted event let anyone search for its hidden content;
# it stays verifiable by its own rule. Version 2 hashes a payload digest instead: SHA-256
# of the payload for a public event, a commitment keyed from the game's seed for a secret
# one (it opens at the reveal).
LEGACY_ENVELOPE = 1
ENVELOPE_VERSION = 2
COMMITMENT_LABEL = b"umpire-commitment:"

# Game ids appear inside Redis keys with a {hash tag}: braces, colons and whitespace would
# break the tag or the key layout, so the alphabet is closed.
GAME_ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
COMMAND_ID_PATTERN = re.compile(r"^[A-Za-z0-9_.:-]{1,128}$")


def check_game_id(game_id: str) -> str:
    """Return `game_id` if it is legal, else raise InvalidGameId saying what is allowed."""
    if not isinstance(game_id, str) or not GAME_ID_PATTERN.fullmatch(game_id):
        raise InvalidGameId(
            f"game id {game_id!r} is not allowed: use 1 to 64 characters from "
            "A-Z, a-z, 0-9, '_' and '-'",
            game_id=str(game_id)[:80],
        )
    return game_id


def check_command_id(command_id: str) -> str:
    """Return `command_id` if it is legal, else raise InvalidCommandId."""
    if not isinstance(command_id, str) or not COMMAND_ID_PATTERN.fullmatch(command_id):
        raise InvalidCommandId(
            f"command id {command_id!r} is not allowed: use 1 to 128 characters from "
            "A-Z, a-z, 0-9 and '_.:-'",
            command_id=str(command_id)[:140],
        )
    return command_id


class Envelope(Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """One event as stored: position, type, payload bytes and its link in the hash chain.

    Not tracked by the garbage collector (`gc=False`): its fields are strings, numbers and
    bytes, so it can never be part of a reference cycle, and a gateway holds thousands of
    them in its feeds' windows, which every full collection would otherwise visit.

    The version-2 fields have defaults (an old record decodes as version 1); an unknown
    key is refused, so a damaged key name cannot pass for a defaulted field."""

    game_id: str
    seq: int
    type: str
    version: int
    payload: bytes
    command_id: str
    recorded_at: str
    prev_hash: str
    hash: str
    envelope_version: int = LEGACY_ENVELOPE
    digest: str = ""
    committed: bool = False


def payload_digest(payload: bytes) -> str:
    """The digest of a public payload: SHA-256 of its bytes, hex."""
    return hashlib.sha256(payload).hexdigest()


def commitment_key(seed: bytes, game_id: str, seq: int) -> bytes:
    """The key of event `seq`'s commitment: HMAC-SHA256(seed, "umpire-commitment:<game>:<seq>"),
    `seed` being the raw bytes of the seed of the event's epoch."""
    label = COMMITMENT_LABEL + f"{game_id}:{seq}".encode()
    return hmac.new(seed, label, hashlib.sha256).digest()


def payload_commitment(seed: bytes, game_id: str, seq: int, payload: bytes) -> str:
    """The digest of a secret payload: HMAC-SHA256(commitment_key, payload), hex. Without
    the seed it is a keyed hash nobody can search; with the revealed seed anyone opens it."""
    return hmac.new(commitment_key(seed, game_id, seq), payload, hashlib.sha256).hexdigest()


_hash_encoder = msgspec.msgpack.Encoder()
_envelope_encoder = msgspec.msgpack.Encoder()
_envelope_decoder = msgspec.msgpack.Decoder(Envelope)


def _hash_v2(
    game_id: str,
    seq: int,
    type: str,
    version: int,
    digest: str,
    committed: bool,
    command_id: str,
    recorded_at: str,
    prev_hash: str,
) -> str:
    """The version-2 hash of an envelope with these fields (see `expected_hash`)."""
    body = _hash_encoder.encode(
        (ENVELOPE_VERSION, game_id, seq, type, version, digest, committed, command_id,
         recorded_at, prev_hash)
    )  # fmt: skip
    return hashlib.sha256(body).hexdigest()


def expected_hash(envelope: Envelope) -> str:
    """The hash an envelope ought to carry (docs/audit.md "The hash chain").

    Version 2: SHA-256 over the MessagePack array [2, game_id, seq, type, version, digest,
    committed, command_id, recorded_at, prev_hash]: the payload enters only through its
    digest. Version 1 (old logs): SHA-256 over [game_id, seq, type, version, payload bytes,
    command_id, recorded_at, prev_hash]. Any other version matches no hash."""
    if envelope.envelope_version == ENVELOPE_VERSION:
        return _hash_v2(
            envelope.game_id,
            envelope.seq,
            envelope.type,
            envelope.version,
            envelope.digest,
            envelope.committed,
            envelope.command_id,
            envelope.recorded_at,
            envelope.prev_hash,
        )
    if envelope.envelope_version != LEGACY_ENVELOPE:
        return ""
    body = _hash_encoder.encode(
        (
            envelope.game_id,
            envelope.seq,
            envelope.type,
            envelope.version,
            envelope.payload,
            envelope.command_id,
            envelope.recorded_at,
            envelope.prev_hash,
        )
    )
    return hashlib.sha256(body).hexdigest()


def seal(
    *,
    game_id: str,
    seq: int,
    type: str,
    version: int,
    payload: bytes,
    command_id: str,
    recorded_at: str,
    prev_hash: str,
    commit_seed: bytes | None = None,
    digest: str = "",
    envelope_version: int = ENVELOPE_VERSION,
) -> Envelope:
    """Build an envelope and its hash.

    With `commit_seed` (the seed of the event's epoch) the payload is secret and enters the
    hash as a commitment; without it, as its SHA-256. `digest` given (re-sealing an
    imported event) is used as it is, committed when `commit_seed` is None and it is not
    the payload's SHA-256. `envelope_version` 1 re-seals an old event by the old rule."""
    committed = commit_seed is not None
    if envelope_version == LEGACY_ENVELOPE:
        digest, committed = "", False
    elif digest:
        committed = digest != payload_digest(payload)
    elif commit_seed is not None:
        digest = payload_commitment(commit_seed, game_id, seq, payload)
    else:
        digest = payload_digest(payload)
    # Every append seals each of its events here: a current envelope is built once, with its
    # hash; an old one (re-sealed by the old rule) gets its hash from the built envelope.
    current = envelope_version == ENVELOPE_VERSION
    own = (
        _hash_v2(game_id, seq, type, version, digest, committed, command_id, recorded_at, prev_hash)
        if current
        else ""
    )
    envelope = Envelope(
        game_id=game_id,
        seq=seq,
        type=type,
        version=version,
        payload=payload,
        command_id=command_id,
        recorded_at=recorded_at,
        prev_hash=prev_hash,
        hash=own,
        envelope_version=envelope_version,
        digest=digest,
        committed=committed,
    )
    if current:
        return envelope
    return msgspec.structs.replace(envelope, hash=expected_hash(envelope))


def public_record(
    game_id: str,
    seq: int,
    type: str,
    version: int,
    payload: bytes,
    command_id: str,
    recorded_at: str,
    prev_hash: str,
) -> tuple[str, bytes]:
    """The hash and stored bytes of a current public event: `encode_envelope(seal(...))`
    with no commitment, digest or old version given, the same bytes in one call.

    Every event a command appends is sealed: `seal` by keywords, then its digest, hash and
    encoding each a call of its own, was four Python calls and a keyword parse an event."""
    digest = hashlib.sha256(payload).hexdigest()
    body = _hash_encoder.encode(
        (ENVELOPE_VERSION, game_id, seq, type, version, digest, False, command_id,
         recorded_at, prev_hash)
    )  # fmt: skip
    own = hashlib.sha256(body).hexdigest()
    envelope = Envelope(
        game_id=game_id, seq=seq, type=type, version=version, payload=payload,
        command_id=command_id, recorded_at=recorded_at, prev_hash=prev_hash, hash=own,
        envelope_version=ENVELOPE_VERSION, digest=digest, committed=False,
    )  # fmt: skip
    return own, _envelope_encoder.encode(envelope)


def encode_envelope(envelope: Envelope) -> bytes:
    """MessagePack bytes of an envelope, as kept in the Redis stream."""
    return _envelope_encoder.encode(envelope)


def decode_envelope(data: bytes, *, where: str = "") -> Envelope:
    """Decode stored bytes into an Envelope, or raise CorruptEvent."""
    try:
        return _envelope_decoder.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as exc:
        raise CorruptEvent(
            f"stored event {where or '(unknown position)'} does not decode as an envelope: {exc}",
            where=where,
        ) from exc
