"""The state frames a game's feed (server/game_feed.py `GameFeed`) pushes after each batch to the
subscribers that asked for `views` (docs/protocol.md): built once per role and batch, in
the background, and never sent before the events they follow."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from umpire.engine.roles import Role
from umpire.server.framing import Batch

if TYPE_CHECKING:
    # Types only: the feed imports this module.
    from umpire.server.game_feed import StateBuilder
    from umpire.server.subscription import Subscription

log = logging.getLogger("umpire.feed")

_ROLES = {role: index for index, role in enumerate(Role)}


class PushedStates:
    """A feed's pushed state frames, one per role and batch."""

    # The state kept here (set by GameFeed.__init__); the feed's own slots hold the rest.
    __slots__ = ("_states_again", "_states_task", "states")

    states: dict[Role, tuple[int, bytes]] | None
    _states_task: asyncio.Task[None] | None
    _states_again: bool

    # What is read of the feed (server/game_feed.py `GameFeed`).
    game_id: str
    head: int
    state_builder: StateBuilder | None
    subscriptions: dict[Subscription, None]

    def _want_states(self) -> None:
        """After a batch: build the state frame of each role a subscriber asked views for,
        in the background (the rules' legal actions run off the loop), then offer them."""
        if self.state_builder is None or not any(s.views for s in self.subscriptions):
            return
        task = self._states_task
        if task is not None and not task.done():
            self._states_again = True  # the running build looks at the head once more
            return
        self._states_task = asyncio.create_task(self._build_states())

    async def _build_states(self) -> None:
        builder = self.state_builder
        assert builder is not None
        if self.states is None:
            self.states = {}
        states = self.states
        while True:
            self._states_again = False
            roles = {s.role for s in self.subscriptions if s.views}
            for role in sorted(roles, key=_ROLES.__getitem__):
                built = states.get(role)
                if built is not None and built[0] >= self.head:
                    continue
                try:
                    states[role] = await builder(self.game_id, role)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # the store away: the next batch builds again
                    log.warning("game %s: no state frame for %s: %r", self.game_id, role, exc)
            for sub in list(self.subscriptions):
                self._offer_state(sub)
            if not self._states_again:
                return

    def _offer_state(self, sub: Subscription) -> None:
        """Send `sub` its role's newest state frame if it has every event up to it and
        was not sent it yet (so a state never comes before the events it follows)."""
        if not sub.views:
            return
        built = None if self.states is None else self.states.get(sub.role)
        if built is None:
            return
        seq, frame = built
        if not sub.state_seq < seq < sub.next_seq:
            return
        try:
            # No room in its queue: this one is skipped (the next batch's state follows).
            if sub.sink.offer(Batch([frame])):
                sub.state_seq = seq
        except Exception:  # one subscriber's failure never stops the others'
            log.exception("a state frame to a subscriber failed")
