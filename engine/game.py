"""The fold: a game's state is `evolve` folded over its log.

`Game` pairs the engine's own bookkeeping (`GameMeta`: seq, roll count, end, seed reveal,
the takeback stack) with the ruleset's state. The state hash is SHA-256 over the
canonical encoding of both, so the same log always folds to the same hash.

Takebacks (docs/architecture.md "Takeback"): every recorded command pushes the state
before it onto `GameMeta.undo` (at most the ruleset's takeback depth, two by default);
anything that rolls a die or shows the player something hidden empties the stack and
records why (`blocked_at`, `blocked_by`); `CommandTakenBack` pops the top and restores
its state. So the fold stays one pass over the events and a snapshot carries all it needs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine import registry
from umpire.engine.commands import TakeBack
from umpire.engine.errors import InvalidSetup
from umpire.engine.kit.reading import parse_value
from umpire.engine.redaction import redact
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.engine.schemas import struct_schema
from umpire.engine.validation import explained
from umpire.events.codec import EventRegistry, canonical_bytes
from umpire.events.envelope import GENESIS_HASH, Envelope
from umpire.events.errors import CorruptEvent, UmpireError
from umpire.events.types import (
    ClientEntropy,
    ClientSeedBound,
    CommandRecorded,
    CommandTakenBack,
    DiceRolled,
    DisputeFiled,
    DisputeFound,
    DisputeRuled,
    ExportSealed,
    GameAmended,
    GameCreated,
    GameEnded,
    Roller,
    SeedRevealed,
    event_tag,
)

TAKE_BACK = str(TakeBack.__struct_config__.tag)


class NeedsWholeLog(UmpireError):
    """A `GameAmended` folded without the log before it: the fold returns to the state
    before the disputed decision, which only the events since seq 1 give. Fold the log
    from its first event instead."""

    code = "needs_whole_log"


class Undo(Struct, frozen=True, kw_only=True):
    """One command that may still be taken back: where it was recorded, and the ruleset
    state just before it (what a takeback restores)."""

    seq: int
    command_id: str
    command_type: str
    state: Any


class GameMeta(Struct, frozen=True, kw_only=True):
    """What the engine itself tracks of every game, whatever its ruleset.

    Seeds come in epochs (docs/audit.md (4.1)): `seed_commitment` and `client_seed` are
    the current epoch's, `client_bound` whether its client seed is bound, `epoch_rolls`
    how many server rolls it has made (physical dice entered by the player derive from no
    seed, so they do not close the epoch to its client seed: docs/audit.md (4.1)).
    `revealed_seed` is set by the final reveal only (a reveal that commits no next seed); a
    mid-game reveal rotates to the next epoch instead.
    """

    game_id: str
    ruleset: str
    ruleset_version: str
    seed_commitment: str
    client_seed: str
    seq: int = 0
    last_hash: str = GENESIS_HASH
    rolls: int = 0
    commands: int = 0
    revealed_seed: str | None = None
    ended: bool = False
    result: str = ""
    epoch: int = 0
    client_bound: bool = True
    client_entropy: ClientEntropy = ClientEntropy.BIND
    epoch_rolls: int = 0
    opponent_manual_dice: bool = False
    # GameCreated.sealing_commitment: "" (an old game) or its hidden rolls derive from the
    # sealing key (engine/dice.py `roll_key`).
    sealing_commitment: str = ""
    # Takebacks (engine/takeback.py). `commands` above counts every recorded command,
    # TakeBack and taken-back ones included; `taken_back` counts the commands taken back,
    # `takebacks_in_row` those since the last other command (the depth limit). `undo` is
    # the stack of commands that may still be taken back (top last); `blocked_at` and
    # `blocked_by` the seq and kind of the last event that emptied it.
    taken_back: int = 0
    takebacks_in_row: int = 0
    undo: tuple[Undo, ...] = ()
    blocked_at: int = 0
    blocked_by: str = ""

    @property
    def needs_client_seed(self) -> bool:
        """Whether a server roll must wait for the client's seed of this epoch."""
        return self.client_entropy is ClientEntropy.BIND and not self.client_bound


class Game(Struct, frozen=True):
    """A folded game: engine bookkeeping plus the ruleset's state."""

    meta: GameMeta
    state: Any


@cache
def codec_for(ruleset: Ruleset[Any]) -> EventRegistry:
    """The event registry of one ruleset: universal events plus its own."""
    return EventRegistry(ruleset.event_types)


_universal = EventRegistry()


def created_of(first: Envelope) -> GameCreated:
    """A log's first event, its GameCreated."""
    created = _universal.decode(first.type, first.version, first.payload, seq=first.seq)
    if not isinstance(created, GameCreated):
        raise CorruptEvent(
            f"event 1 of game {first.game_id!r} is {first.type}, not GameCreated", seq=first.seq
        )
    return created


def ruleset_of(first: Envelope) -> Ruleset[Any]:
    """The ruleset named by a log's first event."""
    return registry.get(created_of(first).ruleset)


def parse_setup(ruleset: Ruleset[Any], setup: dict[str, Any]) -> Struct:
    """Validate a setup for `ruleset` or raise InvalidSetup saying what is wrong."""
    try:
        return msgspec.convert(setup, ruleset.setup_type)
    except msgspec.ValidationError as exc:
        message = explained(str(exc), struct_schema(ruleset.setup_type))
        raise InvalidSetup(
            f"setup for {ruleset.name} is not valid: {message}", error=message
        ) from exc


def start(ruleset: Ruleset[Any], created: GameCreated) -> Game:
    """The game as GameCreated makes it."""
    meta = GameMeta(
        game_id=created.game_id,
        ruleset=created.ruleset,
        ruleset_version=created.ruleset_version,
        seed_commitment=created.seed_commitment,
        client_seed=created.client_seed,
        # An old log's GameCreated holds the client seed: epoch 0 bound at creation.
        client_bound=created.client_seed != "",
        client_entropy=created.client_entropy,
        opponent_manual_dice=created.opponent_manual_dice,
        sealing_commitment=created.sealing_commitment,
    )
    state = ruleset.initial_state(parse_setup(ruleset, created.setup))
    if ruleset.opened_under is not None:  # a game opens as its recorded version opened it
        state = ruleset.opened_under(created.ruleset_version, state)
    return Game(meta, state)


def _blocked(meta: GameMeta, seq: int, why: str) -> GameMeta:
    """`meta` with its takeback stack emptied by the event at `seq` (`why`: what it did)."""
    return msgspec.structs.replace(meta, undo=(), blocked_at=seq, blocked_by=why)


def _recorded(ruleset: Ruleset[Any], game: Game, event: CommandRecorded, seq: int,
              command_id: str) -> GameMeta:  # fmt: skip
    """Bookkeeping of a recorded command: counted, and (unless it is a TakeBack) pushed
    onto the takeback stack, or blocking it where the ruleset forbids taking it back."""
    meta = game.meta
    if event.command_type == TAKE_BACK:
        return msgspec.structs.replace(meta, commands=meta.commands + 1)
    policy = ruleset.takeback
    if policy.depth == 0 or event.command_type in policy.forbidden:
        meta = msgspec.structs.replace(meta, commands=meta.commands + 1, takebacks_in_row=0)
        return _blocked(meta, seq, f"forbidden:{event.command_type}")
    entry = Undo(seq=seq, command_id=command_id, command_type=event.command_type,
                 state=game.state)  # fmt: skip
    # One replace (this runs for every command): counted, the run of takebacks ended, pushed.
    return msgspec.structs.replace(
        meta,
        commands=meta.commands + 1,
        takebacks_in_row=0,
        undo=(*meta.undo, entry)[-policy.depth :],
    )


def _taken_back(game: Game, event: CommandTakenBack) -> Game:
    """The game as it was before the command `event` takes back (the top of the stack)."""
    meta = game.meta
    if not meta.undo or meta.undo[-1].seq != event.seq:
        raise CorruptEvent(
            f"CommandTakenBack names seq {event.seq}, which is not the last command that "
            "may be taken back"
        )
    top = meta.undo[-1]
    meta = msgspec.structs.replace(
        meta,
        undo=meta.undo[:-1],
        taken_back=meta.taken_back + 1,
        takebacks_in_row=meta.takebacks_in_row + 1,
    )
    return Game(meta, top.state)


def _shows_hidden(ruleset: Ruleset[Any], event: Struct) -> bool:
    """Whether a ruleset event shows the player something hidden: the player's redaction
    changes or withholds it, or the ruleset declares its type revealing."""
    reveals = ruleset.takeback.reveals
    if reveals and event_tag(event) in reveals:  # most rulesets declare none
        return True
    return redact(ruleset, event, Role.PLAYER, revealed=False) is not event


def apply(
    ruleset: Ruleset[Any],
    game: Game,
    event: Struct,
    *,
    seq: int | None = None,
    command_id: str = "",
) -> Game:
    """One step of the fold: engine bookkeeping, then the ruleset's evolve.

    `seq` and `command_id` are the event's envelope's (`seq` defaults to the one after
    `game.meta.seq`): a recorded command's takeback entry names them.
    """
    meta = game.meta
    at = meta.seq + 1 if seq is None else seq
    if type(event) not in _ENGINE_EVENTS:  # most events: the ruleset's own
        return Game(*_ruleset_step(ruleset, meta, game.state, event, at))
    if isinstance(event, DiceRolled):
        if event.roll < meta.rolls:
            # A roll re-applied by an amendment keeps its number (no one gets a re-roll):
            # the count stays the log's, so the next new roll takes a number never used.
            return Game(_blocked(meta, at, "roll"), ruleset.evolve(game.state, event))
        served = meta.epoch_rolls + (event.by is Roller.SERVER)
        meta = msgspec.structs.replace(meta, rolls=meta.rolls + 1, epoch_rolls=served)
        return Game(_blocked(meta, at, "roll"), ruleset.evolve(game.state, event))
    if isinstance(event, CommandRecorded):
        return Game(_recorded(ruleset, game, event, at, command_id), game.state)
    if isinstance(event, CommandTakenBack):
        return _taken_back(game, event)
    if isinstance(event, ClientSeedBound):
        meta = msgspec.structs.replace(meta, client_seed=event.client_seed, client_bound=True)
        return Game(_blocked(meta, at, "seed"), game.state)
    if isinstance(event, SeedRevealed):
        meta = _blocked(meta, at, "seed")
        if not event.next_commitment:
            return Game(msgspec.structs.replace(meta, revealed_seed=event.seed), game.state)
        # A mid-game reveal: the next epoch starts with its own seed and no client seed.
        meta = msgspec.structs.replace(
            meta,
            epoch=meta.epoch + 1,
            seed_commitment=event.next_commitment,
            client_seed="",
            client_bound=False,
            epoch_rolls=0,
        )
        return Game(meta, game.state)
    if isinstance(event, GameEnded):
        meta = _blocked(meta, at, "end")
        return Game(msgspec.structs.replace(meta, ended=True, result=event.result), game.state)
    if isinstance(event, DisputeFiled | DisputeFound | DisputeRuled | ExportSealed):
        # Disputes, findings, rulings and the seal are about the log, not moves in the game:
        # the state, the takeback stack and the end stay as they are (docs/audit.md).
        return game
    if isinstance(event, GameCreated):
        raise CorruptEvent("GameCreated may only be the first event of a game")
    if isinstance(event, GameAmended):
        raise NeedsWholeLog(
            f"GameAmended at seq {at} returns the game to seq {event.parts_from - 1}: fold "
            "the log from its first event",
            seq=at,
        )
    return Game(*_ruleset_step(ruleset, meta, game.state, event, at))


# The engine's own events (handled by `apply` above); every other event is the ruleset's.
_ENGINE_EVENTS = frozenset(
    (DiceRolled, CommandRecorded, CommandTakenBack, ClientSeedBound, SeedRevealed, GameEnded,
     GameCreated, DisputeFiled, DisputeFound, DisputeRuled, ExportSealed, GameAmended)
)  # fmt: skip


def _ruleset_step(
    ruleset: Ruleset[Any], meta: GameMeta, state: Any, event: Struct, at: int
) -> tuple[GameMeta, Any]:
    """A ruleset event: its evolve, and the takeback stack emptied if it shows the player
    something hidden."""
    if meta.undo and _shows_hidden(ruleset, event):
        meta = _blocked(meta, at, "hidden")
    return meta, ruleset.evolve(state, event)


def fold(
    envelopes: Iterable[Envelope],
    game: Game | None = None,
    ruleset: Ruleset[Any] | None = None,
) -> Game | None:
    """Fold envelopes onto `game` (or from the start). Returns None for an empty log.

    A `GameAmended` (docs/audit.md "Amendments") needs the log before it: folded from the
    start, the events are kept as they go; onto a given `game`, it raises NeedsWholeLog.
    """
    codec = codec_for(ruleset) if ruleset is not None else None
    # From the start only: the current line (docs/audit.md "Amendments"), for an
    # amendment's return: every (envelope, event) folded and not superseded since, and the
    # GameCreated with every amendment's reading applied so far.
    line: list[tuple[Envelope, Struct]] | None = [] if game is None else None
    created: GameCreated | None = None
    for env in envelopes:
        if game is None:
            ruleset = ruleset or ruleset_of(env)
            codec = codec_for(ruleset)
            first = codec.decode(env.type, env.version, env.payload, seq=env.seq)
            if not isinstance(first, GameCreated) or env.seq != 1:
                raise CorruptEvent(f"game log starts with {env.type} at seq {env.seq}")
            game = start(ruleset, first)
            created = first
        else:
            assert ruleset is not None and codec is not None
            event = codec.decode(env.type, env.version, env.payload, seq=env.seq)
            if isinstance(event, GameAmended) and line is not None and created is not None:
                created = amended_setup(ruleset, created, event.reading, event.value)
                line[:] = [(e, past) for e, past in line if e.seq < event.parts_from]
                game = amended(ruleset, created, line, game, env.seq)
            elif type(event) in _ENGINE_EVENTS:
                if line is not None:
                    line.append((env, event))
                game = apply(ruleset, game, event, seq=env.seq, command_id=env.command_id)
            else:  # most events: straight to the ruleset, one Game built per event
                if line is not None:
                    line.append((env, event))
                meta, state = _ruleset_step(ruleset, game.meta, game.state, event, env.seq)
                game = Game(msgspec.structs.replace(meta, seq=env.seq, last_hash=env.hash), state)
                continue
        game = Game(msgspec.structs.replace(game.meta, seq=env.seq, last_hash=env.hash), game.state)
    return game


def amended_setup(
    ruleset: Ruleset[Any], created: GameCreated, reading: str, value: str
) -> GameCreated:
    """GameCreated with the declared reading `reading` switched to `value` (unchanged
    without a reading)."""
    declared = ruleset.reading(reading) if reading else None
    if declared is None:
        return created
    chosen = parse_value(declared, value)
    return msgspec.structs.replace(created, setup={**created.setup, declared.name: chosen})


def amended(
    ruleset: Ruleset[Any],
    created: GameCreated,
    kept: Sequence[tuple[Envelope, Struct]],
    head: Game,
    seq: int,
) -> Game:
    """The game at a `GameAmended` at `seq`: `kept` (the current line before its
    `parts_from`, GameCreated left out; docs/audit.md "Amendments") folded again from
    `created` (the game's GameCreated with every amendment's reading so far, this one's
    included); `head`: the game folded up to it. The roll count stays the log's
    (`head`'s), so no roll number is used twice by a new roll, and nothing before it may
    be taken back."""
    game = start(ruleset, created)
    for env, past in kept:
        game = apply(ruleset, game, past, seq=env.seq, command_id=env.command_id)
        game = Game(msgspec.structs.replace(game.meta, seq=env.seq), game.state)
    meta = msgspec.structs.replace(
        game.meta, seq=seq, rolls=head.meta.rolls, epoch_rolls=head.meta.epoch_rolls
    )
    return Game(_blocked(meta, seq, "amend"), game.state)


class CurrentLine(Struct, frozen=True, kw_only=True):
    """A log's current line (docs/audit.md "Amendments"): `created`, its GameCreated with
    every amendment's reading applied in order; `positions`, the 0-based positions in the
    log of the events the game now stands on (seq 1 first, each `GameAmended` and the
    events it superseded left out); `superseded`, each superseded seq with the seq of the
    `GameAmended` that superseded it."""

    created: GameCreated
    positions: tuple[int, ...]
    superseded: dict[int, int]


def current_line(ruleset: Ruleset[Any], decoded: Sequence[Struct]) -> CurrentLine:
    """The current line of a decoded log from seq 1: an amendment supersedes every event
    of the line from its `parts_from` on (its own ruling among them) and the events after it
    continue the line, so a later amendment may start anywhere on that line."""
    first = decoded[0]
    if not isinstance(first, GameCreated):
        raise CorruptEvent("a game log starts with GameCreated")
    created = first
    positions: list[int] = [0]
    superseded: dict[int, int] = {}
    for index in range(1, len(decoded)):
        event = decoded[index]
        if isinstance(event, GameAmended):
            created = amended_setup(ruleset, created, event.reading, event.value)
            superseded |= {p + 1: index + 1 for p in positions if p + 1 >= event.parts_from}
            positions = [p for p in positions if p + 1 < event.parts_from]
        else:
            positions.append(index)
    return CurrentLine(created=created, positions=tuple(positions), superseded=superseded)


def state_hash(game: Game) -> str:
    """SHA-256 of the canonical encoding of a folded game."""
    return hashlib.sha256(canonical_bytes((game.meta, game.state))).hexdigest()


def encode_game(game: Game) -> bytes:
    """Canonical bytes of a folded game, for snapshots."""
    return canonical_bytes((game.meta, game.state))


def decode_game(ruleset: Ruleset[Any], data: bytes) -> Game:
    """A folded game back from snapshot bytes."""
    meta, state = msgspec.msgpack.decode(data, type=tuple[GameMeta, Any])
    # The takeback stack's states come back as plain data, like the state itself.
    undo = tuple(
        msgspec.structs.replace(u, state=msgspec.convert(u.state, ruleset.state_type))
        for u in meta.undo
    )
    if undo:
        meta = msgspec.structs.replace(meta, undo=undo)
    return Game(meta, msgspec.convert(state, ruleset.state_type))
