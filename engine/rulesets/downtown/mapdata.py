"""The Downtown map as scenario data: a documented format, validated on load.

The solo rules read the map for land and sea, airfields (open or closed, and the one
aircraft type some allow), orbit and rally points, AAA barrage zones and their densities,
printed AAA concentrations, ridgelines, the China Buffer Zone, downtown Hanoi and Haiphong,
raid targets and US entry hexes. The published map is not part of the seed, so a game's
setup carries a `MapData` (README "Map data format"); `synthetic_map.SYNTHETIC` is a small
made-up map for tests and examples, NOT the published map.

Every hex is a 4-digit CCRR label. `load_map` checks labels, bounds, duplicates and
references and returns a `Board` with the hex grid and quick lookups.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from umpire.engine.errors import InvalidSetup, RuleError
from umpire.engine.hexgrid import Hex, HexGrid, Parity
from umpire.engine.rulesets.downtown.terms import Density, cite

Label = Annotated[str, Meta(pattern=r"^\d{4}$")]
# Bounds (issue 32): a list of hexes holds at most every hex of the largest map the format
# allows (columns and rows 0-99); named features (airfields, zones, targets, entry arrows) at
# most MAP_FEATURES, more than any printed map shows; names and notes are short text.
MAP_HEXES = 100 * 100
MAP_FEATURES = 200
Hexes = Annotated[tuple[Label, ...], Meta(max_length=MAP_HEXES)]
# A barrage zone or a downtown area covers a few hexes of the map: at most 400 (20 x 20).
ZoneHexes = Annotated[tuple[Label, ...], Meta(max_length=400)]
Name = Annotated[str, Meta(max_length=80)]
MAP_RULE = cite("map data (scenario data; README 'Map data format')")


class Airfield(Struct, frozen=True, kw_only=True):
    """An airfield: its hex, whether it is open, and the only aircraft type it allows ('' any)."""

    name: Name
    hex: Label
    open: bool = True
    aircraft: Name = ""


class BarrageZone(Struct, frozen=True, kw_only=True):
    """A printed AAA barrage zone: its hexes and density."""

    name: Name
    density: Density
    hexes: ZoneHexes


class Downtown(Struct, frozen=True, kw_only=True):
    """Downtown Hanoi or Haiphong: the hexes that count as 'downtown'."""

    city: Annotated[str, Meta(pattern=r"^(hanoi|haiphong)$")]
    hexes: ZoneHexes


class Target(Struct, frozen=True, kw_only=True):
    """A raid target: id, hex, and the city it is in ('' if neither Hanoi nor Haiphong)."""

    id: Annotated[str, Meta(min_length=1, max_length=40)]
    hex: Label
    city: Annotated[str, Meta(pattern=r"^(hanoi|haiphong|)$")] = ""


class EntryHex(Struct, frozen=True, kw_only=True):
    """A US entry arrow's hex."""

    id: Annotated[str, Meta(min_length=1, max_length=40)]
    hex: Label


class MapData(Struct, frozen=True, kw_only=True):
    """The map-data format (README 'Map data format'). Hexes not listed as sea are land."""

    name: Name
    synthetic: bool
    note: Annotated[str, Meta(max_length=1000)] = ""
    parity: Parity = Parity.ODD_COLUMNS_DOWN
    min_col: Annotated[int, Meta(ge=0, le=99)] = 1
    max_col: Annotated[int, Meta(ge=0, le=99)] = 40
    min_row: Annotated[int, Meta(ge=0, le=99)] = 1
    max_row: Annotated[int, Meta(ge=0, le=99)] = 50
    sea: Hexes = ()
    airfields: Annotated[tuple[Airfield, ...], Meta(max_length=MAP_FEATURES)] = ()
    orbit_points: Hexes = ()
    rally_points: Hexes = ()
    barrage_zones: Annotated[tuple[BarrageZone, ...], Meta(max_length=MAP_FEATURES)] = ()
    printed_aaa: Hexes = ()
    ridgelines: Hexes = ()
    china_buffer: Hexes = ()
    downtown: Annotated[tuple[Downtown, ...], Meta(max_length=2)] = ()
    targets: Annotated[tuple[Target, ...], Meta(max_length=MAP_FEATURES)] = ()
    entry_hexes: Annotated[tuple[EntryHex, ...], Meta(max_length=MAP_FEATURES)] = ()
    sam_prohibited: Hexes = ()


class Board:
    """A validated map: the grid and lookups the procedures read. Built by `load_map`."""

    def __init__(self, data: MapData) -> None:
        self.data = data
        self.grid = HexGrid(
            parity=data.parity,
            min_col=data.min_col,
            max_col=data.max_col,
            min_row=data.min_row,
            max_row=data.max_row,
        )
        self.sea = frozenset(data.sea)
        self.buffer = frozenset(data.china_buffer)
        self.prohibited = frozenset(data.sam_prohibited)
        self.targets = {t.id: t for t in data.targets}
        self.entries = {e.id: e for e in data.entry_hexes}
        self.downtown_hexes: tuple[str, ...] = tuple(
            sorted({h for d in data.downtown for h in d.hexes})
        )

    def hex(self, label: str, *, rule: str = MAP_RULE) -> Hex:
        """The hex of a label on this map, or RuleError naming `rule`."""
        try:
            h = Hex.parse(label)
        except ValueError as exc:
            raise RuleError(f"hex {label!r} is not a CCRR label", rule=rule) from exc
        if not self.grid.contains(h):
            raise RuleError(
                f"hex {label} is off the map {self.data.name!r} "
                f"(columns {self.data.min_col}-{self.data.max_col}, "
                f"rows {self.data.min_row}-{self.data.max_row})",
                rule=rule,
            )
        return h

    def dist(self, a: str, b: str) -> int:
        """Hex distance between two labels."""
        return self.grid.distance(Hex.parse(a), Hex.parse(b))

    def dist_to_downtown(self, a: str) -> int:
        """Distance to the nearest downtown Hanoi/Haiphong hex (a large number if none)."""
        return min((self.dist(a, d) for d in self.downtown_hexes), default=999)

    def is_land(self, a: str) -> bool:
        """Not a sea hex."""
        return a not in self.sea

    def sam_allowed(self, a: str) -> bool:
        """3.1.1 'allowed hexes as per the Downtown rules': on the map, land, not in the China
        Buffer Zone, not listed as prohibited (README)."""
        return (
            self.grid.contains(Hex.parse(a))
            and a not in self.sea
            and a not in self.buffer
            and a not in self.prohibited
        )

    def barrage_density(self, a: str) -> str:
        """The densest printed barrage zone over a hex ('none' if none): L, M or H."""
        order = {"none": 0, "L": 1, "M": 2, "H": 3}
        best = "none"
        for zone in self.data.barrage_zones:
            if a in zone.hexes and order[zone.density.value] > order[best]:
                best = zone.density.value
        return best

    def in_barrage(self, a: str) -> bool:
        """Whether any printed barrage zone covers the hex."""
        return self.barrage_density(a) != "none"

    def rally_points(self) -> tuple[str, ...]:
        """5.9.1 rally points: those listed, else orbit points and open airfields."""
        if self.data.rally_points:
            return tuple(sorted(self.data.rally_points))
        opened = [a.hex for a in self.data.airfields if a.open]
        return tuple(sorted(set(self.data.orbit_points) | set(opened)))

    def edge_distance(self, a: str) -> int:
        """Hexes from the nearest map edge (0 on the edge)."""
        h = Hex.parse(a)
        d = self.data
        return min(h.col - d.min_col, d.max_col - h.col, h.row - d.min_row, d.max_row - h.row)


def load_map(data: MapData) -> Board:
    """Validate a map and return its Board. Raises InvalidSetup naming the bad entry."""
    if data.min_col > data.max_col or data.min_row > data.max_row:
        raise InvalidSetup(f"map {data.name!r}: min bound above max bound")
    board = Board(data)

    def check(label: str, what: str) -> None:
        h = Hex.parse(label)
        if not board.grid.contains(h):
            raise InvalidSetup(f"map {data.name!r}: {what} hex {label} is outside the map bounds")

    lists: list[tuple[str, tuple[str, ...]]] = [
        ("sea", data.sea),
        ("orbit point", data.orbit_points),
        ("rally point", data.rally_points),
        ("printed AAA", data.printed_aaa),
        ("ridgeline", data.ridgelines),
        ("China Buffer Zone", data.china_buffer),
        ("SAM-prohibited", data.sam_prohibited),
    ]
    lists += [(f"barrage zone {z.name}", z.hexes) for z in data.barrage_zones]
    lists += [(f"downtown {d.city}", d.hexes) for d in data.downtown]
    lists.append(("airfield", tuple(a.hex for a in data.airfields)))
    lists.append(("target", tuple(t.hex for t in data.targets)))
    lists.append(("entry", tuple(e.hex for e in data.entry_hexes)))
    for what, labels in lists:
        if len(set(labels)) != len(labels):
            raise InvalidSetup(f"map {data.name!r}: {what} list repeats a hex")
        for label in labels:
            check(label, what)
    for what, items in (("target", data.targets), ("entry hex", data.entry_hexes)):
        ids = [i.id for i in items]
        if len(set(ids)) != len(ids):
            raise InvalidSetup(f"map {data.name!r}: {what} ids repeat")
    for t in data.targets:
        if t.hex in board.sea:
            raise InvalidSetup(f"map {data.name!r}: target {t.id} is on a sea hex")
    if not data.targets or not data.entry_hexes:
        raise InvalidSetup(f"map {data.name!r}: needs at least one target and one entry hex")
    if not data.downtown:
        raise InvalidSetup(f"map {data.name!r}: needs downtown Hanoi and/or Haiphong hexes")
    return board
