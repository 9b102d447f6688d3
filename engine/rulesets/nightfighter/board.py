"""The map clients draw (engine/map_view.py), read from a role's view.

S3.0: the player's large map, with the EVEN columns drawn half a hex lower (geometry.py,
fixed by the example of play); the searchlight zones (S14.0) drawn as zones; the bomber
counters that are on the map now (a counter removed as a phantom, S5.4, or gone off the
map, S7.0, is not drawn) and the nightfighters still on the map at their current hex (the
setup's starting hex is not a piece), with their facing (engine/hexgrid.py directions).
"""

from __future__ import annotations

from typing import Any

from umpire.engine.hexgrid import DIRECTION_NAMES, Parity
from umpire.engine.map_view import MapFeature, MapGrid, MapPiece, MapView
from umpire.engine.rulesets.nightfighter.terms import Status


def board(view: Any) -> MapView:
    """The map of a nightfighter view (player, spectator or referee)."""
    setup = view["setup"]
    zones = tuple(
        MapFeature(kind="zone", label=f"searchlight zone {z['name']}", hexes=tuple(z["hexes"]))
        for z in setup["zones"]
    )
    counters = tuple(
        MapPiece(id=c["id"], hex=c["hex"], side="bomber", note=f"{c['level']} uncertainty")
        for c in view["counters"]
        if c["status"] == Status.ON_MAP.value and c["hex"]
    )
    fighters = tuple(
        MapPiece(
            id=f["id"],
            hex=f["hex"],
            side="fighter",
            note=f"facing {DIRECTION_NAMES[f['facing']]}",
            facing=f["facing"],
        )
        for f in view["fighters"]
        if f["hex"]
    )
    grid = MapGrid(
        parity=Parity.EVEN_COLUMNS_DOWN,
        min_col=setup["min_col"],
        max_col=setup["max_col"],
        min_row=setup["min_row"],
        max_row=setup["max_row"],
    )
    return MapView(grid=grid, features=zones, pieces=counters + fighters, player_sides=("fighter",))
