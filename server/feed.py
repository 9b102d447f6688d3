"""Fan-out of a game's events to every subscriber of one gateway.

One `GameFeed` per game with subscribers holds a bounded window of recent events, each
encoded once per role and reused for every subscriber. One `Notifier` holds a single
Redis pub/sub connection for all games (the append script publishes the new version on
the game's channel), so a gateway serving thousands of games holds no blocked connection
per game. Notifications are only hints: the stream is the truth, and a periodic version
check covers any notification lost while Redis was away.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from typing import Any

import msgspec
from msgspec import Struct

from engine.game import codec_for, ruleset_of
from engine.redaction import redact
from engine.roles import Role
from engine.ruleset import Ruleset
from events.envelope import Envelope
from events.redis_store import RedisEventStore
from events.types import SeedRevealed
from events.wire import EventFrame, encoder

log = logging.getLogger("umpire.feed")

WINDOW = 2048  # events kept in memory per game for live delivery
READ_PAGE = 500
POLL_SECONDS = 1.0


class CachedEvent:
    """One event with its frames, encoded lazily once per (role, revealed)."""

    __slots__ = ("envelope", "event", "frames")

    def __init__(self, envelope: Envelope, event: Struct) -> None:
        self.envelope = envelope
        self.event = event
        self.frames: dict[tuple[Role, bool], bytes | None] = {}

    def frame(self, ruleset: Ruleset[Any], role: Role, revealed: bool) -> bytes | None:
        key = (role, revealed)
        if key not in self.frames:
            self.frames[key] = encode_frame(ruleset, self.envelope, self.event, role, revealed)
        return self.frames[key]


def encode_frame(
    ruleset: Ruleset[Any], env: Envelope, event: Struct, role: Role, revealed: bool
) -> bytes | None:
    """The wire frame of one event for one role (None: a gap marker is sent instead)."""
    shown = redact(ruleset, event, role, revealed=revealed)
    redacted = shown is not event
    payload: Any = msgspec.to_builtins(shown) if shown is not None else None
    return encoder.encode(
        EventFrame(
            game_id=env.game_id,
            seq=env.seq,
            event_type=env.type,
            version=env.version,
            payload=payload,
            command_id=env.command_id,
            recorded_at=env.recorded_at,
            prev_hash=env.prev_hash,
            hash=env.hash,
            redacted=redacted,
        )
    )


class GameFeed:
    """The recent events of one game and the wake-up for its subscribers."""

    def __init__(self, store: RedisEventStore, game_id: str, ruleset: Ruleset[Any]) -> None:
        self.store = store
        self.game_id = game_id
        self.ruleset = ruleset
        self.codec = codec_for(ruleset)
        self.head = 0
        self.revealed = False
        self.window: OrderedDict[int, CachedEvent] = OrderedDict()
        self.subscribers = 0
        self._changed = asyncio.Event()
        self._lock = asyncio.Lock()

    def _cache(self, env: Envelope) -> CachedEvent:
        event = self.codec.decode(env.type, env.version, env.payload, seq=env.seq)
        if isinstance(event, SeedRevealed):
            self.revealed = True
        return CachedEvent(env, event)

    async def refresh(self) -> None:
        """Read what is new in the stream and wake the subscribers."""
        async with self._lock:
            fresh = await self.store.read(self.game_id, self.head + 1)
            if not fresh:
                return
            for env in fresh:
                if env.seq != self.head + 1:
                    break  # never skip: the next refresh reads from the true head
                self.window[env.seq] = self._cache(env)
                self.head = env.seq
            while len(self.window) > WINDOW:
                self.window.popitem(last=False)
            changed, self._changed = self._changed, asyncio.Event()
            changed.set()

    async def wait_beyond(self, seq: int, timeout: float = POLL_SECONDS) -> None:
        """Wait until the head passes `seq` (or `timeout`, after which callers re-check)."""
        if self.head > seq:
            return
        changed = self._changed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(changed.wait(), timeout)

    async def frames(self, start: int, role: Role, limit: int = READ_PAGE) -> list[bytes]:
        """Frames from `start` up to the head (at most `limit`), from memory or the stream."""
        end = min(self.head, start + limit - 1)
        if end < start:
            return []
        revealed = self.revealed
        if start in self.window:
            cached = [self.window[s] for s in range(start, end + 1) if s in self.window]
            if len(cached) == end - start + 1:
                return [f for c in cached if (f := c.frame(self.ruleset, role, revealed))]
        # Catch-up beyond the window: read the stream (encoded for this request only).
        out: list[bytes] = []
        for env in await self.store.read(self.game_id, start, end):
            event = self.codec.decode(env.type, env.version, env.payload, seq=env.seq)
            frame = encode_frame(self.ruleset, env, event, role, revealed)
            if frame:
                out.append(frame)
        return out


class Notifier:
    """All feeds of this gateway, one pub/sub connection, and a safety poll."""

    def __init__(self, store: RedisEventStore) -> None:
        self.store = store
        self.feeds: dict[str, GameFeed] = {}
        self._pubsub: Any = None
        self._tasks: list[asyncio.Task[None]] = []
        self._channels: dict[str, str] = {}
        self._refreshing: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """Start listening and polling."""
        self._pubsub = self.store.redis.pubsub(ignore_subscribe_messages=True)
        self._tasks = [
            asyncio.create_task(self._listen(), name="notifier-listen"),
            asyncio.create_task(self._poll(), name="notifier-poll"),
        ]

    async def stop(self) -> None:
        """Stop listening."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()

    async def feed(self, game_id: str) -> GameFeed:
        """The feed of a game, created (and subscribed to) on first use."""
        feed = self.feeds.get(game_id)
        if feed is None:
            first = await self.store.read(game_id, 1, 1)
            from events.errors import GameNotFound

            if not first:
                raise GameNotFound(f"no game {game_id!r}", game_id=game_id)
            feed = GameFeed(self.store, game_id, ruleset_of(first[0]))
            self.feeds[game_id] = feed
            channel = self.store.keys(game_id).channel
            self._channels[channel] = game_id
            if self._pubsub is not None:
                with contextlib.suppress(Exception):
                    await self._pubsub.subscribe(channel)
            await feed.refresh()
        return feed

    async def release(self, feed: GameFeed) -> None:
        """Drop a feed nobody subscribes to any more."""
        if feed.subscribers > 0 or self.feeds.get(feed.game_id) is not feed:
            return
        del self.feeds[feed.game_id]
        channel = self.store.keys(feed.game_id).channel
        self._channels.pop(channel, None)
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.unsubscribe(channel)

    async def _listen(self) -> None:
        while True:
            try:
                if not self._channels:
                    await asyncio.sleep(0.05)
                    continue
                message = await self._pubsub.get_message(timeout=1.0)
                if message is None:
                    continue
                channel = message["channel"]
                channel = channel.decode() if isinstance(channel, bytes) else channel
                game_id = self._channels.get(channel)
                feed = self.feeds.get(game_id) if game_id else None
                if feed is not None:
                    task = asyncio.create_task(feed.refresh())
                    self._refreshing.add(task)
                    task.add_done_callback(self._refreshing.discard)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis away: the poll keeps feeds current
                log.warning("notifier listen: %s", exc)
                await asyncio.sleep(0.5)
                with contextlib.suppress(Exception):
                    if self._channels:
                        await self._pubsub.subscribe(*self._channels)

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(POLL_SECONDS)
            feeds = list(self.feeds.values())
            try:
                for start in range(0, len(feeds), 500):
                    chunk = feeds[start : start + 500]
                    pipe = self.store.redis.pipeline(transaction=False)
                    for feed in chunk:
                        pipe.hget(self.store.keys(feed.game_id).meta, "version")
                    versions = await pipe.execute()
                    for feed, raw in zip(chunk, versions, strict=True):
                        if raw is not None and int(raw) > feed.head:
                            await feed.refresh()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("notifier poll: %s", exc)
