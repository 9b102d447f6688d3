"""3.1-3.1.2, 10.8-10.10 and 9.1.1/9.1.9: a Leader's bursts per turn, as data.

Bursts by sight and position (Neutral, Advantaged, Tailing), before pilot modifiers.
"""

from __future__ import annotations

from msgspec import Struct

from engine.rulesets.down_in_flames.terms import GyroReading, Position, Sight, cite


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
SIMPLE = BurstRow(neutral=0, advantaged=1, tailing=4, rule=cite("3.1.1") + ", " + cite("10.8"))
# 3.1.2: gyro sights and deflection training "receive a 2 burst bonus for being Advantaged
# rather than 1" (1 + 2 = 3); 10.10 beam attacks likewise.
ADVANTAGED_BONUS_2 = BurstRow(
    neutral=1, advantaged=3, tailing=4, rule=cite("3.1.2") + ", " + cite("10.10")
)
# 10.9 as printed: "1 burst if Neutral, 2 bursts if Advantaged, 4 bursts if Tailing".
GYRO_AS_10_9 = BurstRow(neutral=1, advantaged=2, tailing=4, rule=cite("10.9"))

RECRUIT_BURST_CHANGE = -1  # 9.1.1
CRACK_SHOT_BURST_CHANGE = 1  # 9.1.9


def row_for(sight: Sight, beam_attacks: bool, gyro_reading: GyroReading) -> BurstRow:
    """The burst row of a Leader's sight (and beam-attack training)."""
    if sight is Sight.SIMPLE:
        return SIMPLE
    if sight is Sight.GYRO:
        return ADVANTAGED_BONUS_2 if gyro_reading is GyroReading.RULE_3_1_2 else GYRO_AS_10_9
    return ADVANTAGED_BONUS_2 if beam_attacks else REFLECTOR
