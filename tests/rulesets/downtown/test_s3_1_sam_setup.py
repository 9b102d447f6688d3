"""3.1 SAM set up: the six SAM Deployment Tables against the seed, the date rule, and the
set-up procedure (Hanoi/Haiphong targets first, within 6 hexes, then second SAMs)."""

from __future__ import annotations

import re

import pytest

from tests.rulesets.downtown.setups import SEED, new_state, of, run
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.tables import sam_deployment
from umpire.testing.support.seeds import seed_text


def test_every_table_matches_the_seed() -> None:
    """3.1.1 SAM Tables: each hex list and radius as printed."""
    text = seed_text(SEED)
    for table in sam_deployment.TABLES:
        line = re.search(rf"^{re.escape(table.name)} (.+)$", text, re.M)
        assert line is not None, table.name
        assert tuple(h.strip() for h in line[1].split(",")) == table.hexes
    assert [t.radius for t in sam_deployment.TABLES] == [1, 1, 1, 2, 2, 3]
    for radius in (1, 2, 3):
        assert f"Place a SAM counter within {radius} hex" in text


@pytest.mark.parametrize(
    ("year", "month", "name"),
    [
        (1965, 5, "1965"),
        (1966, 6, "Jan-Jun 1966"),
        (1966, 7, "Jul-Dec 1966"),
        (1967, 1, "1967"),
        (1968, 12, "1968"),
        (1970, 3, "1968"),
        (1972, 4, "1972"),
        (1964, 8, "1965"),
    ],
)
def test_table_for_date(year: int, month: int, name: str) -> None:
    """3.1.1: tables by date; 1969-71 use 1968 and before 1965 uses 1965 (README)."""
    assert sam_deployment.table_for(year, month).name == name
    read = sam_deployment.reading_for(year, month)
    assert (
        read.citation == f"{SEED} 3.1.1 SAM Deployment Tables ({name}, within {read.value.radius})"
    )


def test_set_up_defends_hanoi_targets_first_then_second_sams() -> None:
    """3.1.2: located counters = SAMs + dummy SAMs + dummy radars; the Hanoi target first,
    each within 6 hexes of its target on a listed location; then a second round."""
    state, events = run(
        new_state(sams_at_start=2, dummy_sams=1, dummy_radars=1),
        {"type": "DeployGroundUnits"},
        seed=2,
    )
    setups = of(events, ev.SamSetUp)
    assert len(setups) == 4 == len(state.sams)
    assert [s.target for s in setups] == ["bridge", "yard", "bridge", "yard"]
    table = sam_deployment.table_for(1967, 6)
    for s in setups:
        assert s.site in table.hexes
        target = {"bridge": "2021", "yard": "2316"}[s.target]
        from umpire.engine.rulesets.downtown.board import board_of

        board = board_of(None)
        assert board.dist(s.site, target) <= 6 and board.dist(s.hex, s.site) <= table.radius
    assert len({s.hex for s in setups}) == 4
    assert all(not s.radar_on for s in state.sams)
