"""4.1.1 Solitaire Random Events Table (one d10), its rows cited "<table> 1-4", and 4.1.2
Event Options Table."""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.kit.seed_table import Band, SeedTable
from umpire.engine.rulesets.downtown.terms import cite

CITATION = cite("4.1.1 Solitaire Random Events Table")
OPTIONS_CITATION = cite("4.1.2 Event Options Table")


class EventRow(Struct, frozen=True, kw_only=True):
    """One row: the printed remark, the SAM Reaction options it inhibits, whether it is
    'Event!'."""

    remark: str
    inhibits: tuple[int, ...]
    event: bool = False


TABLE: SeedTable[EventRow] = SeedTable(
    citation=CITATION,
    bands=(
        Band(1, 4, EventRow(remark="Inhibit SAM Options 1 and 2", inhibits=(1, 2))),
        Band(5, 9, EventRow(remark="Inhibit SAM Option 2", inhibits=(2,))),
        Band(10, 10, EventRow(remark="Event!", inhibits=(), event=True)),
    ),
    name="Solitaire Random Events Table",
    row_cite=" {span}",
)

TARGET_RADIUS = 2
"""4.1.2 top paragraph and condition (a): within 2 hexes of the raid's target hex."""
CITY_RADIUS = 12
"""4.1.2 paragraphs a/b and condition (b): within 12 hexes of Hanoi or Haiphong."""
OPTION_B_RANGE = (2, 5)
OPTION_B_FROM_YEAR = 1967
