"""Hi-lo's own rules (umpire_hilo/RULES.md), one test per rule, with stated dice."""

from __future__ import annotations

import pytest
from umpire_hilo import RULESET, Call, CallDie, DieHidden, DieShown, Hide, Setup, State

from umpire.engine.dice import ManualDice
from umpire.engine.errors import RuleError
from umpire.engine.roles import Role
from umpire.events.types import DiceRolled, GameEnded


def _fold(state: State, events: list[object]) -> State:
    for event in events:
        state = RULESET.evolve(state, event)  # type: ignore[arg-type]
    return state


def test_r1_a_game_is_its_set_up_rounds_from_a_score_of_0() -> None:
    assert RULESET.initial_state(Setup()) == State(rounds=3)
    assert RULESET.initial_state(Setup(rounds=5)).rounds == 5


def test_r2_the_bot_s_die_is_hidden_and_the_referee_s_alone() -> None:
    state = RULESET.initial_state(Setup())
    events = list(RULESET.decide(state, Hide(), ManualDice([[5]], 0)))
    assert isinstance(events[0], DiceRolled) and events[0].hidden and events[0].total == 5
    assert events[1] == DieHidden(held=5, rule="hilo R2", dice=(0,))
    after = _fold(state, events)
    assert RULESET.view(after, Role.REFEREE)["held"] == 5
    for role in (Role.PLAYER, Role.SPECTATOR):
        assert "held" not in RULESET.view(after, role)
        assert RULESET.redact(events[1], role) == DieHidden(held=-1, rule="hilo R2", dice=(0,))
    with pytest.raises(RuleError) as info:
        RULESET.decide(after, Hide(), ManualDice([[1]], 1))
    assert info.value.rule == "hilo R2"


CALLS = [(4, Call.HIGH, True), (3, Call.HIGH, False), (1, Call.LOW, True), (6, Call.LOW, False)]


@pytest.mark.parametrize(("held", "call", "right"), CALLS)
def test_r3_a_right_call_scores(held: int, call: Call, right: bool) -> None:
    state = State(rounds=3, round=1, held=held, held_roll=0)
    events = list(RULESET.decide(state, CallDie(call=call), ManualDice([], 1)))
    shown = events[0]
    assert isinstance(shown, DieShown) and (shown.shown, shown.right) == (held, right)
    assert shown.dice == (0,) and shown.rule == "hilo R3"
    assert _fold(state, events).score == int(right) and _fold(state, events).held == 0


def test_r3_no_call_before_the_bot_hides_its_die() -> None:
    with pytest.raises(RuleError) as info:
        RULESET.decide(State(rounds=3), CallDie(call=Call.LOW), ManualDice([], 0))
    assert info.value.rule == "hilo R3"


def test_r4_the_last_round_s_call_ends_the_game() -> None:
    state = State(rounds=2, round=2, score=1, held=6, held_roll=1)
    events = list(RULESET.decide(state, CallDie(call=Call.HIGH), ManualDice([], 2)))
    assert isinstance(events[-1], GameEnded) and events[-1].rule == "hilo R4"
    assert events[-1].result == "2 of 2"
    early = list(RULESET.decide(State(rounds=2, round=1, held=6), CallDie(call=Call.HIGH),
                                ManualDice([], 1)))  # fmt: skip
    assert not any(isinstance(e, GameEnded) for e in early)
