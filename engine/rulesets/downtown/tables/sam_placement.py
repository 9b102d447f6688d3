"""3.2.2 SAM Placement Table A-D."""

from __future__ import annotations

from msgspec import Struct

from engine.rulesets.downtown.terms import cite

CITATION = cite("3.2.2 SAM Placement Table")


class PlacementRow(Struct, frozen=True, kw_only=True):
    """Within `radius` of the measuring flight (or of the raid target); None = do not place."""

    letter: str
    radius: int | None
    from_target: bool = False


ROWS: tuple[PlacementRow, ...] = (
    PlacementRow(letter="A", radius=5),
    PlacementRow(letter="B", radius=8),
    PlacementRow(letter="C", radius=15, from_target=True),
    PlacementRow(letter="D", radius=None),
)
BY_LETTER: dict[str, PlacementRow] = {r.letter: r for r in ROWS}
MAX_USES = 2
"""Two strikes cross a listed hex off; more than 4 hexes from downtown only one SAM."""
ONE_SAM_BEYOND = 4


def sequence(acquisition_phase: bool) -> tuple[str, ...]:
    """The rows tried in order: B goes to D in the SAM Acquisition Phase, else to C."""
    return ("A", "B", "D") if acquisition_phase else ("A", "B", "C", "D")
