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
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from events.redis_keys import revocations_channel
from events.redis_store import RedisEventStore
from server.backoff import Backoff
from server.store_access import node_client

log = logging.getLogger("umpire.revocations")


def announcement(game_id: str, digest: str) -> str:
    """The message that announces one revoked credential."""
    return f"{game_id} {digest}"


def parse(data: Any) -> tuple[str, str] | None:
    """(game id, digest) of an announcement; None for anything else."""
    text = data.decode(errors="replace") if isinstance(data, bytes) else str(data)
    game_id, _, digest = text.partition(" ")
    return (game_id, digest) if game_id and len(digest) == 64 else None


async def announce(store: RedisEventStore, game_id: str, digest: str) -> None:
    """Tell every gateway that a credential was revoked (after its hash is deleted)."""
    channel = revocations_channel(store.prefix)
    message = announcement(game_id, digest)
    if store.cluster:
        await store.redis.spublish(channel, message)
    else:
        await store.redis.publish(channel, message)


class RevocationListener:
    """Hears every revocation on one pub/sub connection and reports each at once.

    `on_revoked(game_id, digest)` runs synchronously as the message is read;
    `on_resubscribed()` runs after every (re)subscribe, since messages may have been
    missed while there was no subscription.
    """

    def __init__(
        self,
        store: RedisEventStore,
        on_revoked: Callable[[str, str], None],
        on_resubscribed: Callable[[], None],
    ) -> None:
        self.store = store
        self.on_revoked = on_revoked
        self.on_resubscribed = on_resubscribed
        self.channel = revocations_channel(store.prefix)
        self.task: asyncio.Task[None] | None = None
        self._pubsub: Any = None
        self._client: Any = None  # a cluster shard's own client
        self.backoff = Backoff()  # between tries to subscribe while the store is away

    def start(self) -> None:
        """Start listening (in a task of its own)."""
        self.task = asyncio.create_task(self._run(), name="revocations")

    async def stop(self) -> None:
        """Stop listening and close the connection."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        await self._close()

    async def _close(self) -> None:
        pubsub, self._pubsub = self._pubsub, None
        client, self._client = self._client, None
        with contextlib.suppress(Exception):
            if pubsub is not None:
                await pubsub.aclose()
            if client is not None:
                await client.aclose()

    async def _subscribe(self) -> Any:
        if not self.store.cluster:
            pubsub = self.store.redis.pubsub(ignore_subscribe_messages=False)
            await pubsub.subscribe(self.channel)
            return pubsub
        # The shard that serves the channel's slot now; a slot that moves ends the
        # subscription (an sunsubscribe push) and the loop subscribes again.
        # The slot map is loaded by a cluster client's first command: load it first, or
        # a gateway that has sent none yet finds no node for the channel.
        await self.store.redis.initialize()
        node = self.store.redis.get_node_from_key(self.channel)
        self._client = node_client(node)
        pubsub = self._client.pubsub(ignore_subscribe_messages=False)
        await pubsub.ssubscribe(self.channel)
        return pubsub

    async def _run(self) -> None:
        me = asyncio.current_task()
        # Checking `cancelling()`: redis-py swallows a cancellation that comes while the
        # subscribe connects, and the task then listened forever, so `stop` (the gateway's
        # teardown) never returned (tests/server/test_gateway_teardown.py).
        while me is None or not me.cancelling():
            try:
                self._pubsub = await self._subscribe()
                self.backoff.reset()
                self.on_resubscribed()
                while me is None or not me.cancelling():
                    message = await self._pubsub.get_message(timeout=1.0)
                    if message is None:
                        continue
                    kind = message.get("type")
                    if kind in ("unsubscribe", "sunsubscribe"):
                        break  # the slot moved: subscribe where it is now
                    found = parse(message["data"]) if kind in ("message", "smessage") else None
                    if found is not None:
                        self.on_revoked(*found)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the store away: subscribe again, then re-check
                pause = self.backoff.next()
                log.warning("revocation listener: %s; next try in %.2f s", exc, pause)
                await asyncio.sleep(pause)
            await self._close()
