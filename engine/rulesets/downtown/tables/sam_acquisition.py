"""3.4.3 SAM Acquisition Table rows A-J (the ranges the rows read, as data): rows tried in
order, each cited "<table> row <letter>" (the conditions are code: sam_behaviour.acquire)."""

from __future__ import annotations

from umpire.engine.kit.seed_table import SeedTable, lettered
from umpire.engine.rulesets.downtown.terms import cite

CITATION = cite("3.4.3 SAM Acquisition Table")
ROWS: tuple[tuple[str, str], ...] = (
    ("A", "marked with a SAM Launch counter: keeps tracking the current flight"),
    ("B", "acquired flight within 5 (3 from 1972) of a DRV flight: drop acquisition, go to F"),
    ("C", "acquired flight within 5 hexes: keep tracking"),
    ("D", "fully acquired flight within 12 hexes with the SAM in its front arc: keep tracking"),
    ("E", "acquired flight at Low+ within 8 and not in front arc and 5 of a SEAD flight: keep"),
    ("F", "bombing flight at Low+ within 8, no DRV within 5 (3), not SEAD-threatened: nearest"),
    ("G", "in front arc and 8 of a SEAD flight, no DRV within 5 (3): acquire the SEAD flight"),
    ("H", "nearest flight within 5 hexes"),
    ("I", "nearest flight that has the site in its front arc"),
    ("J", "nearest flight"),
)
TABLE: SeedTable[str] = SeedTable(
    citation=CITATION, bands=lettered(*ROWS), name="SAM Acquisition Table", row_cite=" row {span}"
)
DRV_CLEAR = {"early": 5, "1972": 3}
NEAR, TRACK_FULL, MID = 5, 12, 8


def drv_clear_range(year: int) -> int:
    """B, F, G: 5 hexes, or 3 for scenarios set in 1972 or later."""
    return DRV_CLEAR["1972"] if year >= 1972 else DRV_CLEAR["early"]
