"""A Down in Flames duel of two gyro-sighted fighters, a secret apart: 10.9 reads a gyro
sight's bursts by its pilot, and whether a pilot is a crack shot (9.1.11) is hidden from
every other role. The twins of the dispute secrecy tests differ only in that."""

from __future__ import annotations

from typing import Any


def gyro_duel(crack_shots: dict[str, bool]) -> dict[str, Any]:
    """The duel's setup: fighter a1 (side A) against b1 (side B), `crack_shots` saying
    which of them is a crack shot (the others are not)."""

    def card(name: str) -> dict[str, Any]:
        band = {"low": 1, "high": 18, "agility": 6, "speed": 6, "hp": 3}
        return {"name": name, "aircraft_class": "fighter", "ceiling_level": 18, "defense": 6,
                "hit_value": 8, "sight": "gyro", "performance": [band]}  # fmt: skip

    return {
        "custom_aircraft": {"Gyro A": card("Gyro A"), "Gyro B": card("Gyro B")},
        "aircraft": [
            {"id": "a1", "aircraft": "Gyro A", "side": "A", "element": "A", "station": "leader",
             "hand": 6, "crack_shot": crack_shots.get("a1", False)},
            {"id": "b1", "aircraft": "Gyro B", "side": "B", "element": "B", "station": "leader",
             "hand": 6, "crack_shot": crack_shots.get("b1", False)},
        ],
        "starting_altitude": 5,
    }  # fmt: skip
