"""6: the optional D12 combat system."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.rulesets.down_in_flames.setups import duel, engaged, of_type, run, says
from umpire.engine.rulesets.down_in_flames.events import AttackResolved
from umpire.engine.rulesets.down_in_flames.tables import odds as odds_table
from umpire.engine.rulesets.down_in_flames.terms import Outcome


def _attack(hits: int, faces: list[list[int]]) -> AttackResolved:
    state = engaged(duel(combat_die="d12"), "a1", "b1", "tailing")
    events = run(state, {"type": "Attack", "attacker": "a1", "target": "b1",
                         "card": "in_my_sights", "hits": hits, "bursts": 1}, faces)[1]  # fmt: skip
    resolved: AttackResolved = of_type(events, AttackResolved)[0]
    return resolved


def test_s6_seed_text() -> None:
    assert says("A roll equal to or less than twice the odds damages an aircraft.")
    assert says("A roll equal to or less than the odds shoots down the aircraft.")
    assert says(
        "Odds are rounded down to the nearest half-odds rather than the nearest whole odds."
    )
    assert says("For odds of 1:2, roll the die again if a 1 is rolled. A result of 1 through 6 "
                "shoots down the target; 7 through 12 damages it.")  # fmt: skip
    assert says("A result of 1 or2 shoots down the target; 3 through 6 damages it; 7 through 12 "
                "indicates that the attack had not effect.")  # fmt: skip


class TestS6_1_6_WorkedExample:
    """6.1.6: Spitfire HV 8 against Bf 109 defense 6 on the D12."""

    @pytest.mark.parametrize(
        ("face", "result"),
        [(1, Outcome.SHOT_DOWN), (2, Outcome.SHOT_DOWN), (3, Outcome.DAMAGED),
         (5, Outcome.DAMAGED), (6, Outcome.NO_EFFECT)],
    )  # fmt: skip
    def test_two_hits_are_two_and_a_half_to_one(self, face: int, result: Outcome) -> None:
        """ "The odds are 16 to 6, which is a 2.5:1 ... damaged on a roll of 3 through 5 and
        shot down on a roll of 1 or 2.\""""
        resolved = _attack(2, [[face]])
        assert (resolved.column, resolved.result) == ("2.5:1", result)
        # Provenance last: it skips on a clone without the rule documents.
        assert says("The odds are 16 to 6, which is a 2.5:1.")

    @pytest.mark.parametrize(
        ("face", "result"),
        [(1, Outcome.SHOT_DOWN), (4, Outcome.SHOT_DOWN), (5, Outcome.DAMAGED),
         (8, Outcome.DAMAGED), (9, Outcome.NO_EFFECT)],
    )  # fmt: skip
    def test_three_hits_are_four_to_one(self, face: int, result: Outcome) -> None:
        """ "damage on a roll of 4 through 8 and a shoot down on a roll of 1 through 4" (the
        seed's "4 through 8" overlaps the shoot-down 4; a 4 shoots down, 6.1.2)."""
        resolved = _attack(3, [[face]])
        assert (resolved.column, resolved.result) == ("4:1", result)


def test_s6_1_4_one_to_two_reroll() -> None:
    col = odds_table.d12_column(3, 6)
    assert col.name == "1:2"
    assert odds_table.outcome(col, 1, 6) is Outcome.SHOT_DOWN
    assert odds_table.outcome(col, 1, 7) is Outcome.DAMAGED
    assert odds_table.outcome(col, 2, None) is Outcome.NO_EFFECT


def test_s6_1_5_below_one_to_two_reroll() -> None:
    col = odds_table.d12_column(2, 6)
    assert col.name == "<1:2"
    assert [odds_table.outcome(col, 1, f) for f in (2, 3, 6, 7)] == [
        Outcome.SHOT_DOWN, Outcome.DAMAGED, Outcome.DAMAGED, Outcome.NO_EFFECT,
    ]  # fmt: skip


def test_s6_1_3_rounds_down_to_half_odds() -> None:
    assert odds_table.d12_column(17, 6).name == "2.5:1"
    assert odds_table.d12_column(18, 6).name == "3:1"
    assert odds_table.d12_column(5, 6).name == "1:2"


def test_s6_1_at_one_to_one_has_no_reroll_and_matches_the_d6_chances() -> None:
    """README ledger "6.1 D12 at 1:1": 6.1.1/6.1.2 give 1:1 shot down on 1 and damaged on
    2, with no counterpart to 3.2.6's re-roll; the chances (1/12, 1/12) are exactly the
    D6 1:1 column's (a 1, then 1-3 or 4-6 on the re-roll)."""
    d12 = odds_table.d12_column(8, 6)
    assert d12.name == "1:1" and d12.reroll_on == ()
    faces = [odds_table.outcome(d12, f, None) for f in range(1, 13)]
    assert faces[:2] == [Outcome.SHOT_DOWN, Outcome.DAMAGED]
    assert set(faces[2:]) == {Outcome.NO_EFFECT}
    d6 = odds_table.d6_column(8, 6)
    assert d6.name == "1:1"
    d6_down = sum(odds_table.outcome(d6, 1, r) is Outcome.SHOT_DOWN for r in range(1, 7))
    d6_damaged = sum(odds_table.outcome(d6, 1, r) is Outcome.DAMAGED for r in range(1, 7))
    assert (Fraction(d6_down, 36), Fraction(d6_damaged, 36)) == (Fraction(1, 12), Fraction(1, 12))
    assert (faces.count(Outcome.SHOT_DOWN), faces.count(Outcome.DAMAGED)) == (1, 1)


def test_s6_1_one_hit_at_one_to_one_rolls_one_d12() -> None:
    """HV 8 against defense 6 is 1.33:1, rounded down to 1:1 (6.1.3); the D12 rolls 1:
    shot down at once, no second die."""
    resolved = _attack(1, [[1]])
    assert (resolved.column, resolved.result) == ("1:1", Outcome.SHOT_DOWN)
