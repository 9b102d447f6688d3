"""The board: a triangular grid of points, six headings, steps, distances and arcs.

Base game (placeholder model; the seed gives no geometry). Aircraft stand on the points of a
triangular lattice laid out in horizontal rows; every odd row is shifted half a step to the
east. A point is `(col, row)`: row 0 is the north edge, col 0 the west edge. Each point has
six neighbours, one per heading, 60 degrees apart: E, NE, NW, W, SW, SE. A distance of 1 (the
seed's "1d") is one step between neighbouring points.

Internally points become axial coordinates (q, r); arcs are decided with exact integer
arithmetic on the cartesian vector (X, Y) = (2q + r, -r), whose true length squared is
(X*X + 3*Y*Y) / 4, so no floating point enters a decision.

Pure: no I/O, no randomness; every result is in a defined order.
"""

from __future__ import annotations

from enum import StrEnum

Point = tuple[int, int]


class Heading(StrEnum):
    """The six directions of the lattice, counter-clockwise from east (left turn = next)."""

    E = "E"
    NE = "NE"
    NW = "NW"
    W = "W"
    SW = "SW"
    SE = "SE"


HEADINGS: tuple[Heading, ...] = tuple(Heading)
_AXIAL_STEP: dict[Heading, tuple[int, int]] = {
    Heading.E: (1, 0),
    Heading.NE: (1, -1),
    Heading.NW: (0, -1),
    Heading.W: (-1, 0),
    Heading.SW: (-1, 1),
    Heading.SE: (0, 1),
}


def turn_left(h: Heading) -> Heading:
    """The heading 60 degrees to the left (counter-clockwise)."""
    return HEADINGS[(HEADINGS.index(h) + 1) % 6]


def turn_right(h: Heading) -> Heading:
    """The heading 60 degrees to the right (clockwise)."""
    return HEADINGS[(HEADINGS.index(h) - 1) % 6]


def reverse(h: Heading) -> Heading:
    """The opposite heading."""
    return HEADINGS[(HEADINGS.index(h) + 3) % 6]


def to_axial(p: Point) -> tuple[int, int]:
    """Axial (q, r) of an offset point (odd rows shifted east)."""
    col, row = p
    return col - (row - (row & 1)) // 2, row


def from_axial(q: int, r: int) -> Point:
    """The offset point of axial (q, r)."""
    return q + (r - (r & 1)) // 2, r


def step(p: Point, h: Heading, n: int = 1) -> Point:
    """The point `n` steps from `p` along heading `h`."""
    q, r = to_axial(p)
    dq, dr = _AXIAL_STEP[h]
    return from_axial(q + n * dq, r + n * dr)


def distance(a: Point, b: Point) -> int:
    """Steps between two points (the seed's "d")."""
    aq, ar = to_axial(a)
    bq, br = to_axial(b)
    dq, dr = bq - aq, br - ar
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _vector(a: Point, b: Point) -> tuple[int, int]:
    aq, ar = to_axial(a)
    bq, br = to_axial(b)
    dq, dr = bq - aq, br - ar
    return 2 * dq + dr, -dr


def _heading_vector(h: Heading) -> tuple[int, int]:
    dq, dr = _AXIAL_STEP[h]
    return 2 * dq + dr, -dr


def within_arc(origin: Point, facing: Heading, other: Point, arc_degrees: int) -> bool:
    """Whether `other` lies in the arc of `arc_degrees` (60 or 120, inclusive) centred on
    `facing` from `origin`. A point on `origin` itself is in no arc."""
    vx, vy = _vector(origin, other)
    if vx == 0 and vy == 0:
        return False
    hx, hy = _heading_vector(facing)
    dot = hx * vx + 3 * hy * vy  # 4 * |h| * |v| * cos(angle); |h|^2 = 1
    norm2 = vx * vx + 3 * vy * vy  # 4 * |v|^2
    if dot <= 0:
        return False
    # cos(angle)^2 >= cos(arc/2)^2 with dot^2 = 4 * norm2 * cos^2 (both scaled by 4).
    if arc_degrees == 60:
        return 4 * dot * dot >= 3 * 4 * norm2
    if arc_degrees == 120:
        return 4 * dot * dot >= 4 * norm2
    raise ValueError(f"arcs of 60 or 120 degrees only, not {arc_degrees}")


def in_front(origin: Point, facing: Heading, other: Point, arc_degrees: int) -> bool:
    """`other` is in the front arc of an aircraft at `origin` facing `facing`."""
    return within_arc(origin, facing, other, arc_degrees)


def behind(origin: Point, facing: Heading, other: Point, arc_degrees: int) -> bool:
    """`other` is in the rear arc of an aircraft at `origin` facing `facing`."""
    return within_arc(origin, reverse(facing), other, arc_degrees)


class Board:
    """A rectangle of points: columns 0..width-1, rows 0..height-1."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height

    def contains(self, p: Point) -> bool:
        """Whether a point is on the board."""
        return 0 <= p[0] < self.width and 0 <= p[1] < self.height

    def on_edge(self, p: Point, edge: str) -> bool:
        """Whether a point lies on the named edge (north, south, west, east)."""
        col, row = p
        return {
            "north": row == 0,
            "south": row == self.height - 1,
            "west": col == 0,
            "east": col == self.width - 1,
        }[edge]

    def distance_to_edge(self, p: Point, edge: str) -> int:
        """Steps from a point to the last row or column on the named edge."""
        col, row = p
        return {
            "north": row,
            "south": self.height - 1 - row,
            "west": col,
            "east": self.width - 1 - col,
        }[edge]
