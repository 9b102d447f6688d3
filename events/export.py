"""The export format: JSON Lines, one envelope a line, payload as readable JSON.

Importing re-encodes each payload canonically and checks its hash, so an edited export is
refused at the first bad seq.
"""

from __future__ import annotations

import base64
from typing import Any

import msgspec

from events.codec import EventRegistry, canonical_bytes
from events.envelope import Envelope

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
    }
    return _json.encode(record).decode()


def line_to_envelope(record: dict[str, Any], codec: EventRegistry) -> Envelope:
    """An envelope from one export record, its payload re-encoded canonically."""
    event = codec.from_builtins(record["type"], record["version"], record["payload"],
                                seq=record.get("seq", 0))  # fmt: skip
    return Envelope(
        game_id=record["game_id"],
        seq=record["seq"],
        type=record["type"],
        version=record["version"],
        payload=canonical_bytes(event),
        command_id=record["command_id"],
        recorded_at=record["recorded_at"],
        prev_hash=record["prev_hash"],
        hash=record["hash"],
    )


def raw_payload_b64(env: Envelope) -> str:
    """Base64 of the stored payload bytes (debugging aid)."""
    return base64.b64encode(env.payload).decode()
