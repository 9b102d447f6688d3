"""One connection's subscription to one game's feed, and where its live frames go.

A `Subscription` is what the session (server/session.py, no I/O) holds for each game a
client follows; the feed (server/game_feed.py) delivers to it through its `Sink`, the
connection. (server/subscriptions.py is the session's subscribe and unsubscribe.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from umpire.engine.roles import Role

if TYPE_CHECKING:
    # Types only: the session imports this module, and must import nothing that does I/O
    # (tests/server/test_session_purity.py).
    import asyncio

    from umpire.server.framing import Batch
    from umpire.server.game_feed import GameFeed


class Sink(Protocol):
    """Where a live subscription's frames go: a connection's outgoing queue."""

    def offer(self, batch: Batch) -> bool:
        """Send or queue every frame of `batch` without waiting; False (and nothing sent)
        if there is no room for all of them."""
        ...

    def lagging(self, sub: Subscription) -> None:
        """`sub` left live delivery at `sub.next_seq`: serve it from there until caught up."""
        ...

    async def gapped(self, sub: Subscription, first: int, last: int) -> None:
        """The game's log skips `first`..`last`: the subscription ends, and its client is
        told so."""
        ...

    async def rewound(self, sub: Subscription, head: int) -> None:
        """The game's log now ends at `head`, before events `sub` may have been sent: the
        subscription ends, and its client is told so."""
        ...


class Subscription:
    """One connection's subscription to one game: its role and the next seq it is owed.

    Live (in its feed's `live`) or catching up (`task` running), never both. With `views`
    it is also sent its role's `state` frame after each batch (`state_seq`: the seq of the
    last one it was sent)."""

    __slots__ = ("feed", "next_seq", "role", "sink", "state_seq", "task", "views")

    def __init__(
        self, feed: GameFeed, sink: Sink, role: Role, next_seq: int, *, views: bool = False
    ) -> None:
        self.feed = feed
        self.sink = sink
        self.role = role
        self.next_seq = next_seq
        self.task: asyncio.Task[None] | None = None
        self.views = views
        self.state_seq = 0
