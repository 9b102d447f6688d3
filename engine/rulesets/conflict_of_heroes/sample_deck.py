"""SAMPLE Order Card deck: NOT the published Conflict of Heroes solo cards.

Seed 003_368c69a730e6e14a.txt 4.0 describes the cards but does not print them. This deck
is made up to exercise every element of the order grammar (orders.py): Blue and Green
cards, Mission Track requirements, the Remain Fresh symbol, Highest FP / fresh / spent /
hit / unhit AI, closest / farthest, Lowest DV and status-qualified Units, Control Markers,
Objectives (any and by id), Fire, Fire Long Range, Move, Low Risk Move, Rally,
Counteractions and Mission Orders. A real game enters the real deck in its setup.
"""

from __future__ import annotations

from umpire.engine.rulesets.conflict_of_heroes.scenario import CardSpec
from umpire.engine.rulesets.conflict_of_heroes.terms import CardColour

BLUE, GREEN = CardColour.BLUE, CardColour.GREEN

SAMPLE_DECK: tuple[CardSpec, ...] = (
    CardSpec(
        number=1, colour=BLUE, symbol="star", ap_spent_number=3, hex_number=1,
        priority_orders=("Highest FP AI closest to Lowest DV Unit -> Fire",),
        tactical_orders=("Hit AI closest to Unit -> Rally",
                         "Spent AI farthest from Control Marker -> Move"),
    ),
    CardSpec(
        number=2, colour=BLUE, symbol="cross", ap_spent_number=4, hex_number=2,
        remain_fresh=True,
        priority_orders=("Counteraction 1",),
        tactical_orders=("Unhit AI closest to Hit Unit -> Fire Long Range",),
    ),
    CardSpec(
        number=3, colour=BLUE, symbol="circle", ap_spent_number=5, hex_number=3,
        priority_orders=("Mission Order 1",),
        tactical_orders=("AI closest to Objective -> Move",),
    ),
    CardSpec(
        number=4, colour=GREEN, symbol="star", ap_spent_number=2, hex_number=4,
        mission_requirement=6,
        priority_orders=("Fresh AI closest to Unit -> Fire",),
        tactical_orders=("Fresh AI closest to Objective OBJ-A -> Low Risk Move",),
    ),
    CardSpec(
        number=5, colour=GREEN, symbol="cross", ap_spent_number=3, hex_number=5,
        remain_fresh=True,
        priority_orders=("Highest FP Fresh Unhit AI closest to Fresh Unit -> Fire",),
        tactical_orders=("AI farthest from Unit -> Low Risk Move",),
    ),
    CardSpec(
        number=6, colour=GREEN, symbol="circle", ap_spent_number=4, hex_number=6,
        mission_requirement=4,
        priority_orders=("AI closest to Spent Unit -> Fire",),
        tactical_orders=("AI closest to Control Marker -> Move",),
    ),
    CardSpec(
        number=7, colour=GREEN, symbol="star", ap_spent_number=5, hex_number=7,
        priority_orders=("Mission Order 2",),
        tactical_orders=("AI closest to Unhit Unit -> Move",),
    ),
    CardSpec(
        number=8, colour=GREEN, symbol="cross", ap_spent_number=6, hex_number=8,
        mission_requirement=8,
        priority_orders=("Counteraction 2",),
        tactical_orders=("AI closest to Lowest DV Unit -> Fire Long Range",),
    ),
    CardSpec(
        number=9, colour=BLUE, symbol="circle", ap_spent_number=6, hex_number=9,
        priority_orders=("Hit AI farthest from Unit -> Rally",),
        tactical_orders=("Fresh AI closest to Lowest DV Hit Unit -> Fire",),
    ),
    CardSpec(
        number=10, colour=GREEN, symbol="star", ap_spent_number=1, hex_number=10,
        priority_orders=("Unhit AI farthest from Spent Unit -> Fire",),
        tactical_orders=("Fresh AI closest to Unit -> Move",),
    ),
)  # fmt: skip
