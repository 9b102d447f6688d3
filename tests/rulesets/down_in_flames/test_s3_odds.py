"""3.2 (and 6.1): the odds system and its results tables, checked against the seed."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.rulesets.down_in_flames.setups import duel, engaged, of_type, run, says
from umpire.engine.rulesets.down_in_flames.events import (
    AircraftDamaged,
    AircraftShotDown,
    AttackResolved,
)
from umpire.engine.rulesets.down_in_flames.tables import odds as odds_table
from umpire.engine.rulesets.down_in_flames.tables.odds import D6_COLUMNS, D12_COLUMNS
from umpire.engine.rulesets.down_in_flames.terms import CombatDie, Outcome


class TestS3_2_TableAgainstSeed:
    """3.2.5-3.2.8: the printed wording of each column."""

    def test_general_rule_is_printed(self) -> None:
        assert says("If the result is less than or equal to half the odds, the target")
        assert says("aircraft is shot down. If the result is less than or equal to the odds, "
                    "the target is damaged.")  # fmt: skip

    def test_one_to_one(self) -> None:
        col = odds_table.d6_column(6, 6)
        assert (col.name, col.reroll_on, col.reroll_shot_down, col.reroll_damaged) == (
            "1:1",
            (1,),
            (1, 2, 3),
            (4, 5, 6),
        )
        # Provenance last: it skips on a clone without the rule documents.
        assert says("For odds of 1:1, roll again if a 1 is rolled. On a 1-3, the aircraft is "
                    "shot down; on a 4-6 it is damaged.")  # fmt: skip

    def test_one_to_two(self) -> None:
        col = odds_table.d6_column(3, 6)
        assert (col.name, col.reroll_shot_down, col.reroll_damaged) == ("1:2", (1,), (2, 3))
        # Provenance last: it skips on a clone without the rule documents.
        assert says("For odds of 1:2 roll again of a 1 is rolled. On a 1, the aircraft is shot "
                    "down; on a 2 or 3, it is damaged.")  # fmt: skip

    def test_below_one_to_two(self) -> None:
        col = odds_table.d6_column(2, 6)
        assert (col.name, col.reroll_shot_down, col.reroll_damaged) == ("<1:2", (), (1,))
        # Provenance last: it skips on a clone without the rule documents.
        assert says("For odds of less than 1:2, roll again if a 1 is rolled and the aircraft "
                    "is damaged on a 1.")  # fmt: skip

    def test_fractions_dropped_above_one_to_one(self) -> None:
        """3.2.4: 16 to 6 is 2:1; 23 to 6 is 3:1."""
        assert odds_table.d6_column(16, 6).name == "2:1"
        assert odds_table.d6_column(23, 6).name == "3:1"
        assert odds_table.d6_column(11, 6).name == "1:1"
        # Provenance last: it skips on a clone without the rule documents.
        assert says("If the odds are greater than 1:1, drop all fractions.")


def _d6_formula(n: int, face: int) -> Outcome:
    """3.2.5 as arithmetic for a column n:1 with n >= 2."""
    if face <= Fraction(n, 2):
        return Outcome.SHOT_DOWN
    if face <= n:
        return Outcome.DAMAGED
    return Outcome.NO_EFFECT


def _d12_formula(halves: int, face: int) -> Outcome:
    """6.1.1-6.1.2 as arithmetic for odds halves/2 : 1 with halves >= 2."""
    if face <= Fraction(halves, 2):
        return Outcome.SHOT_DOWN
    if face <= halves:
        return Outcome.DAMAGED
    return Outcome.NO_EFFECT


@pytest.mark.parametrize("n", range(2, 13))
def test_s3_2_5_every_d6_column_follows_the_rule(n: int) -> None:
    """3.2.5: shot down on <= half the odds, damaged on <= the odds, for every column."""
    col = D6_COLUMNS[n + 1]
    assert col.name == f"{n}:1"
    for face in range(1, 7):
        assert odds_table.outcome(col, face, None) is _d6_formula(n, face), (col.name, face)


@pytest.mark.parametrize("halves", range(2, 25))
def test_s6_1_1_every_d12_column_follows_the_rule(halves: int) -> None:
    """6.1.1, 6.1.2: damaged on <= twice the odds, shot down on <= the odds."""
    col = D12_COLUMNS[halves]
    for face in range(1, 13):
        assert odds_table.outcome(col, face, None) is _d12_formula(halves, face), (col.name, face)


@given(
    hv=st.integers(1, 40),
    defense=st.integers(1, 30),
    die=st.sampled_from(list(CombatDie)),
)
def test_s3_2_probabilities_never_decrease_with_hits(hv: int, defense: int, die: CombatDie) -> None:
    """3.2, 6.1: P(shot down) and P(at least damaged) never fall as hits rise."""
    sides = 6 if die is CombatDie.D6 else 12
    last = (Fraction(0), Fraction(0))
    for hits in range(1, 25):
        down, damaged = odds_table.probabilities(odds_table.column(die, hits * hv, defense), sides)
        now = (down, down + damaged)
        assert now[0] >= last[0] and now[1] >= last[1], (hits, now, last)
        last = now


@given(num=st.integers(1, 400), den=st.integers(1, 60), face=st.integers(1, 12))
def test_s3_2_d6_and_d12_lookups_agree_with_the_rules(num: int, den: int, face: int) -> None:
    """Every odds value maps to the column the rules give it, and the column's result for a
    first roll is the rules' result (3.2.4-3.2.8 D6; 6.1.1-6.1.5 D12)."""
    ratio = Fraction(num, den)
    d6 = odds_table.d6_column(num, den)
    if ratio >= 1:
        n = min(int(ratio), 12)
        assert d6.name == f"{n}:1"
        if n >= 2 and face <= 6:
            assert odds_table.outcome(d6, face, None) is _d6_formula(n, face)
    else:
        assert d6.name == ("1:2" if ratio >= Fraction(1, 2) else "<1:2")
    d12 = odds_table.d12_column(num, den)
    halves = min(int(2 * ratio), 24)
    if halves >= 2:
        assert odds_table.outcome(d12, face, None) is _d12_formula(halves, face)
    else:
        assert d12.name == ("1:2" if halves == 1 else "<1:2")
        assert odds_table.outcome(d12, face, None) is Outcome.NO_EFFECT or face == 1


def _attack(hits: int, faces: list[list[int]], die: str = "d6") -> list[object]:
    state = engaged(duel(combat_die=die), "a1", "b1", "tailing")
    cmd = {"type": "Attack", "attacker": "a1", "target": "b1", "card": "in_my_sights",
           "hits": hits, "bursts": 1}  # fmt: skip
    return run(state, cmd, faces)[1]


class TestS3_2_9_WorkedExample:
    """3.2.9: Spitfire (HV 8) against Bf 109 (defense 6)."""

    def test_text(self) -> None:
        assert says("The odds are 16 to 6, which is a 2:1. The Bf 109 will be damaged on a roll"
                    "of 2 and shot down on a roll of 1.")  # fmt: skip

    @pytest.mark.parametrize(
        ("face", "result"),
        [(1, Outcome.SHOT_DOWN), (2, Outcome.DAMAGED), (3, Outcome.NO_EFFECT)],
    )
    def test_two_hits_are_two_to_one(self, face: int, result: Outcome) -> None:
        events = _attack(2, [[face]])
        resolved = of_type(events, AttackResolved)[0]
        assert (resolved.total_hv, resolved.defense, resolved.column) == (16, 6, "2:1")
        assert resolved.result is result

    @pytest.mark.parametrize(
        ("face", "result"),
        [(1, Outcome.SHOT_DOWN), (2, Outcome.SHOT_DOWN), (3, Outcome.DAMAGED),
         (4, Outcome.DAMAGED), (5, Outcome.NO_EFFECT)],
    )  # fmt: skip
    def test_three_hits_are_four_to_one(self, face: int, result: Outcome) -> None:
        """ "Had the attack resulted in 3 hits, the odds would have been 4 to 1, resulting in
        damage on a roll of 3 or 4 and a shoot down on a roll of 1 or 2." (24:6 = 4:1)"""
        resolved = of_type(_attack(3, [[face]]), AttackResolved)[0]
        assert (resolved.total_hv, resolved.column, resolved.result) == (24, "4:1", result)


class TestS3_2_6_Rerolls:
    def test_one_to_one_reroll_shoots_down(self) -> None:
        state = engaged(duel(attacker="Bf 109", target="Bf 109"), "a1", "b1", "tailing")
        # HV 8 x 1 hit against defense 6 is 1:1 (fraction dropped).
        events = run(
            state,
            {
                "type": "Attack",
                "attacker": "a1",
                "target": "b1",
                "card": "out_of_the_sun",
                "hits": 1,
                "bursts": 1,
            },
            [[1], [3]],
        )[1]
        assert of_type(events, AttackResolved)[0].result is Outcome.SHOT_DOWN
        assert of_type(events, AircraftShotDown)

    def test_one_to_one_without_a_one_is_no_effect(self) -> None:
        state = engaged(duel(attacker="Bf 109", target="Bf 109"), "a1", "b1", "tailing")
        events = run(
            state,
            {
                "type": "Attack",
                "attacker": "a1",
                "target": "b1",
                "card": "in_my_sights",
                "hits": 1,
                "bursts": 1,
            },
            [[2]],
        )[1]
        assert of_type(events, AttackResolved)[0].result is Outcome.NO_EFFECT
        assert not of_type(events, AircraftDamaged)


class TestS3_2_10_Aggregation:
    def test_aggregated_hits_resolve_together(self) -> None:
        """A 1-hit card and a 2-hit card resolve as 3 hits (24:6 = 4:1)."""
        state = engaged(duel(), "a1", "b1", "tailing")
        state, first = run(state, {"type": "Attack", "attacker": "a1", "target": "b1",
                                   "card": "in_my_sights", "hits": 1, "bursts": 1,
                                   "aggregate": True})  # fmt: skip
        assert not of_type(first, AttackResolved) and "a1" in state.pending
        state, events = run(
            state,
            {
                "type": "Attack",
                "attacker": "a1",
                "target": "b1",
                "card": "in_my_sights",
                "hits": 2,
                "bursts": 1,
            },
            [[2]],
        )
        resolved = of_type(events, AttackResolved)[0]
        assert (resolved.hits, resolved.column, resolved.result) == (3, "4:1", Outcome.SHOT_DOWN)
        assert state.pending == {}

    def test_negating_any_card_negates_the_whole_attack(self) -> None:
        state = engaged(duel(), "a1", "b1", "tailing")
        state, _ = run(
            state,
            {
                "type": "Attack",
                "attacker": "a1",
                "target": "b1",
                "card": "in_my_sights",
                "hits": 2,
                "bursts": 1,
                "aggregate": True,
            },
        )
        hand = state.aircraft["a1"].hand
        state, events = run(state, {"type": "NegateAttack", "attacker": "a1"})
        assert state.pending == {} and events[0].cards == 2
        assert state.aircraft["a1"].hand == hand - 1
        assert not state.aircraft["b1"].damaged
