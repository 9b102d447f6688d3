"""3.2.2 SAM Placement Table A-D: rows chosen by conditions, cited "<table> row <letter>"."""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.kit.seed_table import SeedTable, lettered
from umpire.engine.rulesets.downtown.terms import cite

CITATION = cite("3.2.2 SAM Placement Table")


class PlacementRow(Struct, frozen=True, kw_only=True):
    """Within `radius` of the measuring flight (or of the raid target); None = do not place."""

    radius: int | None
    from_target: bool = False


TABLE: SeedTable[PlacementRow] = SeedTable(
    citation=CITATION,
    bands=lettered(
        ("A", PlacementRow(radius=5)),
        ("B", PlacementRow(radius=8)),
        ("C", PlacementRow(radius=15, from_target=True)),
        ("D", PlacementRow(radius=None)),
    ),
    name="SAM Placement Table",
    row_cite=" row {span}",
)
MAX_USES = 2
"""Two strikes cross a listed hex off; more than 4 hexes from downtown only one SAM."""
ONE_SAM_BEYOND = 4


def sequence(acquisition_phase: bool) -> tuple[str, ...]:
    """The rows tried in order: B goes to D in the SAM Acquisition Phase, else to C."""
    return ("A", "B", "D") if acquisition_phase else ("A", "B", "C", "D")
