"""Hex geometry for wargame maps: CCRR labels, neighbours, distance, lines, rings and arcs.

Maps here have flat-topped hexes in VERTICAL columns: a column runs straight up and down,
and each column is offset half a hex from its neighbours. Rows grow downwards (row 01 is at
the top of the map), columns grow to the right. Which columns sit half a hex lower is a
property of the printed map (`Parity`), so it is a field of `HexGrid`.

Internally everything is done in cube coordinates `(x, y, z)` with `x + y + z == 0`:

* `x` is the column,
* `z` is the row with the column's half-hex offset taken out,
* `y` is `-x - z`.

In those coordinates a step in each of the six directions is (clockwise from north, as
seen on the map with north at the top)::

    0 N  ( 0, +1, -1)      3 S  ( 0, -1, +1)
    1 NE (+1,  0, -1)      4 SW (-1,  0, +1)
    2 SE (+1, -1,  0)      5 NW (-1, +1,  0)

Flat-topped hexes have a side facing due north and one due south, so N and S neighbours are
the hexes directly above and below in the same column; the other four are in the adjacent
columns. Direction `d + 3` (mod 6) is always the opposite of `d`.

Pure: no I/O, no clock, no randomness. Every result is a tuple in a defined order.
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction
from typing import Annotated

import msgspec

__all__ = [
    "DIRECTION_NAMES",
    "Cube",
    "Facing",
    "Hex",
    "HexGrid",
    "Parity",
]

Cube = tuple[int, int, int]
"""Cube coordinates `(x, y, z)` with `x + y + z == 0` (see the module docstring)."""

DIRECTION_NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")
"""Names of directions 0..5, clockwise from north."""

# A counter's facing or heading as a command or setup field: the hex side its front faces,
# by its number; its description (the published schemas, `umpire actions`) says what each
# number means, and the rulesets' words say it by DIRECTION_NAMES.
Facing = Annotated[
    int,
    msgspec.Meta(
        ge=0,
        le=5,
        description="the hex side faced, clockwise from the top of the map: 0 N, 1 NE, "
        "2 SE, 3 S, 4 SW, 5 NW",
    ),
]

_DIRECTIONS: tuple[Cube, ...] = (
    (0, 1, -1),  # 0 N
    (1, 0, -1),  # 1 NE
    (1, -1, 0),  # 2 SE
    (0, -1, 1),  # 3 S
    (-1, 0, 1),  # 4 SW
    (-1, 1, 0),  # 5 NW
)

# The nudge added to (and subtracted from) every sampled point of a line. No component of
# it is parallel to a hex side (its dot product with every step direction is non-zero), so
# a point lying exactly on a side is pushed to one side by +nudge and to the other by
# -nudge. It is far larger than float error for coordinates of a 100x100 map and far
# smaller than any real distance between a sample and a side it does not lie on.
_NUDGE: tuple[float, float, float] = (1e-6, 2e-6, -3e-6)

_LABEL_MAX = 99


class Parity(StrEnum):
    """Which columns are drawn half a hex LOWER than the columns either side of them.

    With `ODD_COLUMNS_DOWN`, hex 0305 sits half a hex below 0205 and 0405; with
    `EVEN_COLUMNS_DOWN`, 0405 sits half a hex below 0305 and 0505. Look at the map: take
    two hexes with the same row number in neighbouring columns and see which one is lower.
    """

    EVEN_COLUMNS_DOWN = "even_down"
    ODD_COLUMNS_DOWN = "odd_down"


def _check_direction(direction: int) -> None:
    if not 0 <= direction <= 5:
        raise ValueError(f"hex direction {direction!r} is not 0..5 (0 N, clockwise)")


class Hex(msgspec.Struct, frozen=True, order=True):
    """One hex, by map column and row (orders by column, then row).

    Any integers are allowed, so geometry can step off the printed map (see
    `HexGrid.contains`); only hexes with column and row in 0..99 have a `label`.
    """

    col: int
    row: int

    @property
    def label(self) -> str:
        """The 4-digit CCRR label, e.g. `Hex(4, 7).label == "0407"`.

        Raises ValueError if the column or row is outside 0..99.
        """
        if not (0 <= self.col <= _LABEL_MAX and 0 <= self.row <= _LABEL_MAX):
            raise ValueError(
                f"hex (col={self.col}, row={self.row}) has no CCRR label: "
                f"column and row must be 0..{_LABEL_MAX}"
            )
        return f"{self.col:02d}{self.row:02d}"

    @classmethod
    def parse(cls, label: str) -> Hex:
        """The hex of a 4-digit CCRR label: `Hex.parse("0407") == Hex(col=4, row=7)`.

        Only the ASCII digits 0-9 are accepted, exactly four of them, with no sign or
        whitespace. Raises ValueError otherwise.
        """
        if not (
            isinstance(label, str) and len(label) == 4 and all("0" <= ch <= "9" for ch in label)
        ):
            raise ValueError(f"hex label {label!r} is not 4 digits CCRR")
        return cls(col=int(label[:2]), row=int(label[2:]))

    def __str__(self) -> str:
        """The CCRR label where there is one, else `(col,row)`."""
        try:
            return self.label
        except ValueError:
            return f"({self.col},{self.row})"


def _cube_add(a: Cube, b: Cube, times: int = 1) -> Cube:
    return (a[0] + b[0] * times, a[1] + b[1] * times, a[2] + b[2] * times)


def _cube_round(x: float, y: float, z: float) -> Cube:
    """The cube hex containing the fractional cube point (x, y, z)."""
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return (rx, ry, rz)


def _in_cone(delta: Cube, k: int) -> bool:
    """Whether `delta` is m*dir(k) + n*dir(k+1) for some integers m, n >= 0.

    Two neighbouring directions form a basis of the hex lattice (determinant +-1), so m and
    n are the unique integer solution of a 2x2 system on the (x, z) components.
    """
    ax, _, az = _DIRECTIONS[k % 6]
    bx, _, bz = _DIRECTIONS[(k + 1) % 6]
    dx, _, dz = delta
    det = ax * bz - bx * az
    m = (dx * bz - bx * dz) * det  # det is +-1, so dividing by it is multiplying by it
    n = (ax * dz - dx * az) * det
    return m >= 0 and n >= 0


def _segment_in_hex(start: Cube, delta: Cube, c: Cube) -> tuple[Fraction, Fraction] | None:
    """The range of t in [0, 1] for which start + t*delta lies in the closed hex c, or None.

    The closed hex around centre c is the set of points p with |u_i - u_j| <= 1 for each
    pair of cube components of u = p - c.
    """
    lo, hi = Fraction(0), Fraction(1)
    off = (start[0] - c[0], start[1] - c[1], start[2] - c[2])
    for i, j in ((0, 1), (1, 2), (2, 0)):
        base = off[i] - off[j]
        slope = delta[i] - delta[j]
        if slope == 0:
            if abs(base) > 1:
                return None
            continue
        t1, t2 = Fraction(-1 - base, slope), Fraction(1 - base, slope)
        if t1 > t2:
            t1, t2 = t2, t1
        lo, hi = max(lo, t1), min(hi, t2)
        if lo > hi:
            return None
    return (lo, hi)


class HexGrid(msgspec.Struct, frozen=True):
    """The hex geometry of one map: which columns are shifted down, and the map's bounds.

    `parity` defaults to `Parity.ODD_COLUMNS_DOWN`. No default fits every map (it differs
    between publishers and even between maps of one game), so a ruleset should always set
    it from its map. The default is the "odd-q" layout of the usual reference for hex
    arithmetic (Red Blob Games, "Hexagonal Grids"), so the formulas below can be checked
    against it line by line.

    Bounds are inclusive and default to the whole CCRR label space from 0101 to 9999.
    `contains` tests them; `neighbours`, `ring` and `within` leave out hexes outside them.
    The other methods are plain geometry and work for any hexes, on the map or off it.
    """

    parity: Parity = Parity.ODD_COLUMNS_DOWN
    min_col: int = 1
    max_col: int = 99
    min_row: int = 1
    max_row: int = 99

    def __post_init__(self) -> None:
        """Check the bounds: each in 0..99, min not above max."""
        for name in ("min_col", "max_col", "min_row", "max_row"):
            value = getattr(self, name)
            if not 0 <= value <= _LABEL_MAX:
                raise ValueError(f"HexGrid {name}={value!r} is not 0..{_LABEL_MAX}")
        if self.min_col > self.max_col:
            raise ValueError(f"HexGrid min_col={self.min_col} > max_col={self.max_col}")
        if self.min_row > self.max_row:
            raise ValueError(f"HexGrid min_row={self.min_row} > max_row={self.max_row}")

    # -- bounds and coordinates --------------------------------------------------------

    def contains(self, h: Hex) -> bool:
        """Whether the hex is on the map (inside the inclusive bounds)."""
        return self.min_col <= h.col <= self.max_col and self.min_row <= h.row <= self.max_row

    def _offset(self, col: int) -> int:
        """How many rows the column's half-hex shift adds, relative to cube z."""
        if self.parity is Parity.ODD_COLUMNS_DOWN:
            return (col - (col & 1)) // 2
        return (col + (col & 1)) // 2

    def to_cube(self, h: Hex) -> Cube:
        """The hex's cube coordinates `(x, y, z)`, `x + y + z == 0` (module docstring)."""
        x = h.col
        z = h.row - self._offset(h.col)
        return (x, -x - z, z)

    def from_cube(self, x: int, y: int, z: int) -> Hex:
        """The hex at cube coordinates `(x, y, z)`. Raises ValueError unless x + y + z == 0."""
        if x + y + z != 0:
            raise ValueError(f"cube coordinates ({x}, {y}, {z}) do not sum to 0")
        return Hex(col=x, row=z + self._offset(x))

    def _from_cube(self, c: Cube) -> Hex:
        return Hex(col=c[0], row=c[2] + self._offset(c[0]))

    # -- adjacency ---------------------------------------------------------------------

    def neighbour(self, h: Hex, direction: int) -> Hex:
        """The hex next to `h` in `direction` (0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW).

        Pure geometry: the result may be off the map (check with `contains`).
        Raises ValueError for a direction outside 0..5.
        """
        _check_direction(direction)
        return self._from_cube(_cube_add(self.to_cube(h), _DIRECTIONS[direction]))

    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        """The on-map hexes next to `h`, in direction order N, NE, SE, S, SW, NW.

        Six away from the map edge; fewer at it (off-map ones are left out, the order of
        the rest is kept).
        """
        c = self.to_cube(h)
        found = (self._from_cube(_cube_add(c, d)) for d in _DIRECTIONS)
        return tuple(n for n in found if self.contains(n))

    def direction_to(self, a: Hex, b: Hex) -> int | None:
        """The direction (0..5) from `a` to `b` if they are adjacent, else None."""
        ca, cb = self.to_cube(a), self.to_cube(b)
        delta = (cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2])
        for i, d in enumerate(_DIRECTIONS):
            if delta == d:
                return i
        return None

    def distance(self, a: Hex, b: Hex) -> int:
        """The number of hex steps from `a` to `b` (0 iff a == b)."""
        ca, cb = self.to_cube(a), self.to_cube(b)
        return max(abs(ca[0] - cb[0]), abs(ca[1] - cb[1]), abs(ca[2] - cb[2]))

    # -- areas -------------------------------------------------------------------------

    def ring(self, center: Hex, radius: int) -> tuple[Hex, ...]:
        """The on-map hexes at exactly `radius` steps from `center`, sorted.

        Radius 0 is the centre itself (if on the map). Raises ValueError if radius < 0.
        """
        if radius < 0:
            raise ValueError(f"ring radius {radius} is negative")
        c = self.to_cube(center)
        if radius == 0:
            return (center,) if self.contains(center) else ()
        out: list[Hex] = []
        cube = _cube_add(c, _DIRECTIONS[4], radius)  # start SW of centre, walk clockwise
        for side in range(6):
            for _ in range(radius):
                h = self._from_cube(cube)
                if self.contains(h):
                    out.append(h)
                cube = _cube_add(cube, _DIRECTIONS[side])
        return tuple(sorted(out))

    def within(self, center: Hex, radius: int) -> tuple[Hex, ...]:
        """The on-map hexes at most `radius` steps from `center` (centre included), sorted.

        Raises ValueError if radius < 0.
        """
        if radius < 0:
            raise ValueError(f"within radius {radius} is negative")
        cx, cy, cz = self.to_cube(center)
        out: list[Hex] = []
        for dx in range(-radius, radius + 1):
            for dy in range(max(-radius, -dx - radius), min(radius, -dx + radius) + 1):
                h = self._from_cube((cx + dx, cy + dy, cz - dx - dy))
                if self.contains(h):
                    out.append(h)
        return tuple(sorted(out))

    # -- lines -------------------------------------------------------------------------

    def _line_samples(self, a: Hex, b: Hex) -> list[tuple[Cube, Cube]]:
        """For each of the distance+1 evenly spaced points from a's centre to b's centre,
        the hex containing the point nudged by +_NUDGE and the one for -_NUDGE."""
        ca, cb = self.to_cube(a), self.to_cube(b)
        n = max(abs(ca[0] - cb[0]), abs(ca[1] - cb[1]), abs(ca[2] - cb[2]))
        if n == 0:
            return [(ca, ca)]
        dx, dy, dz = cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2]
        ex, ey, ez = _NUDGE
        samples: list[tuple[Cube, Cube]] = []
        for i in range(n + 1):
            # Integer numerator over n: exact whenever the true value is a binary fraction
            # (e.g. k + 0.5 on a hex side), so ties are exact before the nudge.
            px = ca[0] + (dx * i) / n
            py = ca[1] + (dy * i) / n
            pz = ca[2] + (dz * i) / n
            plus = _cube_round(px + ex, py + ey, pz + ez)
            minus = _cube_round(px - ex, py - ey, pz - ez)
            samples.append((plus, minus))
        return samples

    def line(self, a: Hex, b: Hex) -> tuple[Hex, ...]:
        """One hex per step of a straight line from a's centre to b's centre, a and b included.

        The result has `distance(a, b) + 1` hexes, each adjacent to the next. Where the
        line runs exactly along a hex side (or crosses one exactly at a sampled point) this
        picks one of the two hexes, always the same one; use `line_with_sides` to get both.
        """
        return tuple(self._from_cube(plus) for plus, _ in self._line_samples(a, b))

    def line_with_sides(self, a: Hex, b: Hex) -> tuple[tuple[Hex, ...], ...]:
        """For each step of the line from a's centre to b's centre, the hexes it is in.

        The line is sampled at `distance(a, b) + 1` evenly spaced points (cube lerp), and
        each point is rounded to a hex twice: nudged a tiny amount one way and the opposite
        way. Where the two roundings differ the point lies exactly on a hex side, and both
        hexes are given (sorted); elsewhere the step has the one hex.

        So a line that runs exactly along a hex side (between hexes an even number of steps
        apart along one of the six directions through hex corners, e.g. 0405 to 0605)
        gives both hexes of that side. A line that crosses a side exactly at a sampled point
        (it then really does pass through both hexes) gives both too. The first step is
        `(a,)`, the last `(b,)`; the result is the same, reversed, from b to a.

        Sampling is the usual hex-line technique, not an exact trace: from distance 7 on, a
        line can cut across the corner of a hex between two samples (e.g. 2.5% of its
        length) and that hex is not reported. `hexes_crossed` gives the exact set.
        """
        steps: list[tuple[Hex, ...]] = []
        for plus, minus in self._line_samples(a, b):
            if plus == minus:
                steps.append((self._from_cube(plus),))
            else:
                steps.append(tuple(sorted((self._from_cube(plus), self._from_cube(minus)))))
        return tuple(steps)

    def eligible_on_line(self, a: Hex, b: Hex) -> tuple[Hex, ...]:
        """Every hex `line_with_sides` gives, flattened: by step, then sorted within a step.

        Downtown solo rule 2.1.6: the hexes a line from the flight to the target passes
        through are eligible, both hexes where it runs along a hex side. Includes a and b.
        """
        out: list[Hex] = []
        for step in self.line_with_sides(a, b):
            for h in step:
                if h not in out:
                    out.append(h)
        return tuple(out)

    def hexes_crossed(self, a: Hex, b: Hex) -> tuple[Hex, ...]:
        """Exactly the hexes the segment from a's centre to b's centre passes through.

        A hex counts if the segment meets the closed hex in more than a single point: its
        inside, or along one of its sides (so both hexes of a side the line runs along
        count), but not a hex the line only touches at a corner. Ordered by where the line
        enters each hex, ties (the two hexes of a side) sorted. Exact rational arithmetic.

        This is a superset of `eligible_on_line`, equal to it for lines up to 6 hexes long;
        longer lines may also cut across hex corners between the sampled points.
        """
        ca, cb = self.to_cube(a), self.to_cube(b)
        delta = (cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2])
        # Every hex the segment meets is within one step of a sampled hex (samples are at
        # most one step apart and a hex is at most 2/3 from its centre in cube max-norm).
        candidates: set[Cube] = set()
        for plus, minus in self._line_samples(a, b):
            for c in (plus, minus):
                candidates.add(c)
                candidates.update(_cube_add(c, d) for d in _DIRECTIONS)
        entered: list[tuple[Fraction, Hex]] = []
        for c in candidates:
            span = _segment_in_hex(ca, delta, c)
            if span is not None and span[0] < span[1]:
                entered.append((span[0], self._from_cube(c)))
        entered.sort()
        return tuple(h for _, h in entered)

    # -- facing and arcs ---------------------------------------------------------------

    def facing_front(self, h: Hex, facing: int) -> Hex:
        """The hex directly in front of a counter in `h` facing `facing` (0..5, 0 N).

        That is the neighbour across the hex side the counter faces; it may be off the map.
        """
        return self.neighbour(h, facing)

    def in_front_arc(self, origin: Hex, facing: int, target: Hex) -> bool:
        """Whether `target` is in the 120° front arc of a counter in `origin` facing `facing`.

        Precisely: with `delta = cube(target) - cube(origin)` and `dir(k)` the unit step in
        direction k (module docstring), the target is in the front arc iff delta != 0 and

            delta == a*dir(facing-1) + b*dir(facing) + c*dir(facing+1)

        for some integers a, b, c >= 0 (directions mod 6). That is the wedge centred on
        the row of hexes straight ahead, bounded by the two rows of hexes leaving `origin`
        through the hex sides either side of the facing side. Those two boundary rows are
        IN the arc. The origin hex itself is in no arc. On each ring of radius r >= 1
        around `origin`, 2r+1 hexes are in the front arc.
        """
        _check_direction(facing)
        return self._in_arc(origin, facing, target)

    def in_rear_arc(self, origin: Hex, facing: int, target: Hex) -> bool:
        """Whether `target` is in the 120° rear arc: the front arc for the opposite facing.

        That is, `in_front_arc(origin, (facing + 3) % 6, target)`. Front and rear arcs never
        overlap; the two 60° flank wedges between them (boundary rows excluded) are in
        neither.
        """
        _check_direction(facing)
        return self._in_arc(origin, (facing + 3) % 6, target)

    def _in_arc(self, origin: Hex, facing: int, target: Hex) -> bool:
        co, ct = self.to_cube(origin), self.to_cube(target)
        delta = (ct[0] - co[0], ct[1] - co[1], ct[2] - co[2])
        if delta == (0, 0, 0):
            return False
        # The cone of dir(f-1), dir(f), dir(f+1) is the union of the cones of the two
        # neighbouring pairs (dir(f) = dir(f-1) + dir(f+1)).
        return _in_cone(delta, facing - 1) or _in_cone(delta, facing)
