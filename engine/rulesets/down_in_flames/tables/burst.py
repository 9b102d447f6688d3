"""3.1-3.1.2, 10.8-10.10 and 9.1.1/9.1.9: a Leader's bursts per turn, as data.

Bursts by sight and position (Neutral, Advantaged, Tailing), before pilot modifiers.
"""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.rulesets.down_in_flames.terms import GyroReading, Position, Sight, cite, cite_all


class BurstRow(Struct, frozen=True, kw_only=True):
    """Bursts a Leader has when Neutral, Advantaged and Tailing."""

    neutral: int
    advantaged: int
    tailing: int
    rule: str

    def at(self, position: Position) -> int:
        """Bursts at `position`."""
        return {
            Position.NEUTRAL: self.neutral,
            Position.ADVANTAGED: self.advantaged,
            Position.TAILING: self.tailing,
        }[position]


# 3.1: burst value 1, "a total of 2 bursts when Advantaged and 4 bursts when Tailing".
REFLECTOR = BurstRow(neutral=1, advantaged=2, tailing=4, rule=cite("3.1"))
# 3.1.1 and 10.8: early (simple) sight, "0 bursts if Neutral, 1 burst if Advantaged, 4 bursts
# if Tailing".
SIMPLE = BurstRow(neutral=0, advantaged=1, tailing=4, rule=cite_all("3.1.1", "10.8"))
# 3.1.2: gyro sights and deflection training "receive a 2 burst bonus for being Advantaged
# rather than 1" (1 + 2 = 3).
ADVANTAGED_BONUS_2 = BurstRow(neutral=1, advantaged=3, tailing=4, rule=cite("3.1.2"))
# 10.9 as printed: "1 burst if Neutral, 2 bursts if Advantaged, 4 bursts if Tailing".
GYRO_AS_10_9 = BurstRow(neutral=1, advantaged=2, tailing=4, rule=cite("10.9"))
# 10.10 Beam attacks (002_c21c1b1d0b6ff92b.txt): "The aircraft receives a 2 bonus to bursts
# (rather than 1) when Advantaged", whatever its sight: Advantaged = Neutral + 2.
BEAM_ADVANTAGED_BONUS = 2
BEAM_RULE = cite("10.10")

RECRUIT_BURST_CHANGE = -1  # 9.1.1
CRACK_SHOT_BURST_CHANGE = 1  # 9.1.9


def sight_row(sight: Sight, gyro_reading: GyroReading) -> BurstRow:
    """The burst row of a Leader's sight alone (3.1, 3.1.1/10.8, 3.1.2 or 10.9)."""
    if sight is Sight.SIMPLE:
        return SIMPLE
    if sight is Sight.GYRO:
        return ADVANTAGED_BONUS_2 if gyro_reading is GyroReading.RULE_3_1_2 else GYRO_AS_10_9
    return REFLECTOR


def row_for(sight: Sight, beam_attacks: bool, gyro_reading: GyroReading) -> BurstRow:
    """The burst row of a Leader's sight and beam-attack training. 10.10 applies to every
    sight: the Advantaged bonus over the Neutral bursts is 2 (simple 0/2/4, reflector 1/3/4,
    gyro under either reading 1/3/4); a bonus already 2 (3.1.2 gyro) is not raised again."""
    row = sight_row(sight, gyro_reading)
    if not beam_attacks:
        return row
    return BurstRow(
        neutral=row.neutral,
        advantaged=max(row.advantaged, row.neutral + BEAM_ADVANTAGED_BONUS),
        tailing=row.tailing,
        rule=cite_all(row.rule, BEAM_RULE),
    )
