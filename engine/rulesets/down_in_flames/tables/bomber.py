"""4.1.3, 4.1.7 and 6.1.7: damage points against Medium and Heavy Bombers, as data.

Every full 8 Hit Value points score 1 damage point (4.1.3). The "left over" points (0-7)
may score one more point on a roll: the table below says, for each left-over amount, which
faces of which die score it (4.1.7 for the D6 system, 6.1.7 for the D12 system).
"""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.rulesets.down_in_flames.terms import CombatDie, cite

HV_PER_DAMAGE_POINT = 8  # 4.1.3
RULE_POINTS = cite("4.1.3")


class LeftoverRow(Struct, frozen=True, kw_only=True):
    """Left-over Hit Value points `low`..`high`: a roll of at most `scores_on` scores 1
    damage point (0: no roll, the points are lost)."""

    low: int
    high: int
    scores_on: int
    rule: str


# 4.1.7: "An attack by a Hit Value 4 through 7 scores a hit on a D6 roll of 3 or less."
D6_LEFTOVER: tuple[LeftoverRow, ...] = (
    LeftoverRow(low=0, high=3, scores_on=0, rule=cite("4.1.7")),
    LeftoverRow(low=4, high=7, scores_on=3, rule=cite("4.1.7")),
)

# 6.1.7: "2-3 HV points score a damage point on a D12 roll of 1-3, 4-5 HV points on a roll
# of 1-6, and 6-7 HV points on a roll of 1-9."
D12_LEFTOVER: tuple[LeftoverRow, ...] = (
    LeftoverRow(low=0, high=1, scores_on=0, rule=cite("6.1.7")),
    LeftoverRow(low=2, high=3, scores_on=3, rule=cite("6.1.7")),
    LeftoverRow(low=4, high=5, scores_on=6, rule=cite("6.1.7")),
    LeftoverRow(low=6, high=7, scores_on=9, rule=cite("6.1.7")),
)


def split(total_hv: int) -> tuple[int, int]:
    """4.1.3: (damage points from full multiples of 8, left-over Hit Value points)."""
    if total_hv < 0:
        raise ValueError("Hit Value cannot be negative")
    return divmod(total_hv, HV_PER_DAMAGE_POINT)


def leftover_row(die: CombatDie, leftover: int) -> LeftoverRow:
    """The row of the left-over table for `leftover` points (0-7)."""
    rows = D6_LEFTOVER if die is CombatDie.D6 else D12_LEFTOVER
    for row in rows:
        if row.low <= leftover <= row.high:
            return row
    raise ValueError(f"left-over Hit Value must be 0-7, not {leftover}")


def damaged_threshold_met(points: int, defense: int) -> bool:
    """4.1.4: damaged once damage points are at least half the defense rating."""
    return 2 * points >= defense


def shot_down_threshold_met(points: int, defense: int) -> bool:
    """4.1.6: shot down once damage points equal the defense rating."""
    return points >= defense
