"""Random play (STYLE 9): whole games from fixed seeds with random legal commands; after
every command the fold is deterministic, a replay from the recorded dice gives the same
events, and every bot decision event names a rule of the seed."""

from __future__ import annotations

import random

import msgspec
import pytest

from tests.rulesets.age_of_dogfights.setups import SETUP
from umpire.engine.dice import RecordedDice, ServerDice
from umpire.engine.rulesets.age_of_dogfights import RULESET, initial_state
from umpire.engine.rulesets.age_of_dogfights.commands import (
    FlyBots,
    ReportAircraft,
    ReportBotDamage,
    RollSetup,
    changes_nothing,
)
from umpire.engine.rulesets.age_of_dogfights.events import Decision
from umpire.engine.rulesets.age_of_dogfights.geometry import HEADINGS, Board
from umpire.engine.rulesets.age_of_dogfights.setup import Setup
from umpire.engine.rulesets.age_of_dogfights.terms import Attitude, Damage
from umpire.events.types import DiceRolled, GameEnded


@pytest.mark.parametrize("seed", range(40))
def test_random_games_replay_and_fold_deterministically(seed: int) -> None:
    rng = random.Random(seed)
    state = initial_state(msgspec.convert(SETUP, Setup))
    start = state
    board = Board(state.model.width, state.model.height)
    log: list[msgspec.Struct] = []
    rolls = 0
    commands: list[msgspec.Struct] = [RollSetup()]
    for _ in range(60):
        if not commands:
            choice = rng.random()
            if choice < 0.45:
                commands.append(FlyBots())
            elif choice < 0.85 and state.players():
                plane = rng.choice(state.players())
                commands.append(ReportAircraft(
                    aircraft=plane.id,
                    position=(rng.randrange(board.width), rng.randrange(board.height)),
                    heading=rng.choice(HEADINGS),
                    level=rng.randint(1, state.ceiling(plane)),
                    attitude=rng.choice(list(Attitude)),
                    jammed=rng.random() < 0.1, damaged=rng.random() < 0.2,
                ))  # fmt: skip
            elif state.bots():
                bot = rng.choice(state.bots())
                # Not jammed guns again on a jammed bot: that changes nothing (issue 41).
                kinds = [d for d in Damage if not changes_nothing(bot, d)]
                commands.append(ReportBotDamage(aircraft=bot.id, damage=rng.choice(kinds)))
            else:
                break
        command = commands.pop(0)
        dice = ServerDice(b"\x07" * 32, f"fuzz{seed}", rolls)
        events = list(RULESET.decide(state, command, dice))
        assert [e for e in events if isinstance(e, DiceRolled)] == dice.rolled
        replayed = list(RULESET.decide(state, command, RecordedDice(dice.rolled)))
        assert msgspec.to_builtins(replayed) == msgspec.to_builtins(events)
        for event in events:
            if isinstance(event, Decision):
                assert event.rule.startswith(("001_989a2f850da69b66.txt", "Age of Dogfights"))
            state = RULESET.evolve(state, event)
        rolls += len(dice.rolled)
        log.extend(events)
        if any(isinstance(e, GameEnded) for e in events):
            break
    again = start
    for event in log:
        again = RULESET.evolve(again, event)
    assert msgspec.msgpack.encode(again) == msgspec.msgpack.encode(state)
    for plane in state.planes:
        if not plane.out:
            assert 1 <= plane.level <= state.ceiling(plane)
            assert board.contains(plane.position)
