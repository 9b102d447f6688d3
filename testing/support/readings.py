"""Games played in memory for the readings checks (testing/contract/test_readings.py): a
driven game of a ruleset as a log (envelopes without a store: the re-making in
engine/disputes.py reads only seqs, command ids and payloads), and where a declared
reading's alternative makes that log part from the one played.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine import registry
from umpire.engine.dice import ServerDice
from umpire.engine.disputes import remake, setup_under
from umpire.engine.game import Game, apply, codec_for, start
from umpire.engine.handling import decide_command
from umpire.engine.kit.reading import Reading
from umpire.engine.roles import Role
from umpire.events.codec import canonical_json
from umpire.events.envelope import Envelope
from umpire.events.errors import UmpireError
from umpire.events.types import CommandRecorded, GameCreated
from umpire.testing.support.drivers import driver

SEED = b"readings-check-seed"
CLIENT_SEED = "readings"
ZERO = "0" * 64


class Log(Struct, frozen=True, kw_only=True):
    """A played game as its log: the envelopes and their decoded events."""

    envelopes: tuple[Envelope, ...]
    decoded: tuple[Any, ...]
    game: Any


def _envelope(name: str, seq: int, event: Struct, command_id: str) -> Envelope:
    tag, version, payload = codec_for(registry.get(name)).encode(event)
    return Envelope(
        game_id="readings", seq=seq, type=tag, version=version, payload=payload,
        command_id=command_id, recorded_at="", prev_hash=ZERO, hash=ZERO,
    )  # fmt: skip


def played(
    name: str,
    setup: dict[str, Any],
    *,
    seed: int = 0,
    limit: int = 150,
    script: Sequence[dict[str, Any]] = (),
) -> Log:
    """A game of `name` from `setup` with fixed server dice: the `script` commands first
    (each must be accepted), then driven (testing/support/drivers.py) for up to `limit`
    accepted commands or its end. A driver that cannot propose in some state (its own
    generator is built for its own set-ups) ends the game there."""
    ruleset = registry.get(name)
    _, propose = driver(name)
    rng = random.Random(seed)
    created = GameCreated(
        game_id="readings", ruleset=name, ruleset_version=ruleset.version, setup=setup,
        seed_commitment=ZERO, client_seed=CLIENT_SEED,
    )  # fmt: skip
    game: Game = start(ruleset, created)
    envelopes = [_envelope(name, 1, created, "create")]
    decoded: list[Any] = [created]
    accepted = 0
    for attempt in range(len(script) + limit * 4):
        if game.meta.ended or accepted >= limit + len(script):
            break
        if attempt < len(script):
            command = script[attempt]
        else:
            try:
                command = rng.choice(propose(game.state, rng))
            except (StopIteration, KeyError, IndexError):
                break
        dice = ServerDice(SEED, CLIENT_SEED, game.meta.rolls,
                          opponent_entries=game.meta.opponent_manual_dice)  # fmt: skip
        try:
            events = decide_command(ruleset, game, command, dice, role=Role.PLAYER)
        except UmpireError:
            if attempt < len(script):
                raise
            continue
        accepted += 1
        for event in events:
            seq = len(decoded) + 1
            game = apply(ruleset, game, event, seq=seq, command_id=f"c{attempt}")
            game = Game(msgspec.structs.replace(game.meta, seq=seq), game.state)
            envelopes.append(_envelope(name, seq, event, f"c{attempt}"))
            decoded.append(event)
    return Log(envelopes=tuple(envelopes), decoded=tuple(decoded), game=game)


def parting(name: str, log: Log, reading: Reading, value: str) -> int | None:
    """The first seq where the log re-made under `reading` = `value` (every recorded
    command decided again with its recorded dice) parts from the log played, or None."""
    ruleset = registry.get(name)
    created = log.decoded[0]
    assert isinstance(created, GameCreated)
    start_seq = next(
        (i + 1 for i, e in enumerate(log.decoded) if isinstance(e, CommandRecorded)), None
    )
    if start_seq is None:
        return None
    claimed = setup_under(created, reading, value)
    line = remake(ruleset, log.envelopes, log.decoded, start_seq, claimed)
    original = log.decoded[start_seq - 1 :]
    for i in range(max(len(original), len(line.events))):
        if i >= len(original) or i >= len(line.events):
            return start_seq + i
        if canonical_json(original[i]) != canonical_json(line.events[i]):
            return start_seq + i
    return None
