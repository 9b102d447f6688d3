"""3.2.3-3.2.8 and 6.1.1-6.1.5: the odds columns and their D6 and D12 results, as data.

A column lists the faces of the first roll that shoot the target down or damage it, the
faces that call for a second roll (3.2.6-3.2.8, 6.1.4, 6.1.5) and what the second roll
does. Any other face has no effect. Faces are written out so each cell can be checked
against the printed rule; tests/rulesets/down_in_flames/test_s3_odds.py checks every column
against the rule text and against the arithmetic of 3.2.5 and 6.1.1-6.1.2.
"""

from __future__ import annotations

from fractions import Fraction

from msgspec import Struct

from umpire.engine.rulesets.down_in_flames.terms import CombatDie, Outcome, cite


class OddsColumn(Struct, frozen=True, kw_only=True):
    """One odds column of the results table."""

    name: str
    shot_down: tuple[int, ...]
    damaged: tuple[int, ...]
    reroll_on: tuple[int, ...] = ()
    reroll_shot_down: tuple[int, ...] = ()
    reroll_damaged: tuple[int, ...] = ()
    rule: str


def _faces(low: int, high: int) -> tuple[int, ...]:
    return tuple(range(low, high + 1))


_N = ()  # no faces

# 3.2.5: shot down on <= half the odds, damaged on <= the odds (odds above 1:1 drop
# fractions, 3.2.4); 3.2.6-3.2.8 the three low columns; 12:1 and above: every face shoots down.
D6_COLUMNS: tuple[OddsColumn, ...] = (
    OddsColumn(name="<1:2", shot_down=_N, damaged=_N, reroll_on=(1,),
               reroll_damaged=(1,), rule=cite("3.2.8")),
    OddsColumn(name="1:2", shot_down=_N, damaged=_N, reroll_on=(1,),
               reroll_shot_down=(1,), reroll_damaged=(2, 3), rule=cite("3.2.7")),
    OddsColumn(name="1:1", shot_down=_N, damaged=_N, reroll_on=(1,),
               reroll_shot_down=_faces(1, 3), reroll_damaged=_faces(4, 6), rule=cite("3.2.6")),
    OddsColumn(name="2:1", shot_down=(1,), damaged=(2,), rule=cite("3.2.5")),
    OddsColumn(name="3:1", shot_down=(1,), damaged=(2, 3), rule=cite("3.2.5")),
    OddsColumn(name="4:1", shot_down=(1, 2), damaged=(3, 4), rule=cite("3.2.5")),
    OddsColumn(name="5:1", shot_down=(1, 2), damaged=(3, 4, 5), rule=cite("3.2.5")),
    OddsColumn(name="6:1", shot_down=_faces(1, 3), damaged=_faces(4, 6), rule=cite("3.2.5")),
    OddsColumn(name="7:1", shot_down=_faces(1, 3), damaged=_faces(4, 6), rule=cite("3.2.5")),
    OddsColumn(name="8:1", shot_down=_faces(1, 4), damaged=(5, 6), rule=cite("3.2.5")),
    OddsColumn(name="9:1", shot_down=_faces(1, 4), damaged=(5, 6), rule=cite("3.2.5")),
    OddsColumn(name="10:1", shot_down=_faces(1, 5), damaged=(6,), rule=cite("3.2.5")),
    OddsColumn(name="11:1", shot_down=_faces(1, 5), damaged=(6,), rule=cite("3.2.5")),
    OddsColumn(name="12:1", shot_down=_faces(1, 6), damaged=_N, rule=cite("3.2.5")),
)  # fmt: skip

# 6.1.1-6.1.3: odds rounded down to the nearest half; shot down on <= the odds, damaged on
# <= twice the odds; 6.1.4 and 6.1.5 the two low columns; 12:1 and above: every face.
D12_COLUMNS: tuple[OddsColumn, ...] = (
    OddsColumn(name="<1:2", shot_down=_N, damaged=_N, reroll_on=(1,),
               reroll_shot_down=(1, 2), reroll_damaged=_faces(3, 6), rule=cite("6.1.5")),
    OddsColumn(name="1:2", shot_down=_N, damaged=_N, reroll_on=(1,),
               reroll_shot_down=_faces(1, 6), reroll_damaged=_faces(7, 12), rule=cite("6.1.4")),
    OddsColumn(name="1:1", shot_down=(1,), damaged=(2,), rule=cite("6.1.1")),
    OddsColumn(name="1.5:1", shot_down=(1,), damaged=(2, 3), rule=cite("6.1.1")),
    OddsColumn(name="2:1", shot_down=(1, 2), damaged=(3, 4), rule=cite("6.1.1")),
    OddsColumn(name="2.5:1", shot_down=(1, 2), damaged=_faces(3, 5), rule=cite("6.1.1")),
    OddsColumn(name="3:1", shot_down=_faces(1, 3), damaged=_faces(4, 6), rule=cite("6.1.1")),
    OddsColumn(name="3.5:1", shot_down=_faces(1, 3), damaged=_faces(4, 7), rule=cite("6.1.1")),
    OddsColumn(name="4:1", shot_down=_faces(1, 4), damaged=_faces(5, 8), rule=cite("6.1.1")),
    OddsColumn(name="4.5:1", shot_down=_faces(1, 4), damaged=_faces(5, 9), rule=cite("6.1.1")),
    OddsColumn(name="5:1", shot_down=_faces(1, 5), damaged=_faces(6, 10), rule=cite("6.1.1")),
    OddsColumn(name="5.5:1", shot_down=_faces(1, 5), damaged=_faces(6, 11), rule=cite("6.1.1")),
    OddsColumn(name="6:1", shot_down=_faces(1, 6), damaged=_faces(7, 12), rule=cite("6.1.1")),
    OddsColumn(name="6.5:1", shot_down=_faces(1, 6), damaged=_faces(7, 12), rule=cite("6.1.1")),
    OddsColumn(name="7:1", shot_down=_faces(1, 7), damaged=_faces(8, 12), rule=cite("6.1.1")),
    OddsColumn(name="7.5:1", shot_down=_faces(1, 7), damaged=_faces(8, 12), rule=cite("6.1.1")),
    OddsColumn(name="8:1", shot_down=_faces(1, 8), damaged=_faces(9, 12), rule=cite("6.1.1")),
    OddsColumn(name="8.5:1", shot_down=_faces(1, 8), damaged=_faces(9, 12), rule=cite("6.1.1")),
    OddsColumn(name="9:1", shot_down=_faces(1, 9), damaged=_faces(10, 12), rule=cite("6.1.1")),
    OddsColumn(name="9.5:1", shot_down=_faces(1, 9), damaged=_faces(10, 12), rule=cite("6.1.1")),
    OddsColumn(name="10:1", shot_down=_faces(1, 10), damaged=(11, 12), rule=cite("6.1.1")),
    OddsColumn(name="10.5:1", shot_down=_faces(1, 10), damaged=(11, 12), rule=cite("6.1.1")),
    OddsColumn(name="11:1", shot_down=_faces(1, 11), damaged=(12,), rule=cite("6.1.1")),
    OddsColumn(name="11.5:1", shot_down=_faces(1, 11), damaged=(12,), rule=cite("6.1.1")),
    OddsColumn(name="12:1", shot_down=_faces(1, 12), damaged=_N, rule=cite("6.1.1")),
)  # fmt: skip


def d6_column(numerator: int, denominator: int) -> OddsColumn:
    """3.2.3-3.2.4: the D6 column for odds numerator:denominator (fractions dropped above
    1:1; odds from 1:2 up to but not including 1:1 use the 1:2 column)."""
    if denominator < 1 or numerator < 0:
        raise ValueError("odds need a positive defense and non-negative hit value")
    if numerator >= denominator:
        return D6_COLUMNS[min(numerator // denominator, 12) + 1]
    if 2 * numerator >= denominator:
        return D6_COLUMNS[1]
    return D6_COLUMNS[0]


def d12_column(numerator: int, denominator: int) -> OddsColumn:
    """6.1.3: the D12 column, odds rounded down to the nearest half (1:2 and below as 6.1.4
    and 6.1.5)."""
    if denominator < 1 or numerator < 0:
        raise ValueError("odds need a positive defense and non-negative hit value")
    halves = (2 * numerator) // denominator
    return D12_COLUMNS[min(halves, 24)]


def column(die: CombatDie, numerator: int, denominator: int) -> OddsColumn:
    """The column of `die`'s table for the odds."""
    return (
        d6_column(numerator, denominator)
        if die is CombatDie.D6
        else d12_column(numerator, denominator)
    )


def outcome(col: OddsColumn, first: int, second: int | None) -> Outcome:
    """The result of the first roll (and the second, when the first called for it)."""
    if first in col.shot_down:
        return Outcome.SHOT_DOWN
    if first in col.damaged:
        return Outcome.DAMAGED
    if first in col.reroll_on and second is not None:
        if second in col.reroll_shot_down:
            return Outcome.SHOT_DOWN
        if second in col.reroll_damaged:
            return Outcome.DAMAGED
    return Outcome.NO_EFFECT


def probabilities(col: OddsColumn, sides: int) -> tuple[Fraction, Fraction]:
    """Exact chances (shot down, damaged) of a column on a die of `sides` faces."""
    down = Fraction(len(col.shot_down), sides)
    damaged = Fraction(len(col.damaged), sides)
    again = Fraction(len(col.reroll_on), sides)
    down += again * Fraction(len(col.reroll_shot_down), sides)
    damaged += again * Fraction(len(col.reroll_damaged), sides)
    return down, damaged
