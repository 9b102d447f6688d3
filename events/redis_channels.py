"""The store's notifications on Redis pub/sub: a game's log moved on (the append script
publishes the new version on the game's channel) and a credential was revoked.

The store's Notifications protocol (events/notifications.py) is what this holds. On one
Redis every game channel rides one pub/sub connection (`PubSubChannels`); on a cluster the
append script publishes with SPUBLISH, heard only on the master serving the game's slot,
so `ShardChannels` holds one SSUBSCRIBE connection per master and follows a slot that
moves. Notifications are hints: the stream is the truth, and the server's version poll
covers any notification lost while a connection was away.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from typing import Any, Protocol

import redis.asyncio as aioredis
from redis.asyncio.connection import SSLConnection

from umpire.events.redis_keys import game_keys, revocations_channel
from umpire.events.unreachable import UNREACHABLE, unavailable

# The game channels' loops log as the feed did when they lived in server/feed.py.
log = logging.getLogger("umpire.feed")


class Pauses(Protocol):
    """The pauses of a reconnecting loop (events/backoff.py `Backoff`)."""

    def next(self) -> float:
        """The pause before the next try."""
        ...

    def reset(self) -> None:
        """A try succeeded."""
        ...


# What a plain client on one cluster node keeps of the cluster client's settings: who it
# is (the URL's user and password) and how it talks (TLS and its certificates).
# How long a new revocations subscription may wait for the store's confirmation.
SUBSCRIBE_CONFIRMED_SECONDS = 5.0
_NODE_SETTINGS = ("username", "password", "credential_provider", "client_name")


def node_client(node: Any) -> aioredis.Redis:
    """A plain (non-cluster) client on one node of a cluster client, for what the
    cluster client cannot do itself (a long-lived SSUBSCRIBE connection): the same
    credentials and TLS as the cluster's URL, no read timeout (it waits for pushes)."""
    settings = node.connection_kwargs
    kept = {k: settings[k] for k in _NODE_SETTINGS if k in settings}
    tls = {k: v for k, v in settings.items() if k.startswith("ssl_") and v is not None}
    if issubclass(getattr(node, "connection_class", object), SSLConnection):
        kept.update(ssl=True, **tls)
    return aioredis.Redis(
        host=node.host, port=node.port, socket_connect_timeout=5, socket_timeout=None, **kept
    )


async def _cancel(tasks: Iterable[asyncio.Task[None]]) -> None:
    """Cancel `tasks` and wait until they have ended."""
    pending = [task for task in tasks if not task.done()]
    for task in pending:
        task.cancel()
    # asyncio.wait, not `await task` in suppress(CancelledError): that would also swallow
    # a cancellation aimed at the caller while it waits.
    if pending:
        await asyncio.wait(pending)
    for task in pending:
        if not task.cancelled():
            task.exception()  # retrieved: what it raised is its own to log


class PubSubChannels:
    """Game channels on one Redis: one pub/sub connection for every game watched."""

    def __init__(
        self, client: Any, prefix: str, on_appended: Callable[[str], None], backoff: Pauses
    ) -> None:
        self._prefix = prefix
        self._on_appended = on_appended
        self.backoff = backoff  # between tries to listen again while the store is away
        self._pubsub = client.pubsub(ignore_subscribe_messages=True)
        self._games: dict[str, str] = {}  # channel -> game id
        # Set while a game is watched. With none, the listener waits on it, not on a
        # timer: a 50-ms poll woke every idle worker 20 times a second, two loop turns
        # each, for nothing (bench/syscalls.py, docs/benchmarks.md, tenth session).
        self._watched = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start listening (in a task of its own)."""
        self._task = asyncio.create_task(self._listen(), name="notifier-listen")

    async def watch(self, game_id: str) -> None:
        """Hear `game_id`'s appends from now on (a failure is left to the poll)."""
        channel = game_keys(game_id, self._prefix).channel
        self._games[channel] = game_id
        self._watched.set()
        with contextlib.suppress(Exception):
            await self._pubsub.subscribe(channel)

    async def unwatch(self, game_id: str) -> None:
        """Stop hearing `game_id`."""
        channel = game_keys(game_id, self._prefix).channel
        self._games.pop(channel, None)
        if not self._games:
            self._watched.clear()
        with contextlib.suppress(Exception):
            await self._pubsub.unsubscribe(channel)

    async def close(self) -> None:
        """Stop listening and close the connection."""
        if self._task is not None:
            await _cancel([self._task])
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()

    async def _listen(self) -> None:
        while True:
            try:
                if not self._games:
                    await self._watched.wait()
                    continue
                message = await self._pubsub.get_message(timeout=1.0)
                if message is None:
                    continue
                channel = message["channel"]
                game_id = self._games.get(
                    channel.decode() if isinstance(channel, bytes) else channel
                )
                if game_id is not None:
                    self._on_appended(game_id)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis away: the poll keeps feeds current
                pause = self.backoff.next()
                log.warning("notifier listen: %s; next try in %.2f s", exc, pause)
                await asyncio.sleep(pause)
                with contextlib.suppress(Exception):
                    if self._games:
                        await self._pubsub.subscribe(*self._games)
                        self.backoff.reset()


class ShardChannels:
    """Game channels on a Redis Cluster: one SSUBSCRIBE connection per master that serves
    one of our games, and one listener task per such connection.

    A sharded message is published only on the nodes serving the channel's slot, so each
    game's channel is subscribed on the master that owns the game's hash tag. When a slot
    moves, the old owner drops the subscription (an `sunsubscribe` push); we then look the
    owner up again and subscribe there. The version poll covers the moment in between.
    """

    def __init__(
        self,
        cluster: Any,
        prefix: str,
        on_appended: Callable[[str], None],
        pauses: Callable[[], Pauses],
    ) -> None:
        self.cluster = cluster
        self._prefix = prefix
        self._on_appended = on_appended
        self._pauses = pauses
        self._games: dict[str, str] = {}  # channel -> game id
        self.channels: dict[str, str] = {}  # channel -> node name
        self.pubsubs: dict[str, Any] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.backoffs: dict[str, Pauses] = {}  # per node, while it is away

    def start(self) -> None:
        """Nothing to start: a listener starts with its node's first subscription."""

    async def watch(self, game_id: str) -> None:
        """Hear `game_id`'s appends from now on (a failure is left to the poll)."""
        channel = game_keys(game_id, self._prefix).channel
        self._games[channel] = game_id
        with contextlib.suppress(Exception):
            await self.subscribe(channel)

    async def unwatch(self, game_id: str) -> None:
        """Stop hearing `game_id`."""
        channel = game_keys(game_id, self._prefix).channel
        self._games.pop(channel, None)
        with contextlib.suppress(Exception):
            await self.unsubscribe(channel)

    def _heard(self, channel: str) -> None:
        game_id = self._games.get(channel)
        if game_id is not None:
            self._on_appended(game_id)

    def _pubsub(self, node: Any) -> Any:
        pubsub = self.pubsubs.get(node.name)
        if pubsub is None:
            # With the cluster URL's user, password and TLS (a client on host and port
            # alone connected as the default user, in clear text).
            client = node_client(node)
            pubsub = client.pubsub(ignore_subscribe_messages=False)
            self.pubsubs[node.name] = pubsub
        return pubsub

    def _listen_on(self, name: str) -> None:
        task = self.tasks.get(name)
        if task is None or task.done():
            self.tasks[name] = asyncio.create_task(self._listen(name), name=f"shard-{name}")

    async def subscribe(self, *channels: str) -> None:
        """SSUBSCRIBE each channel on the master serving its slot now."""
        by_node: dict[str, list[str]] = {}
        for channel in channels:
            node = self.cluster.get_node_from_key(channel)
            self._pubsub(node)
            by_node.setdefault(node.name, []).append(channel)
            self.channels[channel] = node.name
        for name, names in by_node.items():
            await self.pubsubs[name].ssubscribe(*names)
            self._listen_on(name)

    async def unsubscribe(self, channel: str) -> None:
        """SUNSUBSCRIBE a channel where it was subscribed."""
        name = self.channels.pop(channel, None)
        if name is not None and name in self.pubsubs:
            await self.pubsubs[name].sunsubscribe(channel)

    async def _listen(self, name: str) -> None:
        pubsub = self.pubsubs[name]
        while True:
            try:
                if not pubsub.subscribed:
                    await asyncio.sleep(0.05)
                    continue
                message = await pubsub.get_message(timeout=1.0)
                if message is None:
                    continue
                kind = message["type"]
                kind = kind.decode() if isinstance(kind, bytes) else kind
                channel = message["channel"]
                channel = channel.decode() if isinstance(channel, bytes) else channel
                if kind == "smessage":
                    self._heard(channel)
                elif kind == "sunsubscribe" and self.channels.get(channel) == name:
                    # The slot moved away (we did not ask): follow it to its new owner.
                    await self._follow(channel)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the node is away: the poll keeps feeds current
                backoff = self.backoffs.setdefault(name, self._pauses())
                pause = backoff.next()
                log.warning("notifier shard %s: %s; next try in %.2f s", name, exc, pause)
                await asyncio.sleep(pause)
                with contextlib.suppress(Exception):
                    mine = [c for c, n in self.channels.items() if n == name]
                    if mine:
                        await self.subscribe(*mine)
                        backoff.reset()

    async def _follow(self, channel: str) -> None:
        for _ in range(30):
            # The channel name carries the game's hash tag, so a keyed command on it goes
            # to the slot's owner; its MOVED reply patches the client's slot map.
            with contextlib.suppress(Exception):
                await self.cluster.exists(channel)
            node = self.cluster.get_node_from_key(channel)
            if node.name != self.channels.get(channel):
                await self.subscribe(channel)
                self._heard(channel)  # anything published meanwhile: re-read
                return
            await asyncio.sleep(0.1)

    async def close(self) -> None:
        """Stop the listeners and close the connections."""
        await _cancel(self.tasks.values())
        for pubsub in self.pubsubs.values():
            with contextlib.suppress(Exception):
                await pubsub.aclose()
                await pubsub.connection_pool.disconnect()


class RevocationHearing:
    """One subscription to the revocations channel (its own connection on a cluster)."""

    def __init__(self, pubsub: Any, client: Any = None) -> None:
        self._pubsub = pubsub
        self._client = client
        self.ended = False  # the store ended the subscription (a cluster slot moved)

    async def message(self, timeout: float) -> str | None:
        """The next announcement's text, or None (nothing within `timeout`, a
        subscription notice, or the end of the subscription: see `ended`)."""
        message = await self._pubsub.get_message(timeout=timeout)
        if message is None:
            return None
        kind = message.get("type")
        if kind in ("unsubscribe", "sunsubscribe"):
            self.ended = True
            return None
        if kind not in ("message", "smessage"):
            return None
        data = message["data"]
        return data.decode(errors="replace") if isinstance(data, bytes) else str(data)

    async def close(self) -> None:
        """Close the subscription and its connection."""
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
            if self._client is not None:
                await self._client.aclose()

    async def confirmed(self, timeout: float = SUBSCRIBE_CONFIRMED_SECONDS) -> None:
        """Wait for the store's confirmation of the subscription. redis-py's `subscribe`
        only sends the command: a revocation published before the store has taken it would
        not be heard, and a listener that reports itself subscribed must hear the next
        one. Nothing but the confirmation can come first on this connection."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self._pubsub.get_message(timeout=timeout)
                if message is not None and message.get("type") in ("subscribe", "ssubscribe"):
                    return


class RedisNotifications:
    """Notifications on one Redis or a cluster (through its client)."""

    def __init__(self, client: Any, prefix: str, *, cluster: bool) -> None:
        self._redis = client
        self._prefix = prefix
        self.cluster = cluster
        self.revocations_channel = revocations_channel(prefix)

    def game_channels(
        self,
        on_appended: Callable[[str], None],
        backoff: Pauses,
        pauses: Callable[[], Pauses],
    ) -> PubSubChannels | ShardChannels:
        """Channels that call `on_appended(game_id)` when a watched game's log moves on;
        `backoff` paces the one connection's reconnects, `pauses` makes one per shard."""
        if self.cluster:
            return ShardChannels(self._redis, self._prefix, on_appended, pauses)
        return PubSubChannels(self._redis, self._prefix, on_appended, backoff)

    async def announce_revocation(self, message: str) -> None:
        """Publish `message` to every gateway (StoreUnavailable if the store is away)."""
        try:
            if self.cluster:
                await self._redis.spublish(self.revocations_channel, message)
            else:
                await self._redis.publish(self.revocations_channel, message)
        except UNREACHABLE as exc:
            raise unavailable(exc, consequence="gateways find it on their next re-check") from exc

    async def hear_revocations(self) -> RevocationHearing:
        """A new subscription to the revocations channel (raises if it cannot be made)."""
        if not self.cluster:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=False)
            try:
                await pubsub.subscribe(self.revocations_channel)
                hearing = RevocationHearing(pubsub)
                await hearing.confirmed()
            except BaseException:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                raise
            return hearing
        # The shard that serves the channel's slot now; a slot that moves ends the
        # subscription (an sunsubscribe push) and the listener subscribes again.
        # The slot map is loaded by a cluster client's first command: load it first, or
        # a gateway that has sent none yet finds no node for the channel.
        await self._redis.initialize()
        node = self._redis.get_node_from_key(self.revocations_channel)
        client = node_client(node)
        pubsub = client.pubsub(ignore_subscribe_messages=False)
        hearing = RevocationHearing(pubsub, client)
        try:
            await pubsub.ssubscribe(self.revocations_channel)
            await hearing.confirmed()
        except BaseException:
            await hearing.close()
            raise
        return hearing
