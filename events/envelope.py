"""The stored record of one event: a small frozen struct of ids, version, tag and bytes.

The payload stays encoded (canonical MessagePack) inside the envelope, so the store never
needs a ruleset's types and the hash covers exactly the bytes that were written.
"""

from __future__ import annotations

import hashlib
import re

import msgspec
from msgspec import Struct

from events.errors import CorruptEvent, InvalidCommandId, InvalidGameId

GENESIS_HASH = "0" * 64

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


class Envelope(Struct, frozen=True, kw_only=True, gc=False):
    """One event as stored: position, type, payload bytes and its link in the hash chain.

    Not tracked by the garbage collector (`gc=False`): its fields are strings, numbers and
    bytes, so it can never be part of a reference cycle, and a gateway holds thousands of
    them in its feeds' windows, which every full collection would otherwise visit."""

    game_id: str
    seq: int
    type: str
    version: int
    payload: bytes
    command_id: str
    recorded_at: str
    prev_hash: str
    hash: str


_hash_encoder = msgspec.msgpack.Encoder()
_envelope_encoder = msgspec.msgpack.Encoder()
_envelope_decoder = msgspec.msgpack.Decoder(Envelope)


def expected_hash(envelope: Envelope) -> str:
    """The hash an envelope ought to carry: SHA-256 over the canonical encoding of every
    field but the hash itself, in declaration order."""
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
) -> Envelope:
    """Build an envelope and its hash."""
    unsealed = Envelope(
        game_id=game_id,
        seq=seq,
        type=type,
        version=version,
        payload=payload,
        command_id=command_id,
        recorded_at=recorded_at,
        prev_hash=prev_hash,
        hash="",
    )
    return msgspec.structs.replace(unsealed, hash=expected_hash(unsealed))


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
