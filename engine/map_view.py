"""The map a ruleset declares for clients: its hex grid, what is drawn on it, and what is
on it now.

A ruleset's `board` (engine/ruleset.py) turns a role's VIEW (the data `view(state, role)`
returned, as JSON-ready builtins) into a `MapView`. It reads nothing but that view, so the
map can never show a role more than the view already does. The browser draws exactly
this: the grid's layout and which columns are shifted come from here (never guessed in
JavaScript), and only the pieces listed are drawn (a removed phantom or a fighter's setup
hex is simply not listed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import msgspec
from msgspec import Struct

from umpire.engine.hexgrid import Parity

Layout = Literal["flat"]  # flat-topped hexes in vertical columns (engine/hexgrid.py)


class MapGrid(Struct, frozen=True, kw_only=True):
    """The printed grid: hex layout, which columns sit half a hex lower (`parity`, as in
    engine/hexgrid.py `Parity`), and the inclusive CCRR bounds of the map."""

    layout: Layout = "flat"
    parity: Parity
    min_col: int
    max_col: int
    min_row: int
    max_row: int


class MapFeature(Struct, frozen=True, kw_only=True):
    """Something printed or placed on the map that is not a piece: terrain, a target or
    objective, or a zone (a searchlight zone, a barrage zone), over one or more hexes."""

    kind: Literal["terrain", "target", "zone"]
    label: str
    hexes: tuple[str, ...]


class MapPiece(Struct, frozen=True, kw_only=True):
    """One counter on the map now: its id as the player knows it, its hex, its side
    (`player`, `opponent`, or a ruleset's own word) and a short note (a level, a facing)."""

    id: str
    hex: str
    side: str = ""
    note: str = ""
    # The hex side it faces (engine/hexgrid.py directions: 0 N, then clockwise), if any.
    facing: int | None = None
    # Its altitude in the ruleset's own words ("high", "L3"), if it has one.
    altitude: str = ""


class MapView(Struct, frozen=True, kw_only=True):
    """A ruleset's map as a role sees it now (built from that role's view only)."""

    grid: MapGrid
    features: tuple[MapFeature, ...] = ()
    pieces: tuple[MapPiece, ...] = ()
    # The piece sides that are the player's (drawn in the player's colour; the others are
    # the opponent's, whose last move the page highlights).
    player_sides: tuple[str, ...] = ()


class DiagramBand(Struct, frozen=True, kw_only=True):
    """One altitude band of a diagram: the levels `low`..`high` (inclusive) and its name."""

    low: int
    high: int
    label: str


class DiagramField(Struct, frozen=True, kw_only=True):
    """A top-down field of points (Age of Dogfights' triangular lattice): `width` columns
    by `height` rows, point (col, row) with row 0 at the north edge and every odd row
    shifted half a step east."""

    width: int
    height: int


class DiagramZone(Struct, frozen=True, kw_only=True):
    """A marked area of the field: its centre point and radius in steps."""

    label: str
    point: tuple[int, int]
    radius: int = 0


class DiagramAircraft(Struct, frozen=True, kw_only=True):
    """One aircraft of the engagement: its side, altitude level (None: not known or not
    flying), lane (the column of the band chart: a side or an element), its point on the
    field (if the diagram has one), its heading in degrees clockwise from north, and its
    state in a few words ("damaged", "hand 6", "nose up")."""

    id: str
    side: str
    lane: str
    level: int | None = None
    label: str = ""
    point: tuple[int, int] | None = None
    heading: int | None = None
    state: tuple[str, ...] = ()
    out: bool = False


class DiagramLink(Struct, frozen=True, kw_only=True):
    """A position between two aircraft (attacker `source` to `target`), named."""

    source: str
    target: str
    label: str


class Diagram(Struct, frozen=True, kw_only=True):
    """A ruleset's engagement diagram as a role sees it now (built from its view only)."""

    kind: Literal["diagram"] = "diagram"
    title: str
    bands: tuple[DiagramBand, ...]
    lanes: tuple[str, ...]
    aircraft: tuple[DiagramAircraft, ...] = ()
    links: tuple[DiagramLink, ...] = ()
    field: DiagramField | None = None
    zones: tuple[DiagramZone, ...] = ()
    player_sides: tuple[str, ...] = ()


Board = MapView | Diagram


def drawn(board: Callable[[Any], Board | None] | None, view: Any) -> dict[str, Any] | None:
    """The map or diagram of a role's view as JSON-ready data for a `state` frame (None:
    none declared)."""
    if board is None:
        return None
    found = board(view)
    return None if found is None else msgspec.to_builtins(found)
