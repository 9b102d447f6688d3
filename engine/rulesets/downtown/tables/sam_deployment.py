"""3.1.1 SAM Deployment Tables: six hex lists by date, each with its placement radius.

Dates between the printed tables (1969-1971) use the latest earlier table (1968), and dates
before 1965 use the 1965 table (README "SAM table dates").
"""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.kit.seed_table import Band, Reading, SeedTable
from umpire.engine.rulesets.downtown.terms import cite

CITATION = cite("3.1.1 SAM Deployment Tables")


class SamTable(Struct, frozen=True, kw_only=True):
    """One SAM Deployment Table: from which (year, month) it applies, its radius, its hexes."""

    name: str
    start: tuple[int, int]
    radius: int
    hexes: tuple[str, ...]


def _h(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(","))


TABLES: tuple[SamTable, ...] = (
    SamTable(
        name="1965",
        start=(1965, 1),
        radius=1,
        hexes=_h("1221, 1625, 1732, 2022, 2314, 2428, 2727, 2811"),
    ),
    SamTable(
        name="Jan-Jun 1966",
        start=(1966, 1),
        radius=1,
        hexes=_h(
            "1139, 1221, 1228, 1625, 1832, 2022, 2110, 0427, 2314, 2320, 2428, 2727, 2811, 3119, "
            "3623"
        ),
    ),
    SamTable(
        name="Jul-Dec 1966",
        start=(1966, 7),
        radius=1,
        hexes=_h(
            "1139, 1221, 1228, 1625, 1832, 2022, 2110, 2314, 2320, 0427, 1729, 2309, 2428, 2727, "
            "2732, 2811, 3119, 3325, 3519, 3623"
        ),
    ),
    SamTable(
        name="1967",
        start=(1967, 1),
        radius=2,
        hexes=_h(
            "1139, 1221, 1228, 1625, 1832, 2022, 2110, 2314, 2320, 0427, 1115, 1331, 1729, 2309, "
            "2428, 2727, 2732, 2811, 3119, 3325, 3519, 3623, 0346, 3014"
        ),
    ),
    SamTable(
        name="1968",
        start=(1968, 1),
        radius=2,
        hexes=_h(
            "1139, 1221, 1228, 1625, 1832, 2022, 2110, 2314, 2320, 0427, 1115, 1331, 2134, 2423, "
            "1729, 2309, 2428, 2727, 2732, 2811, 3119, 3325, 3519, 3623, 0346, 1316, 2615, 3014"
        ),
    ),
    SamTable(
        name="1972",
        start=(1972, 1),
        radius=3,
        hexes=_h(
            "1122, 1034, 1040, 1315, 1518, 1424, 1627, 1729, 1734, 1831, 2125, 2512, 2610, 2913, "
            "0346, 2232, 2228, 2431, 2435, 2527, 2932, 3431, 3625, 2210, 2413, 2409, 2712, 3014, "
            "1835, 2529"
        ),
    ),
)


def _month(year: int, month: int) -> int:
    """A date as a count of months, the roll a SeedTable band reads."""
    return year * 12 + month - 1


# The six tables as the rows of one seed table read by date: each from its start to the
# month before the next one's (the last open-ended); a date before 1965 reads the first.
# A row is cited "<tables> (<name>, within <radius>)", as the logs always have.
TABLE: SeedTable[SamTable] = SeedTable(
    citation=CITATION,
    bands=tuple(
        Band(
            _month(*t.start),
            _month(*later.start) - 1 if later else _month(9999, 12),
            t,
            label=f"{t.name}, within {t.radius}",
        )
        for t, later in zip(TABLES, (*TABLES[1:], None), strict=True)
    ),
    name="SAM Deployment Tables",
    row_cite=" ({span})",
)


def reading_for(year: int, month: int) -> Reading[SamTable]:
    """The SAM Deployment Table for a scenario date (latest table starting on or before
    it) and its citation."""
    return TABLE.row_for(_month(year, month))


def table_for(year: int, month: int) -> SamTable:
    """The SAM Deployment Table for a scenario date (latest table starting on or before it)."""
    return reading_for(year, month).value
