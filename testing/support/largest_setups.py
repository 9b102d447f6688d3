"""The largest setups the schemas allow, for the tests that bound a request's work
(issue 32): Conflict of Heroes at its bounds (engine/rulesets/conflict_of_heroes/setup.py)
with every card's orders all Move, the costliest AI turn (each order plans a path)."""

from __future__ import annotations

from typing import Any

from umpire.engine.rulesets.conflict_of_heroes.scenario import ORDERS_PER_CARD
from umpire.engine.rulesets.conflict_of_heroes.setup import (
    MAX_CARDS,
    MAX_MAP_INDEX,
    MAX_UNITS,
)


def largest_conflict_of_heroes(orders_per_card: int = ORDERS_PER_CARD) -> dict[str, Any]:
    """A 40 x 40 map, 60 units (30 a side), a 60-card deck of Move orders (fewer orders a
    card: a setup that fits a client's 64 KiB create frame, whose AI turn costs as much)."""
    units = []
    for i in range(MAX_UNITS):
        side = "ai" if i % 2 else "player"
        col = MAX_MAP_INDEX - (i // 2) % 20 if side == "ai" else 1 + (i // 2) % 20
        row = 1 + (i // 2) // 20 * 2 + (i % 2) * 20
        label = f"{col:02d}{row:02d}"
        units.append(
            {
                "id": f"U{i}",
                "name": "Rifles",
                "side": side,
                "hex": label,
                "facing": 1,
                "firepower": 5,
                "front_dv": 12,
                "flank_dv": 10,
                "range": 5,
                "long_range": 10,
            }
        )
    move = "Unhit AI closest to Unit -> Move"
    deck = [
        {
            "number": n,
            "colour": "blue",
            "ap_spent_number": 4,
            "hex_number": 1,
            "priority_orders": [move] * orders_per_card,
            "tactical_orders": [move] * orders_per_card,
        }
        for n in range(1, MAX_CARDS + 1)
    ]
    return {
        "units": units,
        "deck": deck,
        "terrain": [],
        "objectives": [],
        "mission": {},
        "min_col": 1,
        "max_col": MAX_MAP_INDEX,
        "min_row": 1,
        "max_row": MAX_MAP_INDEX,
    }
