"""A session's subscriptions (server/session.py): `subscribe` and `unsubscribe`, as effects
(`Follow`, `Unfollow`) the connection carries out. No I/O: the feed and the store's
answers are asked of the driver (server/requests.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from umpire.engine.roles import Role
from umpire.events.errors import FromSeqPastHead, LogGap, LogRewound, StoreUnreachable
from umpire.events.wire import (
    Error,
    Subscribe,
    Subscribed,
    ViewState,
    encoder,
)
from umpire.server import credentials
from umpire.server.admission import TooManySubscriptions
from umpire.server.requests import (
    AcknowledgedHead,
    FeedHead,
    Follow,
    OpenFeed,
    Output,
    ReadVersion,
    Steps,
    StopCatchUp,
    Unfollow,
)
from umpire.server.subscription import Sink, Subscription

if TYPE_CHECKING:
    # Types only: the session imports this module, and imports no pydantic at run time.
    from umpire.server.config import Settings


class Subscriptions:
    """The session's subscriptions, by game id."""

    __slots__ = ()

    # What is read of the session (server/session.py `Session`).
    settings: Settings
    holder: Sink
    subs: dict[str, Subscription]
    outbox: list[Output]

    if TYPE_CHECKING:  # the session's own, Grants' and Views' (server/grants.py, views.py)

        def _reply(self, message: Any) -> None: ...
        def _present(
            self, game_id: str, credential: str, request_id: str | None
        ) -> Steps[None]: ...
        def _role(self, game_id: str) -> Role: ...
        def _verified_for(self, game_id: str, credential: str) -> Steps[Role]: ...
        def _grant(self, game_id: str, role: Role, digest: str) -> None: ...
        def _still_valid(self, game_id: str) -> Steps[None]: ...
        def _view(self, game_id: str, role: Role, request_id: str | None) -> Steps[ViewState]: ...

    def _subscribe(self, msg: Subscribe) -> Steps[None]:
        # The limit first, and a game credential granted only once nothing refuses the
        # subscription: a refused subscribe changes nothing, the connection's grants
        # included (red team 9: one with the game's spectator credential, refused by the
        # limit or as past the log, had turned the player's grant into a spectator's).
        if msg.game_id not in self.subs and len(self.subs) >= self.settings.max_subscriptions:
            raise TooManySubscriptions(
                f"at most {self.settings.max_subscriptions} subscriptions per connection: "
                "unsubscribe from another game first, or use another connection",
                limit=self.settings.max_subscriptions,
            )
        presented: Role | None = None
        if msg.credential and credentials.is_operator(msg.credential, self.settings.operator_token):
            yield from self._present(msg.game_id, msg.credential, msg.id)
        elif msg.credential:
            presented = yield from self._verified_for(msg.game_id, msg.credential)
        else:
            yield from self._still_valid(msg.game_id)
        role = presented if presented is not None else self._role(msg.game_id)
        # The old subscription's feed is released after the new one holds it (Unfollow
        # runs after this returns), so a resubscribe keeps the game's feed open.
        start = msg.from_seq or 0
        known = yield FeedHead(msg.game_id)
        if start > (known or 0):
            yield from self._log_reaches(msg.game_id, start)
        if presented is not None and msg.credential:
            self._grant(msg.game_id, presented, credentials.fingerprint(msg.credential)[1])
        yield from self._unfollow(msg.game_id)
        feed = yield OpenFeed(msg.game_id)
        self._reply(
            Subscribed(
                game_id=msg.game_id, from_seq=start, head=feed.head, role=role.value, id=msg.id
            )
        )
        sub = Subscription(feed, self.holder, role, start + 1, views=msg.views)
        # Counted on the feed before the next request: a feed nobody is counted on is
        # released when its last subscriber leaves, and a subscription attached to a
        # released feed would never hear of another event. Counted is not live: delivery
        # starts with the Follow below.
        feed.attach(sub)
        if msg.view:
            # A failed view leaves no subscription, and the feed is released with it (the
            # Unfollow of a never-served sub).
            try:
                view = yield from self._view(msg.game_id, role, msg.id)
            except BaseException:
                feed.detach(sub)
                self.outbox.append(Unfollow(sub))
                raise
            self._reply(view)
            sub.state_seq = view.seq  # a pushed state frame follows only a later batch
            if msg.from_seq is None:
                sub.next_seq = view.seq + 1
        self.subs[msg.game_id] = sub
        self.outbox.append(Follow(sub))

    def _log_reaches(self, game_id: str, start: int) -> Steps[None]:
        """Refuse a subscribe `from_seq` past the end of the log. Its client holds events
        the store has lost (a `log_rewound` it missed while away): resumed there, it
        would take the new events that reuse those seqs for the ones after what it
        holds. Or, where the head checkpoints say no event that far was ever
        acknowledged (so none was ever sent), the seq is a mistake: `from_seq_past_head`,
        saying what is allowed. Asked of the store only when this gateway's feed is
        behind `start` (or not open): a feed may lag the log, never lead it."""
        try:
            head = yield ReadVersion(game_id)
        except StoreUnreachable as exc:
            raise exc.unavailable(game_id, "retry later") from exc
        if not 0 < head < start:  # no log at all: the feed says game_not_found
            return
        allowed = f"allowed: 0 to {head} (the last seq you hold; 0: from the start)"
        acknowledged = yield AcknowledgedHead(game_id)
        if acknowledged is not None and acknowledged < start:
            raise FromSeqPastHead(
                f"from_seq {start} is past the end of the log of game {game_id!r}, which "
                f"ends at seq {head}, and no event after seq {max(acknowledged, head)} of it "
                f"was ever sent: {allowed}",
                game_id=game_id,
                head=head,
                from_seq=start,
            )
        raise LogRewound(
            f"the log of game {game_id!r} ends at seq {head}, before from_seq {start}: "
            "the store lost events you were sent; drop what you hold after that seq "
            f"and subscribe again (with view); {allowed}",
            game_id=game_id,
            head=head,
            from_seq=start,
        )

    def unsubscribe(self, game_id: str) -> Subscription | None:
        """End the subscription to `game_id` at once: detached from its feed. The
        subscription, for the connection to stop (its catch-up task) and finish."""
        sub = self.subs.pop(game_id, None)
        if sub is None:
            return None
        sub.feed.detach(sub)
        return sub

    def _unfollow(self, game_id: str) -> Steps[None]:
        sub = self.unsubscribe(game_id)
        if sub is not None:
            yield StopCatchUp(sub)  # at once: no frame of it after what this message sends
            self.outbox.append(Unfollow(sub))

    def gap_notice(self, game_id: str, first: int, last: int) -> bytes:
        """The unsolicited `log_gap` frame: the log of `game_id` skips `first`..`last`."""
        seqs = f"seq {first}" if first == last else f"seqs {first} to {last}"
        return encoder.encode(
            Error(
                code=LogGap.code,
                message=f"the store lost {seqs} of game {game_id!r} (its log holds seq "
                f"{first - 1}, then seq {last + 1}): nothing after seq {first - 1} can be sent "
                "in order, so the subscription was dropped; the operator's `umpire store "
                "check` names the loss, and `umpire store restore` puts a backup back",
                details={"game_id": game_id, "head": first - 1, "first": first, "last": last},
            )
        )

    def rewound_notice(self, game_id: str, head: int) -> bytes:
        """The unsolicited `log_rewound` frame: the log of `game_id` now ends at `head`."""
        return encoder.encode(
            Error(
                code=LogRewound.code,
                message=f"the log of game {game_id!r} now ends at seq {head}: the store lost "
                "events written after it, which you may have received; the subscription was "
                "dropped: drop what you hold after that seq and subscribe again (with view)",
                details={"game_id": game_id, "head": head},
            )
        )
