"""A game log built in memory, the way server/games.py appends it, for the takeback tests:
each command decided on the fold of the log so far with the game's server dice, its
events sealed into the hash chain under the command's id (secret ones committed)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine.dice import ServerDice
from umpire.engine.game import Game, codec_for, fold, state_hash
from umpire.engine.handling import decide_command
from umpire.engine.redaction import is_secret
from umpire.engine.ruleset import Ruleset
from umpire.events.envelope import GENESIS_HASH, Envelope, seal
from umpire.events.types import ClientEntropy, GameCreated

SEED = hashlib.sha256(b"takeback tests").digest()


@dataclass
class Log:
    """One game's envelopes, appended to by `send`."""

    ruleset: Ruleset[Any]
    setup: dict[str, Any] = field(default_factory=dict)
    envelopes: list[Envelope] = field(default_factory=list)
    sent: int = 0

    def __post_init__(self) -> None:
        created = GameCreated(
            game_id="tb", ruleset=self.ruleset.name, ruleset_version=self.ruleset.version,
            setup=self.setup, seed_commitment=hashlib.sha256(SEED).hexdigest(),
            client_entropy=ClientEntropy.WAIVED,
        )  # fmt: skip
        self.append([created], "umpire:create")

    @property
    def game(self) -> Game:
        """The fold of the log so far."""
        game = fold(self.envelopes, None, self.ruleset)
        assert game is not None
        return game

    def append(self, events: list[Struct], command_id: str) -> list[Envelope]:
        """Seal `events` as one batch; returns their envelopes."""
        codec = codec_for(self.ruleset)
        out = []
        for event in events:
            tag, version, payload = codec.encode(event)
            prev = self.envelopes[-1].hash if self.envelopes else GENESIS_HASH
            env = seal(
                game_id="tb", seq=len(self.envelopes) + 1, type=tag, version=version,
                payload=payload, command_id=command_id, recorded_at="2026-11-23T00:00:00Z",
                prev_hash=prev, commit_seed=SEED if is_secret(self.ruleset, event) else None,
            )  # fmt: skip
            self.envelopes.append(env)
            out.append(env)
        return out

    def send(self, command: dict[str, Any], command_id: str | None = None) -> list[Struct]:
        """Decide `command` on the fold so far and append its batch (or raise, appending
        nothing). Returns the events."""
        game = self.game
        dice = ServerDice(SEED, "", game.meta.rolls)
        events = decide_command(self.ruleset, game, command, dice)
        self.sent += 1
        self.append(events, command_id or f"c{self.sent}")
        return events


def bookkeeping_free(game: Game) -> str:
    """The state hash of `game` with the engine's command bookkeeping set aside (seq, last
    hash, commands counted, takeback counters and stack): what a takeback restores."""
    meta = msgspec.structs.replace(
        game.meta, seq=0, last_hash="", commands=0, taken_back=0, takebacks_in_row=0, undo=()
    )
    return state_hash(Game(meta, game.state))
