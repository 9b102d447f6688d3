"""The store as server/ sees it: the event log (events/store.py `EventStore`), the
credential digests (`CredentialStore`) and the notifications (`Notifications`).

server/ types against these protocols; the one implementation is the Redis adapter,
`umpire.events.redis_store.RedisEventStore`, built only by server/store_access.py (docs/
architecture.md "The store boundary").
"""

from __future__ import annotations

from typing import Protocol

from umpire.events.store import EventStore
from umpire.server.credential_store import CredentialStore
from umpire.server.notifications import Notifications


class Store(EventStore, Protocol):
    """An event store with its credential digests and notifications."""

    @property
    def credentials(self) -> CredentialStore:
        """The credential digests of every game."""
        ...

    @property
    def notifications(self) -> Notifications:
        """Appends and revocations as they happen."""
        ...
