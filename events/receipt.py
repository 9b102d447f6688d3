"""Receipts (docs/audit.md "Receipts"): what a reply or a state frame lets a role keep.

A receipt names the head of the log (seq and hash) and a state hash over the view that the
role receiving it may see at that head. The state hash is computed from that view only,
never from the whole state, so it tells the role nothing it was not shown (a hash of the
full state would let a player search for hidden values).

state_hash = SHA-256("umpire-receipt:" || seq || ":" || head_hash || ":" || view JSON),
with the view as canonical JSON: keys sorted, no whitespace, UTF-8.
"""

from __future__ import annotations

import hashlib
from typing import Any

from umpire.events.codec import canonical_json

RECEIPT_LABEL = b"umpire-receipt:"


def receipt_state_hash(seq: int, head_hash: str, view: Any) -> str:
    """The state hash of a receipt: the view a role was sent at `seq`, bound to the head."""
    body = RECEIPT_LABEL + f"{seq}:{head_hash}:".encode() + canonical_json(view)
    return hashlib.sha256(body).hexdigest()
