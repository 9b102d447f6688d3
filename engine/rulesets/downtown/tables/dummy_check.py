"""3.3.2 SAM Dummy Check Table (two dice plus one per dummy discovered so far)."""

from __future__ import annotations

from enum import StrEnum

from umpire.engine.kit.seed_table import Band, SeedTable
from umpire.engine.rulesets.downtown.terms import cite

CITATION = cite("3.3.2 SAM Dummy Check Table")


class DummyResult(StrEnum):
    """The three printed results."""

    POSSIBLE_DUMMY = "possible_dummy"  # 8 or less
    DUMMY_RADAR = "possible_dummy_radar"  # 9
    ACTIVATES = "activates"  # 10 or more


TABLE: SeedTable[DummyResult] = SeedTable(
    citation=CITATION,
    bands=(
        Band(2, 8, DummyResult.POSSIBLE_DUMMY, label="8 or less"),
        Band(9, 9, DummyResult.DUMMY_RADAR),
        Band(10, 10, DummyResult.ACTIVATES, label="10 or more"),
    ),
    name="SAM Dummy Check Table",
)
# The printed rows, (heading, result), as the seed prints them.
ROWS: tuple[tuple[str, DummyResult], ...] = tuple((b.span, b.value) for b in TABLE.bands)


def result_for(total: int) -> DummyResult:
    """The printed result for a modified total (below 2 reads "8 or less", above 10 "10 or
    more": the table's end rows)."""
    return TABLE.row_for(total).value


def passes_first_fire(total: int) -> bool:
    """3.3.2 row 9: a dummy radar's first-fire check must roll 10 or more, else it is a dummy."""
    return total >= 10
