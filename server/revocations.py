"""Revocations pushed to every gateway as they happen.

`credentials.revoke` deletes the credential's hash and then publishes `<game id>
<digest>` on the revocations channel (PUBLISH; SPUBLISH on a cluster, where the channel is
hash-tagged onto one shard). Redis writes the message to every subscriber before it
answers the publisher, so by the time the operator is told "revoked", each gateway has the
message in its socket; the gateway drops the grant as it reads it, with no await between,
and every later message of a connection that held it is refused.

A subscription that breaks (the store restarted, a slot moved) may have missed messages:
on every (re)subscribe the gateway re-checks every grant it holds against the store, and
the periodic re-check (`UMPIRE_CREDENTIAL_RECHECK_SECONDS`) stays as the last fallback.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from umpire.events.backoff import Backoff
from umpire.events.notifications import RevocationHearing
from umpire.events.store import Store
from umpire.server import background
from umpire.server.revocation_announcements import parse

log = logging.getLogger("umpire.revocations")


class RevocationListener:
    """Hears every revocation on one pub/sub connection and reports each at once.

    `on_revoked(game_id, digest)` runs synchronously as the message is read;
    `on_resubscribed()` runs after every (re)subscribe, since messages may have been
    missed while there was no subscription.
    """

    def __init__(
        self,
        store: Store,
        on_revoked: Callable[[str, str], None],
        on_resubscribed: Callable[[], None],
    ) -> None:
        self.store = store
        self.on_revoked = on_revoked
        self.on_resubscribed = on_resubscribed
        self.task: asyncio.Task[None] | None = None
        self._pubsub: RevocationHearing | None = None  # the subscription, once made
        self.backoff = Backoff()  # between tries to subscribe while the store is away

    def start(self) -> None:
        """Start listening (in a task of its own)."""
        self.task = asyncio.create_task(self._run(), name="revocations")

    async def stop(self) -> None:
        """Stop listening and close the connection."""
        if self.task is not None:
            await background.cancel_all([self.task])  # a cancellation of stop() propagates
        await self._close()

    async def _close(self) -> None:
        hearing, self._pubsub = self._pubsub, None
        if hearing is not None:
            await hearing.close()

    async def _run(self) -> None:
        me = asyncio.current_task()
        # Checking `cancelling()`: redis-py swallows a cancellation that comes while the
        # subscribe connects, and the task then listened forever, so `stop` (the gateway's
        # teardown) never returned (tests/server/test_gateway_teardown.py).
        while me is None or not me.cancelling():
            try:
                self._pubsub = hearing = await self.store.notifications.hear_revocations()
                self.backoff.reset()
                self.on_resubscribed()
                while me is None or not me.cancelling():
                    text = await hearing.message(timeout=1.0)
                    if hearing.ended:
                        break  # the slot moved: subscribe where it is now
                    found = parse(text) if text is not None else None
                    if found is not None:
                        self.on_revoked(*found)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the store away: subscribe again, then re-check
                pause = self.backoff.next()
                log.warning("revocation listener: %s; next try in %.2f s", exc, pause)
                await asyncio.sleep(pause)
            await self._close()
