"""The documented readings a setup switches (engine/kit/reading.py; README "Ledger of
readings")."""

from __future__ import annotations

import json

from umpire.engine.kit.reading import Reading
from umpire.engine.rulesets.down_in_flames.terms import GyroReading, cite


def _gyro(name: str, ceiling: int) -> dict[str, object]:
    """A sample card with a gyro sight (no shipped card has one)."""
    performance = [{"low": 1, "high": ceiling, "agility": 6, "speed": 6, "hp": 3}]
    return {"name": name, "aircraft_class": "fighter", "ceiling_level": ceiling, "defense": 6,
            "hit_value": 8, "sight": "gyro", "performance": performance}  # fmt: skip


# Two Leaders with gyro sights; A's Leader, its pilot revealed (9.1.11), Advantaged, attacks
# with three bursts: as many as 3.1.2 gives it, one more than 10.9's row.
_PROBE = {
    "setup": {
        "custom_aircraft": {"Gyro A": _gyro("Gyro A", 18), "Gyro B": _gyro("Gyro B", 18)},
        "aircraft": [
            {"id": "a1", "aircraft": "Gyro A", "side": "A", "element": "A",
             "station": "leader", "hand": 6},
            {"id": "b1", "aircraft": "Gyro B", "side": "B", "element": "B",
             "station": "leader", "hand": 6},
        ],
        "starting_altitude": 5,
    },
    "commands": [
        {"type": "BeginTurn", "side": "A"},
        {"type": "RevealPilot", "aircraft": "a1"},  # a dispute of it then rests on public values
        {"type": "SetPosition", "attacker": "a1", "target": "b1", "position": "advantaged"},
        {"type": "Attack", "attacker": "a1", "target": "b1", "card": "in_my_sights",
         "hits": 1, "bursts": 3},
    ],
}  # fmt: skip

READINGS = (
    Reading(
        name="gyro_reading",
        rule=cite("10.9"),
        default=GyroReading.RULE_3_1_2.value,
        alternatives=(GyroReading.RULE_10_9.value,),
        readme="README.md, Ledger of readings: 3.1.2 vs 10.9 (I3)",
        summary="a gyro sight's Advantaged bursts: 3 as 3.1.2 says (3.1.2), or 2 as "
        "10.9's row prints (10.9)",
        probe=json.dumps(_PROBE, sort_keys=True),
    ),
)
