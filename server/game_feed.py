"""The recent events of one game, and their delivery to its subscribers on one gateway.

One `GameFeed` per game with subscribers holds a bounded window of recent events, each
encoded once per role and reused for every subscriber (server/event_frames.py). A
subscription that is caught up is *live*: when the feed reads new events it puts their
frames straight into the live subscribers' outgoing queues, with no task per subscription
and no wake-up per subscriber. A subscription that is behind (catching up from the stream,
or whose queue was full) is served by a task of its connection's until it reaches the
head, and is then handed back to the feed with no gap and no repeat (both go by the next
seq it is owed). What tells a feed to read is the `Notifier` (server/notifier.py).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from umpire.engine.game import codec_for
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.events.envelope import GENESIS_HASH, Envelope
from umpire.events.store import EventStore
from umpire.server.event_frames import (
    SEED_REVEALED,
    CachedEvent,
    encode_frame,
    is_final_reveal,
    reveal_level,
)
from umpire.server.framing import Batch
from umpire.server.game_records import reveal_command_id
from umpire.server.pushed_states import PushedStates
from umpire.server.subscription import Subscription

log = logging.getLogger("umpire.feed")

WINDOW = 2048  # events kept in memory per game for live delivery
READ_PAGE = 500
REFRESH_PAGE = 128  # events a refresh reads and decodes between two turns of the loop (~1 ms)

# What builds a pushed `state` frame: (game id, role) -> (its seq, the encoded frame), the
# role's view, actions and map at the game's head (server/driver.py `head_view`).
StateBuilder = Callable[[str, Role], Awaitable[tuple[int, bytes]]]


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


class GameFeed(PushedStates):
    """The recent events of one game and its subscriptions."""

    # Slots: a gateway holds one feed per active game (no instance dict, ~100 B a game).
    # (PushedStates holds those of the state frames.)
    __slots__ = (
        "_lock", "codec", "finally_revealed", "game_id", "gap", "head", "live", "revealed_through",
        "ruleset", "state_builder", "store", "subscriptions", "window",
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
        # The first run of seqs the log skips (a middle step of the store lost): nothing
        # after it can be delivered in order, so every subscription is ended, told why.
        self.gap: tuple[int, int] | None = None

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
        gapped: list[Subscription] = []
        async with self._lock:
            while True:
                fresh = await self.store.read(self.game_id, self.head + 1, self.head + REFRESH_PAGE)
                if not fresh:
                    break
                for env in fresh:
                    if env.seq != self.head + 1:
                        if env.seq > self.head + 1 and self.gap is None:
                            gapped = self._gapped(env.seq)
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
                    break
        if self.gap is not None:
            for sub in gapped:
                await sub.sink.gapped(sub, *self.gap)

    def _gapped(self, after: int) -> list[Subscription]:
        """The log skips from the head to `after`: said once in the server's log, and
        every subscription ended (returned, to be told outside the lock). A subscription
        made later is told as it catches up to the head (`Delivery._catch_up`)."""
        self.gap = (self.head + 1, after - 1)
        log.error(
            "game %s: the log skips seqs %d to %d (the store lost a middle step): its "
            "events after seq %d cannot be delivered in order; umpire store check names it",
            self.game_id, self.head + 1, after - 1, self.head,
        )  # fmt: skip
        ended = list(self.subscriptions)
        self.live.clear()
        self.subscriptions.clear()
        return ended

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
