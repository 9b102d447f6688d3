"""Random play (STYLE.md 9): whole games of random commands under server dice, checking
after every step the S5.4/S7.0/S5.1 invariants, a deterministic fold and no leak."""

from __future__ import annotations

import random
from collections import Counter as Tally
from typing import Any

import pytest

from tests.rulesets.nightfighter.setups import command, random_options, random_setup
from umpire.engine.dice import ServerDice
from umpire.engine.errors import RuleError
from umpire.engine.kit.fold import fold
from umpire.engine.roles import Role
from umpire.engine.rulesets.nightfighter import RULESET
from umpire.engine.rulesets.nightfighter.evolve import evolve, initial_state
from umpire.engine.rulesets.nightfighter.state import State
from umpire.engine.rulesets.nightfighter.terms import Status, Track, Uncertainty


def _check(state: State) -> None:
    on_map = [c.hex for c in state.counters if c.status is Status.ON_MAP]
    assert len(on_map) == len(set(on_map)), "S7.0: two counters in one hex"
    highs = Tally(
        c.bomber for c in state.counters
        if c.level is Uncertainty.HIGH and c.status is not Status.REMOVED
    )  # fmt: skip
    assert all(n >= 2 for n in highs.values()), "S5.4: a lone high counter"
    for c in state.counters:
        if c.status is not Status.ON_MAP:
            continue
        fixed = bool(c.tallied_by or c.ai_fixed_by or c.searchlight or c.track is Track.ON_TOP)
        assert (c.level is Uncertainty.NONE) is fixed or c.certain, c
    assert "rolled_hex" not in str(RULESET.view(state, Role.PLAYER))


@pytest.mark.parametrize("seed", range(6))
def test_random_games(seed: int) -> None:
    rng = random.Random(seed)
    setup = random_setup(seed)
    state = initial_state(setup)
    log: list[Any] = []
    rolls = 0
    steps = 0
    while state.turn <= 16 and steps < 3000:
        steps += 1
        wire = rng.choice(random_options(state, rng))
        dice = ServerDice(b"\x07" * 32, f"random-{seed}", rolls)
        try:
            events = RULESET.decide(state, command(wire.pop("type"), **wire), dice)
        except RuleError:
            continue
        rolls += len(dice.rolled)
        log += events
        state = fold(evolve, state, events)
        _check(state)
    assert state.turn > 16
    assert fold(evolve, initial_state(setup), log) == state  # the fold is deterministic
