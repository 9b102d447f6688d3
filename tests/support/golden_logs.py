"""Recorded game logs of every shipped ruleset, to show a refactor keeps logs foldable.

Each log is played in-process from a fixed seed by random legal actions (the action
schemas, testing/support/schema_sampler.py) and stored in tests/data/golden/<ruleset>.json:
the setup, the commands sent, every event's tag, version and canonical payload bytes, and
the state hash the fold reaches. From every shipped scenario a shorter log is kept as the
commands, a digest of the events and the state hash (scenarios.json).
tests/rulesets/test_golden_logs.py folds the stored events again (same hash: old logs still
fold to the same state) and replays the commands (byte-identical events: every encoding
and citation string is unchanged).

Regenerate only on purpose, from the commit whose behaviour is the reference:
`.venv/bin/python -m tests.support.golden_logs`. A log recorded before an event type's
version was bumped moves to old-format/ first (load_old_format): it stays as the fixture
that old payloads still fold and replay.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from msgspec import Struct

from tests.support.golden_setups import setups
from umpire.engine.actions import legal_actions
from umpire.engine.dice import ServerDice
from umpire.engine.game import Game, GameMeta, apply, codec_for, parse_setup
from umpire.engine.handling import decide_command
from umpire.engine.registry import get
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.engine.scenarios import scenarios
from umpire.events.codec import canonical_bytes
from umpire.events.errors import UmpireError
from umpire.testing.support.schema_sampler import sample

DATA = Path(__file__).resolve().parent.parent / "data" / "golden"
SEED = b"golden-log-seed"
CLIENT_SEED = "golden"
COMMANDS = 120
SCENARIO_COMMANDS = 40


@dataclass
class Played:
    """One in-process game: the commands accepted, the events they appended, the end."""

    commands: list[dict[str, Any]]
    events: list[Struct]
    game: Game


def start(ruleset: Ruleset[Any], setup: dict[str, Any]) -> Game:
    """A fresh game of `ruleset` (no envelopes: the fold of the ruleset's events only)."""
    meta = GameMeta(
        game_id="golden",
        ruleset=ruleset.name,
        ruleset_version=ruleset.version,
        seed_commitment="",
        client_seed=CLIENT_SEED,
        # Recorded before Order Cards named for the AI followed the opponent's-dice policy:
        # those games took them, and a game created to allow them still does.
        opponent_manual_dice=True,
    )
    return Game(meta, ruleset.initial_state(parse_setup(ruleset, setup)))


def send(ruleset: Ruleset[Any], game: Game, command: dict[str, Any]) -> tuple[Game, list[Struct]]:
    """Decide one command with the golden seed's dice and fold what it appends."""
    dice = ServerDice(
        SEED, CLIENT_SEED, game.meta.rolls, opponent_entries=game.meta.opponent_manual_dice
    )
    events = decide_command(ruleset, game, command, dice)
    for event in events:
        game = apply(ruleset, game, event)
    return game, events


def play(name: str, setup: dict[str, Any], *, limit: int = COMMANDS) -> Played:
    """Random legal commands from a fixed seed until the game ends or `limit` are sent."""
    ruleset = get(name)
    rng = random.Random(name)
    game = start(ruleset, setup)
    commands: list[dict[str, Any]] = []
    events: list[Struct] = []
    for _ in range(limit * 4):
        if game.meta.ended or len(commands) >= limit:
            break
        offered = [
            a
            for a in legal_actions(ruleset, game.state, Role.PLAYER, ended=False)
            if a.type not in ("RollDice", "EndGame")
        ]
        if not offered:
            break
        command = sample(rng.choice(offered).schema, rng)
        try:
            game, appended = send(ruleset, game, command)
        except UmpireError:
            continue
        commands.append(command)
        events += appended
    return Played(commands, events, game)


def state_digest(game: Game) -> str:
    """SHA-256 of the canonical bytes of the folded ruleset state and roll count."""
    return hashlib.sha256(canonical_bytes((game.meta.rolls, game.state))).hexdigest()


def encoded(ruleset: Ruleset[Any], events: list[Struct]) -> list[list[Any]]:
    """Each event as [tag, version, hex of its canonical payload]."""
    codec = codec_for(ruleset)
    return [[tag, version, payload.hex()] for tag, version, payload in map(codec.encode, events)]


def record(name: str, setup: dict[str, Any]) -> dict[str, Any]:
    """The stored form of one ruleset's golden log."""
    played = play(name, setup)
    return {
        "ruleset": name,
        "setup": setup,
        "commands": played.commands,
        "events": encoded(get(name), played.events),
        "state_hash": state_digest(played.game),
    }


def digest(ruleset: Ruleset[Any], events: list[Struct]) -> str:
    """SHA-256 over every event's tag, version and canonical payload, in order."""
    return hashlib.sha256(json.dumps(encoded(ruleset, events)).encode()).hexdigest()


def scenario_logs() -> list[dict[str, Any]]:
    """A shorter log from every shipped scenario of every ruleset, kept as digests: the
    commands, the digest of the events they appended and the state hash."""
    out = []
    for name in sorted(setups()):
        ruleset = get(name)
        for each in scenarios(ruleset):
            played = play(name, dict(each.setup), limit=SCENARIO_COMMANDS)
            out.append(
                {
                    "ruleset": name,
                    "scenario": each.name,
                    "commands": played.commands,
                    "events_sha256": digest(ruleset, played.events),
                    "state_hash": state_digest(played.game),
                }
            )
    return out


def load(name: str) -> dict[str, Any]:
    """One ruleset's stored golden log."""
    data: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text())
    return data


def load_old_format(name: str) -> dict[str, Any]:
    """One ruleset's golden log as recorded before an event version bump (old-format/):
    it must still fold and replay, its old payloads read as the current versions."""
    data: dict[str, Any] = json.loads((DATA / "old-format" / f"{name}.json").read_text())
    return data


def load_scenarios() -> list[dict[str, Any]]:
    """Every shipped scenario's stored log."""
    data: list[dict[str, Any]] = json.loads((DATA / "scenarios.json").read_text())
    return data


def main() -> None:
    """Write every shipped ruleset's golden log."""
    DATA.mkdir(parents=True, exist_ok=True)
    for name, setup in setups().items():
        data = record(name, setup)
        (DATA / f"{name}.json").write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
        print(name, len(data["commands"]), "commands", len(data["events"]), "events")
    logs = scenario_logs()
    (DATA / "scenarios.json").write_text(json.dumps(logs, indent=0, sort_keys=True) + "\n")
    print(len(logs), "scenario logs")


if __name__ == "__main__":
    main()
