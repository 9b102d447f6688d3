"""What a session (server/session.py) leaves for its connection to carry out.

Frames to send (bytes) and effects: `Follow`, `Unfollow` and `Close`.
"""

from __future__ import annotations

from dataclasses import dataclass

from umpire.server.feed import Subscription


@dataclass(frozen=True, slots=True)
class Follow:
    """Serve `sub` (attached to its feed, owed `sub.next_seq`): catch it up, then live."""

    sub: Subscription


@dataclass(frozen=True, slots=True)
class Unfollow:
    """`sub` was detached from its feed and its catch-up cancelled: wait for that to end
    (no frame of it may follow what comes next), then release the feed."""

    sub: Subscription


@dataclass(frozen=True, slots=True)
class Close:
    """Close the connection with `code` (the reader goes on draining for the handshake)."""

    code: int
    reason: str


# What `receive` leaves in the outbox, in the order it must be carried out.
Output = bytes | Follow | Unfollow | Close
