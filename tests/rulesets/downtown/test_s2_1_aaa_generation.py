"""2.1.1-2.1.2 AAA Generation Table: every printed cell against the seed, the point-cost
invariant, and the 11-13 point interpretation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.rulesets.downtown.setups import SEED
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.downtown.tables import aaa_generation as gen
from umpire.engine.rulesets.downtown.terms import Density
from umpire.testing.support.seeds import seed_text


def _seed_rows() -> dict[int, tuple[str, ...]]:
    text = seed_text(SEED)
    block = text[text.index("AAA Points\tDie Roll") : text.index("Pick out the counters")]
    rows: dict[int, tuple[str, ...]] = {}
    for line in block.splitlines()[2:]:
        cells = [c.strip() for c in line.split("\t") if c.strip()]
        if cells:
            rows[int(cells[0])] = tuple(cells[1:])
    return rows


def test_every_cell_matches_the_seed() -> None:
    """2.1.2: rows 1-10 and 14, columns 1..8 and 9-10, cell for cell."""
    seed = _seed_rows()
    assert sorted(seed) == sorted(gen.ROWS) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 14]
    for points, cells in gen.ROWS.items():
        assert cells == seed[points], points


@pytest.mark.parametrize("points", sorted(gen.ROWS))
def test_every_printed_cell_costs_its_row(points: int) -> None:
    """Invariant behind the 11-13 interpretation: L=1, M=2, H=4 points in every cell."""
    for cell in gen.ROWS[points]:
        assert gen.cost(gen.parse_cell(cell)) == points


def test_lookup_reads_row_and_column() -> None:
    """2.1.2: 6 points on a 7 is '1M, 4L'; 9 and 10 share a column."""
    r = gen.lookup(6, 7)
    assert r.cells == ("1M, 4L",)
    assert r.densities == (Density.MEDIUM, *[Density.LIGHT] * 4)
    assert gen.lookup(14, 9).cells == gen.lookup(14, 10).cells == ("4M, 6L",)
    assert "row 6, column 7" in r.row


@pytest.mark.parametrize("points", [11, 12, 13])
@pytest.mark.parametrize("roll", range(1, 11))
def test_11_to_13_points_add_row_10_and_the_remainder(points: int, roll: int) -> None:
    """Interpretation (README): 10+n points = row 10 cell + row n cell, same column."""
    r = gen.lookup(points, roll)
    col = gen.column_of(roll)
    assert r.cells == (gen.ROWS[10][col], gen.ROWS[points - 10][col])
    assert gen.cost(r.densities) == points
    assert "interpretation" in r.row


@given(st.integers(1, 14), st.integers(1, 10))
def test_any_points_and_roll_cost_exactly_the_points(points: int, roll: int) -> None:
    """Property: whatever the row and roll, the purchase spends exactly the AAA Points."""
    assert gen.cost(gen.lookup(points, roll).densities) == points


def test_points_outside_the_table_are_refused() -> None:
    with pytest.raises(RuleError, match="AAA Points must be") as info:
        gen.lookup(15, 3)
    assert "2.1.2" in info.value.rule
