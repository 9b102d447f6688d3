"""The export format: JSON Lines, one envelope a line, payload as readable JSON and as
the canonical bytes the hash chain covers (base64, `payload_b64`), with the envelope
version, payload digest and commitment flag: everything docs/audit.md needs to recompute
every hash without umpire's code.

Importing takes the bytes, checks that the readable payload re-encodes to exactly them
(an edit of either is refused), and checks the hash chain, so an edited export is refused
at the first bad seq.
"""

from __future__ import annotations

import base64
from typing import Any

import msgspec

from umpire.events.codec import EventRegistry, canonical_bytes
from umpire.events.envelope import LEGACY_ENVELOPE, Envelope
from umpire.events.errors import CorruptEvent

EXPORT_FORMAT = "umpire-export/1"

_json = msgspec.json.Encoder(order="deterministic")


def envelope_to_line(env: Envelope, codec: EventRegistry) -> str:
    """One export line: envelope fields with the payload decoded to JSON."""
    payload = msgspec.to_builtins(codec.decode(env.type, env.version, env.payload, seq=env.seq))
    record: dict[str, Any] = {
        "game_id": env.game_id,
        "seq": env.seq,
        "type": env.type,
        "version": env.version,
        "payload": payload,
        "command_id": env.command_id,
        "recorded_at": env.recorded_at,
        "prev_hash": env.prev_hash,
        "hash": env.hash,
        "envelope_version": env.envelope_version,
        "digest": env.digest,
        "committed": env.committed,
        "payload_b64": raw_payload_b64(env),
    }
    return _json.encode(record).decode()


def line_to_envelope(record: dict[str, Any], codec: EventRegistry) -> Envelope:
    """An envelope from one export record: its payload bytes from `payload_b64` (older
    exports: the readable payload re-encoded canonically), which the readable payload must
    re-encode to exactly, else CorruptEvent."""
    seq = record.get("seq", 0)
    event = codec.from_builtins(record["type"], record["version"], record["payload"], seq=seq)
    readable = canonical_bytes(event)
    payload = readable
    if "payload_b64" in record:
        try:
            payload = base64.b64decode(record["payload_b64"], validate=True)
        except (ValueError, TypeError) as exc:
            raise CorruptEvent(f"event {seq}: payload_b64 is not base64: {exc}", seq=seq) from exc
        if payload != readable:
            raise CorruptEvent(
                f"event {seq}: the readable payload does not re-encode to payload_b64: "
                "one of them was edited",
                seq=seq,
            )
    return Envelope(
        game_id=record["game_id"],
        seq=record["seq"],
        type=record["type"],
        version=record["version"],
        payload=payload,
        command_id=record["command_id"],
        recorded_at=record["recorded_at"],
        prev_hash=record["prev_hash"],
        hash=record["hash"],
        envelope_version=record.get("envelope_version", LEGACY_ENVELOPE),
        digest=record.get("digest", ""),
        committed=record.get("committed", False),
    )


def raw_payload_b64(env: Envelope) -> str:
    """Base64 of the stored payload bytes (the bytes the digest or the old hash covers)."""
    return base64.b64encode(env.payload).decode()
