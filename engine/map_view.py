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


class MapView(Struct, frozen=True, kw_only=True):
    """A ruleset's map as a role sees it now (built from that role's view only)."""

    grid: MapGrid
    features: tuple[MapFeature, ...] = ()
    pieces: tuple[MapPiece, ...] = ()


def drawn(board: Callable[[Any], MapView | None] | None, view: Any) -> dict[str, Any] | None:
    """The map of a role's view as JSON-ready data for a `state` frame (None: no map)."""
    if board is None:
        return None
    found = board(view)
    return None if found is None else msgspec.to_builtins(found)
