"""Counter's own rules (umpire_counter/RULES.md), one test per rule, with stated dice."""

from __future__ import annotations

import pytest
from umpire_counter import (
    RULESET,
    Add,
    Added,
    BotPushed,
    Hide,
    Push,
    SecretChosen,
    Setup,
    State,
)

from umpire.engine.dice import ManualDice
from umpire.engine.errors import RuleError
from umpire.engine.roles import Role
from umpire.events.types import DiceRolled, GameEnded


def _fold(state: State, events: list[object]) -> State:
    for event in events:
        state = RULESET.evolve(state, event)  # type: ignore[arg-type]
    return state


def test_r1_adds_up_to_the_target_and_never_past_it() -> None:
    state = RULESET.initial_state(Setup(target=10))
    state = _fold(state, list(RULESET.decide(state, Add(amount=6), ManualDice([], 0))))
    assert state.total == 6
    with pytest.raises(RuleError) as info:
        RULESET.decide(state, Add(amount=5), ManualDice([], 0))
    assert info.value.rule == "test-counter R1" and "at most 4 now" in info.value.message


def test_r2_the_bot_pushes_by_its_own_d6_even_past_the_target() -> None:
    state = State(target=10, total=8)
    events = list(RULESET.decide(state, Push(), ManualDice([[5]], 0)))
    assert isinstance(events[0], DiceRolled) and events[0].total == 5
    assert events[1] == BotPushed(amount=5, rule="test-counter R2", dice=(0,))
    assert _fold(state, events).total == 13


def test_r3_the_secret_is_the_referee_s_alone() -> None:
    state = RULESET.initial_state(Setup())
    events = list(RULESET.decide(state, Hide(), ManualDice([[4]], 0)))
    chosen = events[1]
    assert isinstance(chosen, SecretChosen) and chosen.value == 4
    after = _fold(state, events)
    assert RULESET.view(after, Role.REFEREE)["secret"] == 4
    for role in (Role.PLAYER, Role.SPECTATOR):
        assert "secret" not in RULESET.view(after, role)
        assert RULESET.redact(chosen, role) is None


def test_r4_reaching_the_target_ends_the_game() -> None:
    state = State(target=10, total=7)
    events = list(RULESET.decide(state, Add(amount=3), ManualDice([], 0)))
    assert events[0] == Added(amount=3)
    assert isinstance(events[-1], GameEnded) and events[-1].rule == "test-counter R4"
