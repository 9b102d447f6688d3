"""3.3.2 SAM Dummy Check Table (two dice plus one per dummy discovered so far)."""

from __future__ import annotations

from enum import StrEnum

from engine.rulesets.downtown.terms import cite

CITATION = cite("3.3.2 SAM Dummy Check Table")


class DummyResult(StrEnum):
    """The three printed results."""

    POSSIBLE_DUMMY = "possible_dummy"  # 8 or less
    DUMMY_RADAR = "possible_dummy_radar"  # 9
    ACTIVATES = "activates"  # 10 or more


ROWS: tuple[tuple[str, DummyResult], ...] = (
    ("8 or less", DummyResult.POSSIBLE_DUMMY),
    ("9", DummyResult.DUMMY_RADAR),
    ("10 or more", DummyResult.ACTIVATES),
)


def result_for(total: int) -> DummyResult:
    """The printed result for a modified total."""
    if total <= 8:
        return DummyResult.POSSIBLE_DUMMY
    if total == 9:
        return DummyResult.DUMMY_RADAR
    return DummyResult.ACTIVATES


def passes_first_fire(total: int) -> bool:
    """3.3.2 row 9: a dummy radar's first-fire check must roll 10 or more, else it is a dummy."""
    return total >= 10
