"""Scenario data for the tests: scenario 4B as the example of play sets it up.

The searchlight zones hold the hexes the example of play puts in each zone (and leave out
the ones it puts outside every active zone: 0914, 1114, 1327, 1414); the rest of the
printed zones is not needed by the example.
"""

from __future__ import annotations

from typing import Any

ZONES_4B: dict[str, list[str]] = {
    "J": ["0314", "0315", "0316", "0415"],
    "K": ["0816", "0817", "0915", "0916", "0917", "0918", "1015", "1016", "1017", "1018", "1115"],
    "L": ["1515", "1516", "1517", "1518"],
    "N": ["0819", "0820", "0821", "0822", "1019", "1020", "1021", "1220"],
    "O": ["1420", "1421", "1422"],
    "Q": ["0825", "0826", "1222", "1223"],
    "R": ["1324", "1325"],
}


def setup_4b() -> dict[str, Any]:
    """Scenario 4B 'Henaja', May 1942, as in the example of play."""
    return {
        "scenario": "4B",
        "bombers": [
            {"id": "B1", "turn": 1},
            {"id": "B2", "turn": 3},
            {"id": "B3", "turn": 6},
        ],
        "radars": [{"name": "Wurzburg", "search_value": 1}],
        "zones": [{"name": n, "hexes": h, "dice": 4} for n, h in ZONES_4B.items()],
        "fighters": [{"id": "F1", "kind": "Do215B-5", "hex": "1020", "facing": 0, "ai_range": 2}],
        "visibility": "good",
    }
