"""The map clients draw (engine/map_view.py), read from a role's view.

The scenario's own grid (its parity and bounds, `rules.grid`), its terrain and objectives,
and the counters in play now: a destroyed counter (7.3) or a reinforcement not yet on the
map is not drawn.
"""

from __future__ import annotations

from typing import Any

from umpire.engine.hexgrid import DIRECTION_NAMES, Parity
from umpire.engine.map_view import MapFeature, MapGrid, MapPiece, MapView


def _terrain_label(t: dict[str, Any]) -> str:
    words = [t["name"] or "terrain", f"DM {t['dm']}"]
    if t["impassable"]:
        words.append("impassable")
    if t["blocks_los"]:
        words.append("blocks LOS")
    return ", ".join(words)


def board(view: Any) -> MapView:
    """The map of a Conflict of Heroes view (every role sees the same)."""
    g = view["rules"]["grid"]
    grid = MapGrid(
        parity=Parity(g["parity"]),
        min_col=g["min_col"],
        max_col=g["max_col"],
        min_row=g["min_row"],
        max_row=g["max_row"],
    )
    features = tuple(
        MapFeature(kind="terrain", label=_terrain_label(t), hexes=(t["hex"],))
        for t in view["terrain"]
    ) + tuple(
        MapFeature(kind="target", label=f"objective {o['id']}", hexes=(o["hex"],))
        for o in view["objectives"]
    )
    pieces = tuple(
        MapPiece(
            id=u["id"],
            hex=u["hex"],
            side=u["side"],
            note=f"facing {DIRECTION_NAMES[u['facing']]}",
            facing=u["facing"],
        )
        for u in view["units"]
        if u.get("in_play", True) and not u.get("destroyed", False)
    )
    return MapView(grid=grid, features=features, pieces=pieces, player_sides=("player",))
