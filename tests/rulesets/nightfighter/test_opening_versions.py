"""The opening by the game's recorded version (README ledger "the opening"): a new game
(v9) opens at turn 1's Bomber Movement Phase, as the sequence of play begins (EXAMPLE OF
PLAY, turn 1); a log recorded under v8 opens at turn 0, as it was recorded, so it folds to
its stored state hash and its seq-1 view (what a `created` receipt hashed) is unchanged.

data/golden_v8.json is tests/data/golden/nightfighter.json as v8 recorded it (the golden
log is re-recorded under v9: its stored commands opened with the EndPhase that v8 took at
turn 0, which a v9 opening no longer needs).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec

from tests.support.golden_logs import encoded, state_digest
from umpire.engine.dice import ServerDice
from umpire.engine.game import Game, apply, codec_for, start
from umpire.engine.handling import decide_command
from umpire.engine.roles import Role
from umpire.engine.rulesets.nightfighter import RULESET
from umpire.engine.rulesets.nightfighter.terms import Phase
from umpire.events.types import GameCreated

V8_LOG = Path(__file__).parent / "data" / "golden_v8.json"
SEED = b"golden-log-seed"  # tests/support/golden_logs.py: the dice the log was recorded with


def created(version: str, setup: dict[str, Any]) -> GameCreated:
    return GameCreated(
        game_id="g-opening",
        ruleset="nightfighter",
        ruleset_version=version,
        setup=setup,
        seed_commitment="0" * 64,
        client_seed="golden",
        opponent_manual_dice=True,
    )


def test_a_new_game_opens_at_turn_1s_bomber_movement() -> None:
    data = json.loads(V8_LOG.read_text())
    game = start(RULESET, created(RULESET.version, data["setup"]))
    assert (game.state.turn, game.state.phase) == (1, Phase.BOMBER_MOVEMENT)
    seen = RULESET.view(game.state, Role.PLAYER)
    assert (seen["turn"], seen["phase"]) == (1, "bomber_movement")


def test_a_v8_log_opens_before_turn_1_and_folds_to_its_stored_hash() -> None:
    data = json.loads(V8_LOG.read_text())
    game = start(RULESET, created("8", data["setup"]))
    assert (game.state.turn, game.state.phase) == (0, Phase.COMBAT)
    seen = RULESET.view(game.state, Role.PLAYER)
    assert (seen["turn"], seen["phase"]) == (0, "combat")  # the seq-1 view v8 receipts hashed
    codec = codec_for(RULESET)
    for tag, version, payload in data["events"]:
        game = apply(RULESET, game, codec.decode(tag, version, bytes.fromhex(payload)))
    assert state_digest(game) == data["state_hash"]


def test_a_v8_log_replays_its_commands_to_the_same_events() -> None:
    """Continued under v9, a v8 game decides as it did: its stored commands (EndPhase at
    turn 0 first) are accepted and append the same events, but for the words v9 gives the
    Fighter Movement phase's start ("Fighter Movement phase", v8 left it blank)."""
    data = json.loads(V8_LOG.read_text())
    game: Game = start(RULESET, created("8", data["setup"]))
    events = []
    for command in data["commands"]:
        dice = ServerDice(SEED, "golden", game.meta.rolls, opponent_entries=True)
        appended = decide_command(RULESET, game, command, dice)
        for event in appended:
            game = apply(RULESET, game, event)
        events += appended
    said = [
        msgspec.structs.replace(e, explanation="")
        if type(e).__name__ == "PhaseBegan" and e.explanation == "Fighter Movement phase"  # type: ignore[attr-defined]
        else e
        for e in events
    ]
    assert encoded(RULESET, said) == data["events"]
    assert state_digest(game) == data["state_hash"]
