"""The board of a game: the validated map its procedures read (`board_of`), and the map
clients draw (engine/map_view.py), read from a role's view.

The game's map data (the setup's `map`, else the SYNTHETIC example map: mapdata.py):
its grid and parity, sea, airfields and ridgelines as terrain, raid targets, and the
barrage zones, downtown Hanoi/Haiphong, the China Buffer Zone and the US entry hexes as
zones; then the counters the view shows on the map now: US flights still on the map,
AAA concentrations, Fire Cans, SAMs not removed (3.2) and DRV flights.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import msgspec

from umpire.engine.map_view import MapFeature, MapGrid, MapPiece, MapView
from umpire.engine.rulesets.downtown.mapdata import Board, MapData, load_map
from umpire.engine.rulesets.downtown.synthetic_map import SYNTHETIC
from umpire.engine.rulesets.downtown.terms import SamStatus


@lru_cache(maxsize=16)
def board_of(data: MapData | None) -> Board:
    """The validated board of a setup's map (the synthetic test map when none is given);
    here, below both `decide` and `evolve` (an order's range is folded from the map)."""
    return load_map(data if data is not None else SYNTHETIC)


def _features(data: MapData) -> tuple[MapFeature, ...]:
    out: list[MapFeature] = []
    if data.sea:
        out.append(MapFeature(kind="terrain", label="sea", hexes=data.sea))
    out += [
        MapFeature(kind="terrain", label=f"airfield {a.name}{'' if a.open else ' (closed)'}",
                   hexes=(a.hex,))
        for a in data.airfields
    ]  # fmt: skip
    if data.ridgelines:
        out.append(MapFeature(kind="terrain", label="ridgeline", hexes=data.ridgelines))
    out += [MapFeature(kind="target", label=f"target {t.id}", hexes=(t.hex,)) for t in data.targets]
    out += [
        MapFeature(kind="zone", label=f"barrage zone {z.name} ({z.density.value})", hexes=z.hexes)
        for z in data.barrage_zones
    ]
    out += [
        MapFeature(kind="zone", label=f"downtown {d.city.title()}", hexes=d.hexes)
        for d in data.downtown
    ]
    if data.china_buffer:
        out.append(MapFeature(kind="zone", label="China Buffer Zone", hexes=data.china_buffer))
    out += [
        MapFeature(kind="zone", label=f"entry {e.id}", hexes=(e.hex,)) for e in data.entry_hexes
    ]
    return tuple(out)


def _pieces(view: Any) -> tuple[MapPiece, ...]:
    us = [
        MapPiece(
            id=f["id"],
            hex=f["hex"],
            side="player",
            note=f"US {f['altitude']}",
            facing=f.get("facing"),
            altitude=str(f["altitude"]),
        )
        for f in view["us"]
        if f["on_map"] and f["hex"]
    ]
    aaa = [
        MapPiece(id=a["id"], hex=a["hex"], side="opponent", note=f"AAA {a['density']}")
        for a in view["aaa"]
    ]
    cans = [MapPiece(id=c["id"], hex=c["hex"], side="opponent", note="Fire Can")
            for c in view["fire_cans"]]  # fmt: skip
    sams = [
        MapPiece(id=s["id"], hex=s["hex"], side="opponent", note=f"SAM {s['status']}")
        for s in view["sams"]
        if s["status"] != SamStatus.REMOVED.value
    ]
    drv = [
        MapPiece(
            id=f["id"],
            hex=f["hex"],
            side="opponent",
            note=f"DRV {f['altitude']}",
            facing=f.get("facing"),
            altitude=str(f["altitude"]),
        )
        for f in view["drv"]
        if f["hex"]
    ]
    return tuple(p for p in us + aaa + cans + sams + drv if p.hex)


def board(view: Any) -> MapView:
    """The map of a Downtown view."""
    raw = view["setup"].get("map")
    data = SYNTHETIC if raw is None else msgspec.convert(raw, MapData)
    grid = MapGrid(
        parity=data.parity,
        min_col=data.min_col,
        max_col=data.max_col,
        min_row=data.min_row,
        max_row=data.max_row,
    )
    return MapView(
        grid=grid, features=_features(data), pieces=_pieces(view), player_sides=("player",)
    )
