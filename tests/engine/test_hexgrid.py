"""Hex geometry: CCRR labels, both column parities, and the laws a hex grid must obey.

Expected values in the example tests were worked out by hand from the map picture, not by
running the code: flat-topped hexes in vertical columns, rows growing downwards, and every
"down" column drawn half a hex lower than its neighbours. `_pixel` below draws that picture
independently of the cube arithmetic in engine/hexgrid.py, so the property tests check the
cube formulas against it.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from umpire.engine.hexgrid import DIRECTION_NAMES, Hex, HexGrid, Parity

ODD = HexGrid(parity=Parity.ODD_COLUMNS_DOWN)
EVEN = HexGrid(parity=Parity.EVEN_COLUMNS_DOWN)


def H(label: str) -> Hex:
    """Shorthand: the hex of a CCRR label."""
    return Hex.parse(label)


def Hs(*labels: str) -> tuple[Hex, ...]:
    """Shorthand: the hexes of several CCRR labels, in the order given."""
    return tuple(Hex.parse(label) for label in labels)


def _pixel(grid: HexGrid, h: Hex) -> tuple[float, float]:
    """The centre of `h` on the printed map, hexes 1 unit from centre to corner.

    Columns are 1.5 apart; within a column, rows are sqrt(3) apart; a "down" column is
    drawn half a row lower. y grows downwards, like the row numbers.
    """
    down = (h.col % 2 == 1) == (grid.parity is Parity.ODD_COLUMNS_DOWN)
    return (1.5 * h.col, math.sqrt(3) * (h.row + (0.5 if down else 0.0)))


# The step from a hex's centre to its neighbour's in each direction, on the picture.
_S3 = math.sqrt(3)
_PIXEL_STEPS = {
    0: (0.0, -_S3),  # N: straight up the column
    1: (1.5, -_S3 / 2),  # NE
    2: (1.5, _S3 / 2),  # SE
    3: (0.0, _S3),  # S
    4: (-1.5, _S3 / 2),  # SW
    5: (-1.5, -_S3 / 2),  # NW
}

# -- strategies ---------------------------------------------------------------------------

parities = st.sampled_from(list(Parity))
# The whole label space as the map, so pure geometry is never cut by bounds.
full_grids = parities.map(lambda p: HexGrid(parity=p, min_col=0, max_col=99, min_row=0, max_row=99))
hexes = st.builds(Hex, col=st.integers(0, 99), row=st.integers(0, 99))
directions = st.integers(0, 5)


@st.composite
def nearby_pairs(draw: st.DrawFn, reach: int = 9) -> tuple[Hex, Hex]:
    """Two hexes at most `reach` columns and rows apart, well inside the map."""
    a = draw(st.builds(Hex, col=st.integers(20, 79), row=st.integers(20, 79)))
    dc = draw(st.integers(-reach, reach))
    dr = draw(st.integers(-reach, reach))
    return a, Hex(a.col + dc, a.row + dr)


# -- labels -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "col", "row"),
    [("0407", 4, 7), ("1016", 10, 16), ("0410", 4, 10), ("0000", 0, 0), ("9999", 99, 99)],
)
def test_parse_and_label_good(label: str, col: int, row: int) -> None:
    h = Hex.parse(label)
    assert (h.col, h.row) == (col, row)
    assert h.label == label
    assert str(h) == label


@pytest.mark.parametrize(
    "label",
    ["12x4", "407", "04070", "", " 407", "407 ", "-407", "+407", "04.7", "٠٤٠٧", "0x10", "04_7"],
)
def test_parse_bad_labels(label: str) -> None:
    with pytest.raises(ValueError, match=r"is not 4 digits CCRR"):
        Hex.parse(label)


def test_parse_error_message_names_the_label() -> None:
    with pytest.raises(ValueError) as err:
        Hex.parse("12x4")
    assert str(err.value) == "hex label '12x4' is not 4 digits CCRR"


@pytest.mark.parametrize("h", [Hex(100, 1), Hex(1, 100), Hex(-1, 5), Hex(5, -1)])
def test_label_out_of_range_raises(h: Hex) -> None:
    with pytest.raises(ValueError, match="no CCRR label"):
        _ = h.label
    assert str(h) == f"({h.col},{h.row})"


@given(hexes)
def test_label_round_trip(h: Hex) -> None:
    assert len(h.label) == 4
    assert Hex.parse(h.label) == h


def test_hexes_order_by_column_then_row() -> None:
    assert sorted(Hs("0502", "0410", "0407", "0501")) == list(Hs("0407", "0410", "0501", "0502"))


def test_structs_round_trip_through_msgspec() -> None:
    grid = HexGrid(parity=Parity.EVEN_COLUMNS_DOWN, min_col=1, max_col=30, min_row=1, max_row=20)
    raw = msgspec.json.encode(grid)
    assert b'"even_down"' in raw
    assert msgspec.json.decode(raw, type=HexGrid) == grid
    assert msgspec.json.decode(msgspec.json.encode(H("0407")), type=Hex) == Hex(4, 7)


# -- grid bounds ----------------------------------------------------------------------------


def test_default_grid() -> None:
    grid = HexGrid()
    assert grid.parity is Parity.ODD_COLUMNS_DOWN
    assert grid.contains(H("0101")) and grid.contains(H("9999"))
    assert not grid.contains(H("0001")) and not grid.contains(H("0100"))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"min_col": 5, "max_col": 4},
        {"min_row": 9, "max_row": 2},
        {"max_col": 100},
        {"min_row": -1},
    ],
)
def test_bad_bounds_rejected(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="HexGrid"):
        HexGrid(**kwargs)


def test_contains_respects_each_bound() -> None:
    grid = HexGrid(min_col=2, max_col=10, min_row=3, max_row=8)
    assert grid.contains(H("0203")) and grid.contains(H("1008"))
    for outside in ("0103", "1103", "0202", "0209"):
        assert not grid.contains(H(outside)), outside


# -- neighbours: worked by hand --------------------------------------------------------------


def test_neighbours_of_0405_odd_columns_down() -> None:
    # Column 04 is even, so it is "up"; columns 03 and 05 are drawn half a hex lower.
    # 0405's centre is at height 5; 0504 and 0304 at 4.5; 0505 and 0305 at 5.5.
    # N 0404 (same column, above), NE 0504, SE 0505, S 0406, SW 0305, NW 0304.
    assert ODD.neighbours(H("0405")) == Hs("0404", "0504", "0505", "0406", "0305", "0304")


def test_neighbours_of_0405_even_columns_down() -> None:
    # Now column 04 is "down": 0405's centre is at height 5.5, columns 03/05 are not
    # shifted, so 0505 and 0305 are at 5 (above-right/left) and 0506, 0306 at 6.
    # N 0404, NE 0505, SE 0506, S 0406, SW 0306, NW 0305.
    assert EVEN.neighbours(H("0405")) == Hs("0404", "0505", "0506", "0406", "0306", "0305")


def test_neighbours_of_an_odd_column_hex() -> None:
    # 0506 with odd columns down: column 05 is low (height 6.5); 0406/0606 are at 6 and
    # 0407/0607 at 7. N 0505, NE 0606, SE 0607, S 0507, SW 0407, NW 0406.
    assert ODD.neighbours(H("0506")) == Hs("0505", "0606", "0607", "0507", "0407", "0406")
    # Even columns down: column 05 is high (height 6), 0405/0605 at 5.5, 0406/0606 at 6.5.
    assert EVEN.neighbours(H("0506")) == Hs("0505", "0605", "0606", "0507", "0406", "0405")


def test_neighbours_at_the_map_corner_are_filtered_in_direction_order() -> None:
    # 0101, odd columns down: column 01 is low (height 1.5). N would be 0100 (row 0, off
    # the map), NE 0201 (height 1), SE 0202 (height 2), S 0102; SW and NW are column 00.
    assert ODD.neighbours(H("0101")) == Hs("0201", "0202", "0102")
    # Even columns down: column 02 is low, so NE of 0101 would be 0200 (off), SE is 0201.
    assert EVEN.neighbours(H("0101")) == Hs("0201", "0102")
    # neighbour() itself is plain geometry and does step off the map.
    assert ODD.neighbour(H("0101"), 0) == Hex(1, 0)
    assert EVEN.neighbour(H("0101"), 1) == Hex(2, 0)
    assert ODD.neighbour(H("0101"), 5) == Hex(0, 1)


def test_neighbour_by_direction_and_direction_to() -> None:
    expected = Hs("0404", "0504", "0505", "0406", "0305", "0304")
    for d, want in enumerate(expected):
        assert ODD.neighbour(H("0405"), d) == want, DIRECTION_NAMES[d]
        assert ODD.direction_to(H("0405"), want) == d
    assert ODD.direction_to(H("0405"), H("0405")) is None
    assert ODD.direction_to(H("0405"), H("0605")) is None  # two columns away
    assert ODD.direction_to(H("0405"), H("0506")) is None  # adjacent only with EVEN
    assert EVEN.direction_to(H("0405"), H("0506")) == 2


@pytest.mark.parametrize("bad", [-1, 6, 7])
def test_bad_direction_raises(bad: int) -> None:
    with pytest.raises(ValueError, match=r"not 0\.\.5"):
        ODD.neighbour(H("0405"), bad)
    with pytest.raises(ValueError, match=r"not 0\.\.5"):
        ODD.facing_front(H("0405"), bad)
    with pytest.raises(ValueError, match=r"not 0\.\.5"):
        ODD.in_front_arc(H("0405"), bad, H("0404"))
    with pytest.raises(ValueError, match=r"not 0\.\.5"):
        ODD.in_rear_arc(H("0405"), bad, H("0404"))


# -- cube coordinates and distance: worked by hand ---------------------------------------


def test_cube_coordinates_examples() -> None:
    # x = column, z = row minus the column's shift (col // 2 for an even column with odd
    # columns down), y = -x - z.
    assert ODD.to_cube(H("0405")) == (4, -7, 3)
    assert EVEN.to_cube(H("0405")) == (4, -7, 3)
    assert ODD.to_cube(H("0506")) == (5, -9, 4)  # odd column, odd-down: shift (5-1)//2 = 2
    assert EVEN.to_cube(H("0506")) == (5, -8, 3)  # odd column, even-down: shift (5+1)//2 = 3
    assert ODD.from_cube(5, -9, 4) == H("0506")
    with pytest.raises(ValueError, match="do not sum to 0"):
        ODD.from_cube(1, 1, 1)


@pytest.mark.parametrize(
    ("grid", "a", "b", "d"),
    [
        (ODD, "0405", "0405", 0),
        (ODD, "0405", "0408", 3),  # straight down the column
        (ODD, "0405", "0605", 2),  # NE then SE
        (ODD, "0405", "1005", 6),  # zigzag NE/SE along the row
        (ODD, "0405", "0709", 6),  # SE x3 (0505, 0606, 0706) then S x3
        (EVEN, "0405", "0709", 5),  # column 04 is low now: SE x3 reaches 0707, then S x2
        (ODD, "0101", "0201", 1),
        (EVEN, "0101", "0201", 1),
        (ODD, "0102", "0201", 2),  # with odd down, 0201 is NE of 0101, which is N of 0102
        (EVEN, "0102", "0201", 1),  # with even down, 0201 is NE of 0102
    ],
)
def test_distance_examples(grid: HexGrid, a: str, b: str, d: int) -> None:
    assert grid.distance(H(a), H(b)) == d
    assert grid.distance(H(b), H(a)) == d


# -- neighbours, cube and distance: laws -------------------------------------------------------


@given(full_grids, hexes, directions)
def test_neighbour_matches_the_picture(grid: HexGrid, h: Hex, d: int) -> None:
    x0, y0 = _pixel(grid, h)
    x1, y1 = _pixel(grid, grid.neighbour(h, d))
    sx, sy = _PIXEL_STEPS[d]
    assert math.isclose(x1 - x0, sx, abs_tol=1e-9)
    assert math.isclose(y1 - y0, sy, abs_tol=1e-9)


@given(full_grids, hexes, directions)
def test_neighbour_then_opposite_returns(grid: HexGrid, h: Hex, d: int) -> None:
    n = grid.neighbour(h, d)
    assert n != h
    assert grid.neighbour(n, (d + 3) % 6) == h
    assert grid.direction_to(h, n) == d
    assert grid.direction_to(n, h) == (d + 3) % 6
    assert grid.distance(h, n) == 1


@given(full_grids, st.builds(Hex, col=st.integers(1, 98), row=st.integers(1, 98)))
def test_six_distinct_neighbours_away_from_the_edge(grid: HexGrid, h: Hex) -> None:
    ns = grid.neighbours(h)
    assert len(ns) == 6
    assert len(set(ns)) == 6
    assert ns == tuple(grid.neighbour(h, d) for d in range(6))
    assert all(grid.distance(h, n) == 1 for n in ns)


@given(full_grids, hexes)
def test_neighbours_at_any_place_are_the_on_map_ones(grid: HexGrid, h: Hex) -> None:
    all_six = tuple(grid.neighbour(h, d) for d in range(6))
    assert grid.neighbours(h) == tuple(n for n in all_six if grid.contains(n))


@given(full_grids, hexes)
def test_cube_round_trip(grid: HexGrid, h: Hex) -> None:
    x, y, z = grid.to_cube(h)
    assert x + y + z == 0
    assert grid.from_cube(x, y, z) == h


@given(full_grids, hexes, hexes)
def test_distance_symmetric_and_zero_iff_equal(grid: HexGrid, a: Hex, b: Hex) -> None:
    assert grid.distance(a, b) == grid.distance(b, a)
    assert (grid.distance(a, b) == 0) == (a == b)
    assert grid.distance(a, b) >= 0


@given(full_grids, hexes, hexes, hexes)
def test_distance_triangle_inequality(grid: HexGrid, a: Hex, b: Hex, c: Hex) -> None:
    assert grid.distance(a, c) <= grid.distance(a, b) + grid.distance(b, c)


@given(full_grids, hexes, st.lists(directions, max_size=12))
def test_distance_at_most_the_steps_taken(grid: HexGrid, h: Hex, path: list[int]) -> None:
    end = h
    for d in path:
        end = grid.neighbour(end, d)
    assert grid.distance(h, end) <= len(path)
    # Walking straight in one direction is a shortest path.
    if path:
        straight = h
        for _ in path:
            straight = grid.neighbour(straight, path[0])
        assert grid.distance(h, straight) == len(path)


# -- rings and areas ----------------------------------------------------------------------------


def test_ring_and_within_examples() -> None:
    assert ODD.ring(H("0405"), 0) == (H("0405"),)
    assert ODD.ring(H("0405"), 1) == tuple(sorted(ODD.neighbours(H("0405"))))
    assert ODD.within(H("0405"), 1) == tuple(sorted((H("0405"), *ODD.neighbours(H("0405")))))
    # At the corner only the on-map hexes remain (see the 0101 neighbour test).
    assert ODD.within(H("0101"), 1) == Hs("0101", "0102", "0201", "0202")
    assert EVEN.ring(H("0101"), 1) == Hs("0102", "0201")
    small = HexGrid(min_col=1, max_col=3, min_row=1, max_row=3)
    assert small.ring(H("0505"), 0) == ()
    assert small.ring(H("0202"), 1) == Hs("0101", "0102", "0201", "0203", "0301", "0302")
    with pytest.raises(ValueError, match="negative"):
        ODD.ring(H("0405"), -1)
    with pytest.raises(ValueError, match="negative"):
        ODD.within(H("0405"), -1)


@given(full_grids, st.integers(0, 6), st.data())
def test_ring_and_within_sizes_away_from_the_edge(
    grid: HexGrid, radius: int, data: st.DataObject
) -> None:
    inner = st.integers(radius, 99 - radius)
    center = data.draw(st.builds(Hex, col=inner, row=inner))
    ring = grid.ring(center, radius)
    area = grid.within(center, radius)
    assert len(ring) == (6 * radius if radius else 1)
    assert len(area) == 1 + 3 * radius * (radius + 1)
    assert ring == tuple(sorted(set(ring)))
    assert area == tuple(sorted(set(area)))
    assert all(grid.distance(center, h) == radius for h in ring)
    assert all(grid.distance(center, h) <= radius for h in area)
    assert set(area) == set().union(*(grid.ring(center, r) for r in range(radius + 1)))


@given(parities, hexes, st.integers(0, 4))
def test_ring_and_within_filter_to_bounds(parity: Parity, center: Hex, radius: int) -> None:
    grid = HexGrid(parity=parity, min_col=3, max_col=12, min_row=2, max_row=9)
    full = HexGrid(parity=parity, min_col=0, max_col=99, min_row=0, max_row=99)
    assert grid.within(center, radius) == tuple(
        h for h in full.within(center, radius) if grid.contains(h)
    )
    assert grid.ring(center, radius) == tuple(
        h for h in full.ring(center, radius) if grid.contains(h)
    )


# -- lines: worked by hand -------------------------------------------------------------------


def test_line_straight_down_a_column() -> None:
    for grid in (ODD, EVEN):
        assert grid.line(H("0405"), H("0408")) == Hs("0405", "0406", "0407", "0408")
        assert grid.line_with_sides(H("0405"), H("0408")) == tuple(
            (h,) for h in Hs("0405", "0406", "0407", "0408")
        )


def test_line_of_one_hex() -> None:
    assert ODD.line(H("0405"), H("0405")) == (H("0405"),)
    assert ODD.line_with_sides(H("0405"), H("0405")) == ((H("0405"),),)
    assert ODD.eligible_on_line(H("0405"), H("0405")) == (H("0405"),)


def test_line_along_a_hex_side_reports_both_hexes_odd() -> None:
    # Odd columns down: 0405 and 0605 (both in "up" columns) have centres at the same
    # height, so the line between them is horizontal. It leaves 0405 through its right-hand
    # corner and runs exactly along the side shared by 0504 (height 4.5, above the line)
    # and 0505 (height 5.5, below it), then enters 0605 through its left-hand corner.
    a, b = H("0405"), H("0605")
    assert ODD.line_with_sides(a, b) == ((a,), Hs("0504", "0505"), (b,))
    assert ODD.eligible_on_line(a, b) == Hs("0405", "0504", "0505", "0605")
    assert ODD.line(a, b)[1] in Hs("0504", "0505")
    # Twice as far: two such sides, with 0605 in the middle.
    assert ODD.line_with_sides(a, H("0805")) == (
        (a,),
        Hs("0504", "0505"),
        (H("0605"),),
        Hs("0704", "0705"),
        (H("0805"),),
    )


def test_line_along_a_hex_side_reports_both_hexes_even() -> None:
    # Even columns down: 0405 and 0605 are both "down" (height 5.5), the hexes either side
    # of the line are 0505 (height 5) and 0506 (height 6).
    a, b = H("0405"), H("0605")
    assert EVEN.line_with_sides(a, b) == ((a,), Hs("0505", "0506"), (b,))
    assert EVEN.eligible_on_line(a, b) == Hs("0405", "0505", "0506", "0605")


def test_line_along_a_slanted_hex_side() -> None:
    # Odd columns down: 0506 is 1.5 columns-width right and 1.5 rows down of 0405, i.e. 60
    # degrees below the horizontal, through 0405's lower-right corner. The line runs along
    # the side between 0406 (S of 0405) and 0505 (SE of 0405); both are 2 steps from 0405
    # to 0506 and neither is nearer the line.
    a, b = H("0405"), H("0506")
    assert ODD.distance(a, b) == 2
    assert ODD.line_with_sides(a, b) == ((a,), Hs("0406", "0505"), (b,))
    # With even columns down 0506 is simply the SE neighbour: no side, no choice.
    assert EVEN.line_with_sides(a, b) == ((a,), (b,))


def test_line_crossing_a_side_at_its_midpoint_reports_both_hexes() -> None:
    # Odd columns down, 0405 (height 5) to 0804 (height 4, both "up" columns): halfway,
    # in column 06, the line is at height 4.5, which is exactly the side between 0604
    # (height 4) and 0605 (height 5). The line crosses that side there (it is not along
    # it), so it really passes through both; both are reported at that step.
    a, b = H("0405"), H("0804")
    assert ODD.line_with_sides(a, b) == (
        (a,),
        (H("0504"),),
        Hs("0604", "0605"),
        (H("0704"),),
        (b,),
    )
    assert ODD.line(a, b) in (
        Hs("0405", "0504", "0604", "0704", "0804"),
        Hs("0405", "0504", "0605", "0704", "0804"),
    )


def test_a_long_line_can_clip_hex_corners_between_samples() -> None:
    # Odd columns down, 0405 to 1102 (7 hexes): the line cuts across a corner of 0704 and
    # of 0803 (2.5% of its length each) between two sample points. The sampled line misses
    # them; hexes_crossed, the exact trace, has them.
    a, b = H("0405"), H("1102")
    sampled = Hs("0405", "0504", "0604", "0703", "0804", "0903", "1003", "1102")
    assert ODD.line(a, b) == sampled
    assert ODD.eligible_on_line(a, b) == sampled
    assert ODD.hexes_crossed(a, b) == Hs(
        "0405", "0504", "0604", "0704", "0703", "0804", "0803", "0903", "1003", "1102"
    )


def test_hexes_crossed_along_a_side_and_not_at_a_corner() -> None:
    # Along a side both hexes count; the line leaves 0405 through a corner it shares with
    # 0504 and 0505, and only "touches" no third hex there.
    assert ODD.hexes_crossed(H("0405"), H("0605")) == Hs("0405", "0504", "0505", "0605")
    # Crossing the 0604/0605 side upwards: 0605 is entered first.
    assert ODD.hexes_crossed(H("0405"), H("0804")) == Hs(
        "0405", "0504", "0605", "0604", "0704", "0804"
    )


# -- lines: laws ----------------------------------------------------------------------------------


@settings(max_examples=200)
@given(full_grids, nearby_pairs())
def test_line_laws(grid: HexGrid, pair: tuple[Hex, Hex]) -> None:
    a, b = pair
    line = grid.line(a, b)
    assert line[0] == a and line[-1] == b
    assert len(line) == grid.distance(a, b) + 1
    assert all(grid.distance(p, q) == 1 for p, q in itertools.pairwise(line))
    # Each step moves one hex further from a and one nearer to b.
    assert [grid.distance(a, h) for h in line] == list(range(len(line)))


@settings(max_examples=200)
@given(full_grids, nearby_pairs())
def test_line_with_sides_laws(grid: HexGrid, pair: tuple[Hex, Hex]) -> None:
    a, b = pair
    steps = grid.line_with_sides(a, b)
    line = grid.line(a, b)
    assert len(steps) == len(line)
    assert steps[0] == (a,) and steps[-1] == (b,)
    for hex_in_line, step in zip(line, steps, strict=True):
        assert hex_in_line in step
        assert len(step) in (1, 2)
        assert step == tuple(sorted(step))
        if len(step) == 2:
            assert grid.distance(step[0], step[1]) == 1  # the two hexes of one side
            assert grid.distance(a, step[0]) == grid.distance(a, step[1])
    # The same line traced from the other end.
    assert grid.line_with_sides(b, a) == tuple(reversed(steps))
    eligible = grid.eligible_on_line(a, b)
    assert eligible == tuple(h for step in steps for h in step)
    assert len(set(eligible)) == len(eligible)


def _segment_point_distance(
    p: tuple[float, float], s: tuple[float, float], e: tuple[float, float]
) -> float:
    dx, dy = e[0] - s[0], e[1] - s[1]
    length2 = dx * dx + dy * dy
    t = (
        0.0
        if length2 == 0
        else max(0.0, min(1.0, ((p[0] - s[0]) * dx + (p[1] - s[1]) * dy) / length2))
    )
    return math.hypot(p[0] - (s[0] + t * dx), p[1] - (s[1] + t * dy))


@settings(max_examples=60)
@given(full_grids, nearby_pairs(reach=7))
def test_lines_against_a_dense_trace_of_the_picture(grid: HexGrid, pair: tuple[Hex, Hex]) -> None:
    """Walk the drawn segment in small steps; the hex a point is in is the nearest centre.

    Every hex met that way must be in hexes_crossed; for lines up to 6 hexes the sampled
    line (with sides) must find every one of them as well.
    """
    a, b = pair
    start, end = _pixel(grid, a), _pixel(grid, b)
    n = grid.distance(a, b)
    # Only centres within one hex (corner distance 1) of the segment can be nearest to it.
    near = [
        (h, _pixel(grid, h))
        for h in grid.within(a, n + 1)
        if _segment_point_distance(_pixel(grid, h), start, end) <= 1.0 + 1e-9
    ]
    met: set[Hex] = set()
    samples = 40 * n
    for k in range(samples + 1):
        t = k / samples if samples else 0.0
        # A tiny irrational offset keeps the probe off exact ties between centres.
        t = min(1.0, t + 1e-7 * math.sqrt(2)) if k < samples else 1.0
        px, py = start[0] + t * (end[0] - start[0]), start[1] + t * (end[1] - start[1])
        met.add(min(near, key=lambda hp: (hp[1][0] - px) ** 2 + (hp[1][1] - py) ** 2)[0])
    crossed = grid.hexes_crossed(a, b)
    assert met <= set(crossed)
    eligible = grid.eligible_on_line(a, b)
    assert set(eligible) <= set(crossed)
    if n <= 6:
        assert met <= set(eligible)
        assert set(crossed) == set(eligible)


@settings(max_examples=200)
@given(full_grids, nearby_pairs())
def test_hexes_crossed_laws(grid: HexGrid, pair: tuple[Hex, Hex]) -> None:
    a, b = pair
    crossed = grid.hexes_crossed(a, b)
    assert crossed[0] == a and crossed[-1] == b
    assert len(set(crossed)) == len(crossed)
    assert set(grid.eligible_on_line(a, b)) <= set(crossed)
    assert set(grid.hexes_crossed(b, a)) == set(crossed)
    # Consecutive hexes of the trace touch along a side (no gaps).
    assert all(grid.distance(p, q) == 1 for p, q in itertools.pairwise(crossed))


# -- facing and arcs: worked by hand --------------------------------------------------------


def test_facing_front_is_the_hex_directly_ahead() -> None:
    assert ODD.facing_front(H("0405"), 0) == H("0404")
    assert ODD.facing_front(H("0405"), 1) == H("0504")
    assert EVEN.facing_front(H("0405"), 1) == H("0505")
    assert ODD.facing_front(H("0405"), 3) == H("0406")
    # Nightfighter-style labels: column 10, row 16, facing SW.
    assert ODD.facing_front(H("1016"), 4) == H("0916")
    assert EVEN.facing_front(H("1016"), 4) == H("0917")


def test_arcs_facing_north_odd() -> None:
    o = H("0405")
    # Front arc facing N: the column straight up, the NE and NW rows (boundaries, in),
    # and what lies between them.
    front = ["0404", "0403", "0401", "0504", "0304", "0604", "0204", "0503", "0303"]
    # Rear arc: the mirror image, facing S.
    rear = ["0406", "0409", "0505", "0305", "0606", "0206", "0506", "0306"]
    # Flanks: strictly between the NE and SE rows (or NW and SW): due "east"/"west".
    flank = ["0605", "0205", "0805", "0705", "0704", "0105"]
    for lab in front:
        assert ODD.in_front_arc(o, 0, H(lab)), lab
        assert not ODD.in_rear_arc(o, 0, H(lab)), lab
    for lab in rear:
        assert ODD.in_rear_arc(o, 0, H(lab)), lab
        assert not ODD.in_front_arc(o, 0, H(lab)), lab
    for lab in flank:
        assert not ODD.in_front_arc(o, 0, H(lab)), lab
        assert not ODD.in_rear_arc(o, 0, H(lab)), lab
    assert not ODD.in_front_arc(o, 0, o) and not ODD.in_rear_arc(o, 0, o)


def test_arcs_facing_north_east_even() -> None:
    # Even columns down, 0405 facing NE (towards 0505). Boundaries are the N row (0404...)
    # and the SE row (0506...). 0605 is straight "east" (NE then SE): in the front arc now.
    o = H("0405")
    for lab in ["0505", "0404", "0506", "0605", "0604", "0606"]:
        assert EVEN.in_front_arc(o, 1, H(lab)), lab
    for lab in ["0306", "0406", "0305", "0205"]:  # SW, S, NW, "west"
        assert EVEN.in_rear_arc(o, 1, H(lab)), lab
        assert not EVEN.in_front_arc(o, 1, H(lab)), lab


# -- facing and arcs: laws -----------------------------------------------------------------------


def _in_arc_by_enumeration(grid: HexGrid, origin: Hex, facing: int, target: Hex) -> bool:
    """The arc definition spelled out: target = origin + a*f-1 + b*f + c*f+1, a,b,c >= 0."""
    r = grid.distance(origin, target)
    if r == 0:
        return False
    for na in range(r + 1):
        for nb in range(r + 1 - na):
            for nc in range(r + 1 - na - nb):
                h = origin
                for count, d in ((na, facing - 1), (nb, facing), (nc, facing + 1)):
                    for _ in range(count):
                        h = grid.neighbour(h, d % 6)
                if h == target:
                    return True
    return False


@settings(max_examples=150)
@given(full_grids, directions, nearby_pairs(reach=4))
def test_front_arc_matches_its_definition(
    grid: HexGrid, facing: int, pair: tuple[Hex, Hex]
) -> None:
    origin, target = pair
    assert grid.in_front_arc(origin, facing, target) == _in_arc_by_enumeration(
        grid, origin, facing, target
    )


@given(full_grids, directions, nearby_pairs())
def test_rear_arc_is_the_mirror_and_never_overlaps(
    grid: HexGrid, facing: int, pair: tuple[Hex, Hex]
) -> None:
    origin, target = pair
    front = grid.in_front_arc(origin, facing, target)
    rear = grid.in_rear_arc(origin, facing, target)
    assert rear == grid.in_front_arc(origin, (facing + 3) % 6, target)
    assert not (front and rear)
    # Seen from the target, looking the same way, the origin is behind/ahead accordingly.
    assert front == grid.in_rear_arc(target, facing, origin)


@given(
    full_grids,
    directions,
    st.integers(1, 6),
    st.builds(Hex, st.integers(10, 89), st.integers(10, 89)),
)
def test_arc_sizes_on_each_ring(grid: HexGrid, facing: int, radius: int, origin: Hex) -> None:
    ring = grid.ring(origin, radius)
    front = [h for h in ring if grid.in_front_arc(origin, facing, h)]
    rear = [h for h in ring if grid.in_rear_arc(origin, facing, h)]
    assert len(front) == 2 * radius + 1
    assert len(rear) == 2 * radius + 1
    ahead = origin
    for _ in range(radius):
        ahead = grid.neighbour(ahead, facing)
    assert ahead in front
    assert grid.facing_front(origin, facing) in grid.ring(origin, 1)
    assert grid.in_front_arc(origin, facing, grid.facing_front(origin, facing))
    assert grid.direction_to(origin, grid.facing_front(origin, facing)) == facing
