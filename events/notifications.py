"""What a store tells its readers: a game's log moved on, a credential was revoked. Both
are hints: the log and the credential digests are the truth, and the server polls
versions and re-checks grants for whatever a hint missed.

The contract is the store's, so it lives here with `EventStore` (events/store.py); the
server hears through it. The Redis adapter is events/redis_channels.py (pub/sub; sharded
on a cluster).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from umpire.events.backoff import Backoff


class GameChannels(Protocol):
    """The games one gateway watches: `on_appended(game_id)` runs (synchronously, as the
    notification is read) whenever a watched game's log moves on."""

    def start(self) -> None:
        """Start listening."""
        ...

    async def watch(self, game_id: str) -> None:
        """Hear `game_id` from now on (never raises: the version poll covers a failure)."""
        ...

    async def unwatch(self, game_id: str) -> None:
        """Stop hearing `game_id` (never raises)."""
        ...

    async def close(self) -> None:
        """Stop listening and let go of the connections."""
        ...


class RevocationHearing(Protocol):
    """One subscription to the revocation announcements."""

    ended: bool  # the store ended the subscription: subscribe again (messages may be lost)

    async def message(self, timeout: float) -> str | None:
        """The next announcement's text, or None (nothing within `timeout`, or `ended`)."""
        ...

    async def close(self) -> None:
        """Close the subscription."""
        ...


class Notifications(Protocol):
    """The store's notifications."""

    def game_channels(
        self,
        on_appended: Callable[[str], None],
        backoff: Backoff,
        pauses: Callable[[], Backoff],
    ) -> GameChannels:
        """Game channels reporting to `on_appended`; `backoff` paces reconnecting the one
        connection, `pauses()` makes the pacing of each further one (a cluster's shards)."""
        ...

    async def announce_revocation(self, message: str) -> None:
        """Tell every gateway `message` (StoreUnavailable if the store cannot be reached)."""
        ...

    async def hear_revocations(self) -> RevocationHearing:
        """A new subscription to the announcements (raises what the store raised)."""
        ...
