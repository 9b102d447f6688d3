"""Fan-out of a game's events to every subscriber of one gateway.

One `GameFeed` per game with subscribers holds a bounded window of recent events, each
encoded once per role and reused for every subscriber. A subscription that is caught up
is *live*: when the feed reads new events it puts their frames straight into the live
subscribers' outgoing queues, with no task per subscription and no wake-up per
subscriber. A subscription that is behind (catching up from the stream, or whose queue
was full) is served by a task of its connection's until it reaches the head, and is then
handed back to the feed with no gap and no repeat (both go by the next seq it is owed).

One `Notifier` hears every game through the store's game channels (events/notifications.py;
on Redis a single pub/sub connection for all games, events/redis_channels.py), so a
gateway serving thousands of games holds no blocked connection per game. Notifications are
only hints: the stream is the truth, and a periodic version check covers any notification
lost while the store was away.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import msgspec
from msgspec import Struct

from umpire.engine.game import codec_for, ruleset_of
from umpire.engine.redaction import is_secret, redact
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.events.backoff import Backoff
from umpire.events.codec import EventRegistry
from umpire.events.envelope import GENESIS_HASH, Envelope
from umpire.events.errors import GameNotFound, StoreUnavailable
from umpire.events.notifications import GameChannels
from umpire.events.store import EventStore, Store
from umpire.events.types import SeedRevealed
from umpire.events.wire import EventFrame, encoder
from umpire.server.background import cancel_all
from umpire.server.framing import Batch
from umpire.server.game_records import reveal_command_id
from umpire.server.pushed_states import PushedStates

log = logging.getLogger("umpire.feed")

WINDOW = 2048  # events kept in memory per game for live delivery
READ_PAGE = 500
REFRESH_PAGE = 128  # events a refresh reads and decodes between two turns of the loop (~1 ms)
POLL_SECONDS = 1.0


_ROLES = {role: index for index, role in enumerate(Role)}
SEED_REVEALED = SeedRevealed.__struct_config__.tag
EVERY_ROLE = -2  # a CachedEvent's key when its one frame is every role's

# What builds a pushed `state` frame: (game id, role) -> (its seq, the encoded frame), the
# role's view, actions and map at the game's head (server/driver.py `head_view`).
StateBuilder = Callable[[str, Role], Awaitable[tuple[int, bytes]]]


def is_final_reveal(env: Envelope) -> bool:
    """Whether `env` is a game's final reveal: a SeedRevealed no reveal command wrote."""
    return env.type == SEED_REVEALED and not env.command_id.startswith("umpire:reveal")


async def revealed_through(store: EventStore, game_id: str, version: int) -> int:
    """The seq of the last reveal command's SeedRevealed at or before `version` (0: none).
    Reveal commands are "umpire:reveal", then "umpire:reveal:<epoch>" for each rotation."""
    through = 0
    epoch = 0
    while (found := await store.command_result(game_id, reveal_command_id(epoch))) is not None:
        if found.last_seq > version:
            break
        through = found.last_seq
        epoch += 1
    return through


class CachedEvent(Struct, gc=False):
    """One event of a feed's window, with its frames, encoded lazily once per (role,
    revealed). Holds only the envelope (untracked), the first frame asked for beside its
    key, and a dict of bytes keyed by small ints for any other (role, revealed), which
    CPython leaves untracked too: a window of 2,048 events adds nothing for a full garbage
    collection to visit (it was three tracked objects per event).

    The first frame is kept in two fields rather than a dict: most events of a gateway
    are only ever shown to one role, and a dict with one entry cost ~224 bytes an event
    (about 900 of the ~19 KB a small active game cost the gateway under tracemalloc;
    `python -m bench.memory_per_event` measures the whole).

    An event that no role sees less of (not secret: engine.redaction `is_secret`) has one
    frame for every role, revealed or not, byte for byte: it is encoded once (`key` is
    EVERY_ROLE) and its envelope is let go, since no other frame will ever be made from
    it. That is most events of most games, and the envelope was ~40% of what a windowed
    event cost (its payload, hash and digest are all in the frame). A SeedRevealed keeps
    its envelope: `rewind_if_behind` looks for it."""

    envelope: Envelope | None
    key: int = -1
    first: bytes | None = None
    more: dict[int, bytes | None] | None = None

    def frame(
        self, ruleset: Ruleset[Any], codec: EventRegistry, role: Role, level: int
    ) -> bytes | None:
        """The frame for `role` at reveal `level` (`reveal_level`; None: the role sees
        nothing of this event)."""
        key = self.key
        if key == EVERY_ROLE:
            return self.first
        wanted = 3 * _ROLES[role] + level
        if wanted == key:
            return self.first
        more = self.more
        if more is not None and wanted in more:
            return more[wanted]
        env = self.envelope
        assert env is not None, "an envelope is let go only once its frame fits every role"
        event = codec.decode(env.type, env.version, env.payload, seq=env.seq)
        frame = encode_frame(ruleset, env, event, role, level)
        if key < 0:
            if not is_secret(ruleset, event):
                # redact() returns this very event to every role: the same bytes for all.
                self.key, self.first = EVERY_ROLE, frame
                if env.type != SEED_REVEALED:
                    self.envelope = None
            else:
                self.key, self.first = wanted, frame
        elif more is None:
            self.more = {wanted: frame}
        else:
            more[wanted] = frame
        return frame

    def is_seed_revealed(self) -> bool:
        """Whether this is a SeedRevealed (whose envelope is always kept)."""
        return self.envelope is not None and self.envelope.type == SEED_REVEALED


def reveal_level(seq: int, revealed_through: int, finally_revealed: bool) -> int:
    """How far event `seq` is revealed: 0 not at all, 1 its epoch's seed is published (a
    mid-game reveal: public rolls check against it, every frame shows as at 0), 2 the game
    is finally revealed (everything shows)."""
    return 2 if finally_revealed else int(seq <= revealed_through)


def encode_frame(
    ruleset: Ruleset[Any], env: Envelope, event: Struct, role: Role, level: int
) -> bytes | None:
    """The wire frame of one event for one role at reveal `level` (`reveal_level`; None:
    a gap marker is sent instead)."""
    shown = redact(ruleset, event, role, revealed=level == 2)
    redacted = shown is not event
    # The struct itself, not its `to_builtins` copy: the JSON encoder writes the same
    # bytes straight from it, ~2,000 instructions a frame fewer (cachegrind).
    payload: Any = shown
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
            envelope_version=env.envelope_version,
            digest=env.digest,
            committed=env.committed,
        )
    )


class Sink(Protocol):
    """Where a live subscription's frames go: a connection's outgoing queue."""

    def offer(self, batch: Batch) -> bool:
        """Send or queue every frame of `batch` without waiting; False (and nothing sent)
        if there is no room for all of them."""
        ...

    def lagging(self, sub: Subscription) -> None:
        """`sub` left live delivery at `sub.next_seq`: serve it from there until caught up."""
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


class GameFeed(PushedStates):
    """The recent events of one game and its subscriptions."""

    # Slots: a gateway holds one feed per active game (no instance dict, ~100 B a game).
    __slots__ = (
        "_lock", "_states_again", "_states_task", "codec", "finally_revealed", "game_id",
        "head", "live", "revealed_through", "ruleset", "state_builder", "states", "store",
        "subscriptions", "window",
    )  # fmt: skip

    def __init__(
        self,
        store: EventStore,
        game_id: str,
        ruleset: Ruleset[Any],
        state_builder: StateBuilder | None = None,
    ) -> None:
        self.store = store
        self.game_id = game_id
        self.ruleset = ruleset
        self.codec = codec_for(ruleset)
        self.head = 0
        # The seq of the last SeedRevealed: events up to it are in revealed seed epochs
        # (shown to every role); a mid-game reveal leaves the events after it secret.
        self.revealed_through = 0
        # Whether the final reveal (the SeedRevealed of the batch that ends the game, never
        # a reveal command's) is in: then every role sees everything, ruleset secrets too.
        self.finally_revealed = False
        # Seq -> event, one contiguous run ending at the head. A plain dict: an OrderedDict
        # added a linked-list node per entry and a second index (~250 B a small game).
        self.window: dict[int, CachedEvent] = {}
        # Every subscription (live or catching up), and those that are live. Insertion-
        # ordered (dicts, not sets): served in the order they came, the same on every run.
        self.subscriptions: dict[Subscription, None] = {}
        self.live: dict[Subscription, None] = {}
        self._lock = asyncio.Lock()
        # Pushed state frames (subscribe `views`): the latest built for each role, one per
        # role per batch, shared by every subscriber of that role (never charged to them).
        self.state_builder = state_builder
        # (None until the first is built: most feeds never build one, ~64 B a feed saved)
        self.states: dict[Role, tuple[int, bytes]] | None = None
        self._states_task: asyncio.Task[None] | None = None
        self._states_again = False

    def _cache(self, env: Envelope) -> CachedEvent:
        if env.type == SEED_REVEALED:
            self.revealed_through = env.seq
            self.finally_revealed = is_final_reveal(env)
        return CachedEvent(self._shared(env))

    def _shared(self, env: Envelope) -> Envelope:
        """`env` holding, for each string equal to one the window already has, that
        object rather than its own copy: the feed's game id, the previous event's hash as
        its `prev_hash`, the previous event's command id and time (the events of one
        command share them), and the event type from the interned set. The envelope is
        equal field for field (its frames are byte-identical); only ~300 B of duplicate
        strings an event are not held (`python -m bench.memory_per_event`). The previous
        event's strings are there to share while it still holds its envelope: a secret
        event, or one read in the same page whose frame is not made yet."""
        before = self.window.get(env.seq - 1)
        prev = None if before is None else before.envelope
        game_id = self.game_id if env.game_id == self.game_id else env.game_id
        prev_hash, command_id, recorded_at = env.prev_hash, env.command_id, env.recorded_at
        if prev is not None:
            if prev.hash == prev_hash:
                prev_hash = prev.hash
            if prev.command_id == command_id:
                command_id = prev.command_id
            if prev.recorded_at == recorded_at:
                recorded_at = prev.recorded_at
        elif prev_hash == GENESIS_HASH:
            prev_hash = GENESIS_HASH
        return msgspec.structs.replace(
            env,
            game_id=game_id,
            type=sys.intern(env.type),
            prev_hash=prev_hash,
            command_id=command_id,
            recorded_at=recorded_at,
        )

    async def refresh(self) -> None:
        """Read what is new in the stream and wake the subscribers.

        In pages of REFRESH_PAGE events, each its own read: a feed that opens reads its
        whole window, and one read of 2,048 events held the event loop 10-20 ms while it
        was parsed and decoded (an attacker's subscribe/unsubscribe loop reopens it each
        time; python -m bench hostile, docs/operations.md "Admission")."""
        async with self._lock:
            while True:
                fresh = await self.store.read(self.game_id, self.head + 1, self.head + REFRESH_PAGE)
                if not fresh:
                    return
                for env in fresh:
                    if env.seq != self.head + 1:
                        fresh = []  # never skip: the next refresh reads from the true head
                        break
                    self.window[env.seq] = self._cache(env)
                    self.window.pop(env.seq - WINDOW, None)  # the oldest, by contiguity
                    self.head = env.seq
                while len(self.window) > WINDOW:  # never in practice: contiguous
                    del self.window[min(self.window)]
                self._push()
                if len(fresh) < REFRESH_PAGE:
                    self._want_states()
                    return

    def attach(self, sub: Subscription) -> None:
        """Count `sub` among this feed's subscriptions (it starts by catching up)."""
        self.subscriptions[sub] = None

    def detach(self, sub: Subscription) -> None:
        """`sub` ended: no live delivery, and no longer counted."""
        self.live.pop(sub, None)
        self.subscriptions.pop(sub, None)

    async def rewind_if_behind(self) -> None:
        """If the log ends before our head, Redis lost acknowledged writes (a crash under
        `appendfsync everysec`, a restore from an older file). The log is the truth:
        forget what it no longer has, and end every subscription, whose client was sent
        events that are gone (each is told, with the seq the log now ends at).

        The version is read here, under the lock that refreshes take: a version read
        before (the poll's) may be older than events a refresh has read since, which is
        no loss at all."""
        async with self._lock:
            version = await self.store.version(self.game_id)
            if version >= self.head:
                return
            log.error(
                "game %s: the log ends at seq %d, behind the %d events this gateway had "
                "read: the store lost acknowledged writes",
                self.game_id,
                version,
                self.head,
            )
            for seq in [s for s in self.window if s > version]:
                del self.window[seq]
            self.states = None
            self.head = version
            reveals = [s for s, c in self.window.items() if c.is_seed_revealed()]
            self.finally_revealed = any(
                c.envelope is not None and is_final_reveal(c.envelope)
                for c in self.window.values()
                if c.is_seed_revealed()
            )
            self.revealed_through = max(reveals, default=0) or await revealed_through(
                self.store, self.game_id, version
            )
            ended = list(self.subscriptions)
            self.live.clear()
            self.subscriptions.clear()
        for sub in ended:
            await sub.sink.rewound(sub, version)

    def join(self, sub: Subscription) -> None:
        """Make `sub` live. Only when it is caught up (`sub.next_seq > head`): from here
        each event reaches it as the feed reads it. Synchronous, so no event can come
        between the caller's check of the head and the join."""
        assert sub.next_seq > self.head, "a subscription behind the head cannot go live"
        self.live[sub] = None
        self._offer_state(sub)  # caught up: the state it may have missed meanwhile

    def _push(self) -> None:
        """Hand the new events' frames to every live subscriber; one that has no room (or
        whose frame fails) leaves live delivery and catches up on its own.

        Subscribers of one role at one seq are owed the same frames: they are gathered
        once per push into a `Batch` whose bytes every such subscriber shares (encode
        once, write many: server/framing.py)."""
        batches: dict[tuple[Role, int], Batch | None] = {}
        dropped = [sub for sub in self.live if not self._deliver(sub, batches)]
        for sub in dropped:
            del self.live[sub]
            sub.sink.lagging(sub)

    def _batch(self, role: Role, start: int) -> Batch | None:
        """The frames for `role` from `start` to the head (None: not all in the window)."""
        frames = []
        for seq in range(start, self.head + 1):
            cached = self.window.get(seq)
            if cached is None:
                return None
            level = reveal_level(seq, self.revealed_through, self.finally_revealed)
            frame = cached.frame(self.ruleset, self.codec, role, level)
            if frame is not None:
                frames.append(frame)
        return Batch(frames)

    def _deliver(self, sub: Subscription, batches: dict[tuple[Role, int], Batch | None]) -> bool:
        if sub.next_seq > self.head:
            return True
        key = (sub.role, sub.next_seq)
        try:
            if key in batches:
                batch = batches[key]
            else:
                batch = batches[key] = self._batch(sub.role, sub.next_seq)
            if batch is None or (batch.frames and not sub.sink.offer(batch)):
                return False
        except Exception:
            # The catch-up path meets the same failure and closes the connection for
            # resync; one subscriber's failure never stops delivery to the others.
            log.exception("live delivery to a subscriber failed")
            return False
        sub.next_seq = self.head + 1
        self._offer_state(sub)
        return True

    async def frames(
        self, start: int, role: Role, limit: int = READ_PAGE, *, turn_every: int = 0
    ) -> list[bytes]:
        """Frames from `start` up to the head (at most `limit`), from memory or the stream.
        From the stream, `turn_every` > 0 lets the event loop go after each that many
        events decoded and encoded (one read, the work in steps)."""
        # The end is fixed before the loop is let go: a caller that counted up to the head
        # when it called must not be sent events pushed meanwhile (it would send them again
        # on its next page: a subscriber saw 1..5 and then 4, 5 once more).
        end = min(self.head, start + limit - 1)
        if end < start:
            return []
        if start in self.window:
            # One turn of the loop per page: a catch-up through the window otherwise never
            # yields (no I/O; its frames are written straight to the socket), and one of
            # 2,048 events held the loop for 10-30 ms (python -m bench hostile).
            await asyncio.sleep(0)
        through, final = self.revealed_through, self.finally_revealed
        if start in self.window:
            seqs = range(start, end + 1)
            cached = [self.window[s] for s in seqs if s in self.window]
            if len(cached) == len(seqs):
                return [
                    f
                    for s, c in zip(seqs, cached, strict=True)
                    if (
                        f := c.frame(
                            self.ruleset, self.codec, role, reveal_level(s, through, final)
                        )
                    )
                ]
        # Catch-up beyond the window: read the stream (encoded for this request only).
        out: list[bytes] = []
        for done, env in enumerate(await self.store.read(self.game_id, start, end)):
            if turn_every and done and not done % turn_every:
                await asyncio.sleep(0)
            event = self.codec.decode(env.type, env.version, env.payload, seq=env.seq)
            frame = encode_frame(
                self.ruleset, env, event, role, reveal_level(env.seq, through, final)
            )
            if frame:
                out.append(frame)
        return out


class Notifier:
    """All feeds of this gateway, the store's game channels, and a safety poll.

    On Redis the channels are one pub/sub connection; on a Redis Cluster the append script
    publishes with SPUBLISH and the channels hold one connection per master instead
    (events/redis_channels.py `ShardChannels`): still a handful, never one per game.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.feeds: dict[str, GameFeed] = {}
        self.channels: GameChannels | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._refreshing: set[asyncio.Task[None]] = set()
        self._opening: dict[str, asyncio.Future[GameFeed]] = {}
        self.backoff = Backoff()  # between tries to listen again while the store is away
        # Builds the pushed state frames (server/gateway.py sets it; None: none are pushed).
        self.state_builder: StateBuilder | None = None

    async def start(self) -> None:
        """Start listening and polling."""
        self._tasks = [asyncio.create_task(self._poll(), name="notifier-poll")]
        self.channels = self.store.notifications.game_channels(
            self._notified, self.backoff, Backoff
        )
        self.channels.start()

    async def stop(self) -> None:
        """Stop listening."""
        await cancel_all(self._tasks)
        if self.channels is not None:
            await self.channels.close()

    async def feed(self, game_id: str) -> GameFeed:
        """The feed of a game, created (and subscribed to) on first use.

        Concurrent first subscribers of one game share one creation: two feeds for one
        game would leave all but the last orphaned, never refreshed, their subscribers
        waiting forever (the benchmark's 1,000 simultaneous subscribers found this).

        The feed returned is this notifier's feed of the game when the caller resumes: the
        caller attaches its subscription before its next await, and from then on `release`
        keeps the feed. (A feed released while the caller waited for its opening, by the
        last subscriber of the game leaving, is opened again.)
        """
        while True:
            feed = self.feeds.get(game_id)
            if feed is not None:
                return feed
            opening = self._opening.get(game_id)
            if opening is None:
                opening = asyncio.ensure_future(self._open(game_id))
                self._opening[game_id] = opening
                opening.add_done_callback(lambda _: self._opening.pop(game_id, None))
            # shield: one waiter cancelled (its client left) does not cancel the others'.
            feed = await asyncio.shield(opening)
            if self.feeds.get(game_id) is feed:
                return feed

    async def _open(self, game_id: str) -> GameFeed:
        first = await self.store.read(game_id, 1, 1)
        if not first:
            raise GameNotFound(f"no game {game_id!r}", game_id=game_id)
        feed = GameFeed(self.store, game_id, ruleset_of(first[0]), self.state_builder)
        # Start the window near the head rather than folding the whole log: older events
        # are served from the stream. The reveal state is still exact, since a seed is
        # revealed either by a reveal command (in the command-id map) or in the batch
        # that ends the game, which is the last batch and so inside the window.
        version = await self.store.version(game_id)
        feed.head = max(0, version - WINDOW)
        feed.revealed_through = await revealed_through(self.store, game_id, version)
        self.feeds[game_id] = feed
        if self.channels is not None:
            await self.channels.watch(game_id)
        await feed.refresh()
        return feed

    async def release(self, feed: GameFeed) -> None:
        """Drop a feed nobody subscribes to any more (one still opening is kept: its
        opener's waiters are about to attach)."""
        if (
            feed.subscriptions
            or self.feeds.get(feed.game_id) is not feed
            or feed.game_id in self._opening
        ):
            return
        del self.feeds[feed.game_id]
        if self.channels is not None:
            await self.channels.unwatch(feed.game_id)

    def _notified(self, game_id: str) -> None:
        """A game's channel said it moved on: refresh its feed in the background."""
        feed = self.feeds.get(game_id)
        if feed is not None:
            task = asyncio.create_task(feed.refresh())
            self._refreshing.add(task)
            task.add_done_callback(self._refreshed)

    def _refreshed(self, task: asyncio.Task[Any]) -> None:
        """A background refresh ended: a store that went away is one log line (the 1 s
        version poll refreshes the feed again once it is back), never an unretrieved
        task's traceback."""
        self._refreshing.discard(task)
        if task.cancelled():
            return
        exc = task.exception()
        if isinstance(exc, StoreUnavailable):
            log.warning("feed refresh: the store is unavailable (%s)", exc.message)
        elif exc is not None:
            log.error("feed refresh failed: %r", exc)

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(POLL_SECONDS)
            feeds = list(self.feeds.values())
            try:
                for start in range(0, len(feeds), 500):
                    chunk = feeds[start : start + 500]
                    versions = await self.store.versions([feed.game_id for feed in chunk])
                    for feed, version in zip(chunk, versions, strict=True):
                        if version is None:
                            continue
                        if version > feed.head:
                            await feed.refresh()
                        elif version < feed.head:
                            await feed.rewind_if_behind()  # read again, under its lock
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("notifier poll: %s", exc)
