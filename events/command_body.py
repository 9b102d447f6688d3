"""A command's body, bound to its command id (issue 42; docs/protocol.md "Commands").

A command id is an idempotency key: sent again, it answers with the first result and
writes nothing. That holds only for the same command. The store keeps, beside each
command id's first result, a hash of the body it was sent with, and the same id with
another body is refused (`command_id_reused`), as a payment API refuses an idempotency
key reused for another payment. Otherwise a client that reused an id (a bug, or a
counter restarted at 1) would be told `accepted, duplicate` for a command that never ran.

The body is what the client sent that decides what happens: the `command` object (its
type and every field, keys in any order), the `dice` entered (or none) and the `nonce`
(or none). Not in it: `expected_seq` (a precondition of the first sending, which a resend
after it was applied no longer meets), the credential and the request id. Two bodies are
the same when these are the same JSON values; `{"amount": 1}` and `{"amount": 1.0}`
differ, and so does a field left to its default and one sent with the default's value.

The hash is the first 32 hex digits (128 bits) of SHA-256 over the body as JSON, keys
sorted, no whitespace, `["umpire-command-body/1", command, dice, nonce]` with `null` for
absent dice and `""` for no nonce. 128 bits keep the entry small (it is stored once per
command) and leave a client no way to find two of its own bodies that collide. Command
ids stored before bodies were hashed have none: those answer `duplicate` as before.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import msgspec

from umpire.events.errors import CommandIdReused

BODY_HASH_HEX = 32
_FORMAT = "umpire-command-body/1"
_encoder = msgspec.json.Encoder(order="sorted")


def body_hash(
    command: Any, dice: Sequence[Sequence[int]] | None = None, nonce: str | None = None
) -> str:
    """The hash of a command's body (module docstring)."""
    dice_list = [list(roll) for roll in dice] if dice is not None else None
    encoded = _encoder.encode([_FORMAT, command, dice_list, nonce or ""])
    return hashlib.sha256(encoded).hexdigest()[:BODY_HASH_HEX]


def check_same_body(game_id: str, command_id: str, kept: str, sent: str) -> None:
    """Refuse (CommandIdReused) a command id whose kept body hash is not the one sent;
    either empty (an entry from before bodies were hashed, a system batch) passes."""
    if kept and sent and kept != sent:
        raise CommandIdReused(
            f"command id {command_id!r} of game {game_id!r} was used for another command "
            "(another command, dice or nonce); nothing was written. Send this command "
            "under a new command id, or the first one again as it was",
            game_id=game_id,
            command_id=command_id,
        )
