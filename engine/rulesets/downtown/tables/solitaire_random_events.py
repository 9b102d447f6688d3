"""4.1.1 Solitaire Random Events Table (one d10) and 4.1.2 Event Options Table."""

from __future__ import annotations

from msgspec import Struct

from engine.rulesets.downtown.terms import cite

CITATION = cite("4.1.1 Solitaire Random Events Table")
OPTIONS_CITATION = cite("4.1.2 Event Options Table")


class EventRow(Struct, frozen=True, kw_only=True):
    """One row: roll range, the SAM Reaction options it inhibits, whether it is 'Event!'."""

    lo: int
    hi: int
    remark: str
    inhibits: tuple[int, ...]
    event: bool = False


ROWS: tuple[EventRow, ...] = (
    EventRow(lo=1, hi=4, remark="Inhibit SAM Options 1 and 2", inhibits=(1, 2)),
    EventRow(lo=5, hi=9, remark="Inhibit SAM Option 2", inhibits=(2,)),
    EventRow(lo=10, hi=10, remark="Event!", inhibits=(), event=True),
)

TARGET_RADIUS = 2
"""4.1.2 top paragraph and condition (a): within 2 hexes of the raid's target hex."""
CITY_RADIUS = 12
"""4.1.2 paragraphs a/b and condition (b): within 12 hexes of Hanoi or Haiphong."""
OPTION_B_RANGE = (2, 5)
OPTION_B_FROM_YEAR = 1967


def row_for(roll: int) -> EventRow:
    """The row of a d10 roll (1..10)."""
    for row in ROWS:
        if row.lo <= roll <= row.hi:
            return row
    raise ValueError(f"random event roll {roll} is not 1..10")
