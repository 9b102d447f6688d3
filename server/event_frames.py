"""The wire frame of one event for one role, and a feed's window entry that makes each once.

A frame is an event as one role may see it (engine/redaction.py), at how far the game's
seeds are revealed: `encode_frame` writes it, `reveal_level` says how far an event is
revealed, and a `CachedEvent` holds an event of a feed's window (server/game_feed.py)
with the frames made of it so far, each made once and shared by every subscriber of that
role.
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct

from umpire.engine.redaction import is_secret, redact
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.events.codec import EventRegistry
from umpire.events.envelope import Envelope
from umpire.events.types import SeedRevealed
from umpire.events.wire import EventFrame, encoder

_ROLES = {role: index for index, role in enumerate(Role)}
SEED_REVEALED = SeedRevealed.__struct_config__.tag
EVERY_ROLE = -2  # a CachedEvent's key when its one frame is every role's


def is_final_reveal(env: Envelope) -> bool:
    """Whether `env` is a game's final reveal: a SeedRevealed no reveal command wrote."""
    return env.type == SEED_REVEALED and not env.command_id.startswith("umpire:reveal")


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
