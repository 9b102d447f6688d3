"""The fold: a game's state is `evolve` folded over its log.

`Game` pairs the engine's own bookkeeping (`GameMeta`: seq, roll count, end, seed reveal)
with the ruleset's state. The state hash is SHA-256 over the canonical encoding of both,
so the same log always folds to the same hash.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import cache
from typing import Any

import msgspec
from msgspec import Struct

from engine import registry
from engine.errors import InvalidSetup
from engine.ruleset import Ruleset
from engine.schemas import struct_schema
from engine.validation import explained
from events.codec import EventRegistry, canonical_bytes
from events.envelope import GENESIS_HASH, Envelope
from events.errors import CorruptEvent
from events.types import (
    ClientEntropy,
    ClientSeedBound,
    CommandRecorded,
    DiceRolled,
    GameCreated,
    GameEnded,
    SeedRevealed,
)


class GameMeta(Struct, frozen=True, kw_only=True):
    """What the engine itself tracks of every game, whatever its ruleset.

    Seeds come in epochs (docs/audit.md (4.1)): `seed_commitment` and `client_seed` are
    the current epoch's, `client_bound` whether its client seed is bound, `epoch_rolls`
    how many rolls it has made. `revealed_seed` is set by the final reveal only (a reveal
    that commits no next seed); a mid-game reveal rotates to the next epoch instead.
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


def ruleset_of(first: Envelope) -> Ruleset[Any]:
    """The ruleset named by a log's first event."""
    created = _universal.decode(first.type, first.version, first.payload, seq=first.seq)
    if not isinstance(created, GameCreated):
        raise CorruptEvent(
            f"event 1 of game {first.game_id!r} is {first.type}, not GameCreated", seq=first.seq
        )
    return registry.get(created.ruleset)


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
    )
    return Game(meta, ruleset.initial_state(parse_setup(ruleset, created.setup)))


def apply(ruleset: Ruleset[Any], game: Game, event: Struct) -> Game:
    """One step of the fold: engine bookkeeping, then the ruleset's evolve."""
    meta = game.meta
    if isinstance(event, DiceRolled):
        meta = msgspec.structs.replace(meta, rolls=meta.rolls + 1, epoch_rolls=meta.epoch_rolls + 1)
        return Game(meta, ruleset.evolve(game.state, event))
    if isinstance(event, CommandRecorded):
        return Game(msgspec.structs.replace(meta, commands=meta.commands + 1), game.state)
    if isinstance(event, ClientSeedBound):
        meta = msgspec.structs.replace(meta, client_seed=event.client_seed, client_bound=True)
        return Game(meta, game.state)
    if isinstance(event, SeedRevealed):
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
        return Game(msgspec.structs.replace(meta, ended=True, result=event.result), game.state)
    if isinstance(event, GameCreated):
        raise CorruptEvent("GameCreated may only be the first event of a game")
    return Game(meta, ruleset.evolve(game.state, event))


def fold(
    envelopes: Iterable[Envelope],
    game: Game | None = None,
    ruleset: Ruleset[Any] | None = None,
) -> Game | None:
    """Fold envelopes onto `game` (or from the start). Returns None for an empty log."""
    codec = codec_for(ruleset) if ruleset is not None else None
    for env in envelopes:
        if game is None:
            ruleset = ruleset or ruleset_of(env)
            codec = codec_for(ruleset)
            created = codec.decode(env.type, env.version, env.payload, seq=env.seq)
            if not isinstance(created, GameCreated) or env.seq != 1:
                raise CorruptEvent(f"game log starts with {env.type} at seq {env.seq}")
            game = start(ruleset, created)
        else:
            assert ruleset is not None and codec is not None
            event = codec.decode(env.type, env.version, env.payload, seq=env.seq)
            game = apply(ruleset, game, event)
        game = Game(msgspec.structs.replace(game.meta, seq=env.seq, last_hash=env.hash), game.state)
    return game


def state_hash(game: Game) -> str:
    """SHA-256 of the canonical encoding of a folded game."""
    return hashlib.sha256(canonical_bytes((game.meta, game.state))).hexdigest()


def encode_game(game: Game) -> bytes:
    """Canonical bytes of a folded game, for snapshots."""
    return canonical_bytes((game.meta, game.state))


def decode_game(ruleset: Ruleset[Any], data: bytes) -> Game:
    """A folded game back from snapshot bytes."""
    meta, state = msgspec.msgpack.decode(data, type=tuple[GameMeta, Any])
    return Game(meta, msgspec.convert(state, ruleset.state_type))
