"""A small SYNTHETIC map for tests and examples. NOT THE PUBLISHED DOWNTOWN MAP.

Made up to exercise every part of the map-data format: its bounds (01-40 x 01-50) cover
the hex numbers of the printed SAM Deployment Tables so those lists can be used on it; the
sea, cities, airfields and zones are invented and bear no relation to the real map.
"""

from __future__ import annotations

from umpire.engine.hexgrid import Parity
from umpire.engine.rulesets.downtown.mapdata import (
    Airfield,
    BarrageZone,
    Downtown,
    EntryHex,
    MapData,
    Target,
)
from umpire.engine.rulesets.downtown.terms import Density


def _box(c1: int, c2: int, r1: int, r2: int) -> tuple[str, ...]:
    return tuple(f"{c:02d}{r:02d}" for c in range(c1, c2 + 1) for r in range(r1, r2 + 1))


SYNTHETIC = MapData(
    name="synthetic test map (NOT the published Downtown map)",
    synthetic=True,
    note="Invented geography for tests; do not use for play.",
    parity=Parity.ODD_COLUMNS_DOWN,
    min_col=1,
    max_col=40,
    min_row=1,
    max_row=50,
    sea=_box(36, 40, 1, 50) + _box(33, 35, 35, 50),
    airfields=(
        Airfield(name="Field North", hex="1918", open=True),
        Airfield(name="Field Kep", hex="2512", open=True, aircraft="MiG17F"),
        Airfield(name="Field South", hex="2125", open=False),
    ),
    orbit_points=("1510", "2808"),
    barrage_zones=(
        BarrageZone(
            name="Hanoi",
            density=Density.HEAVY,
            hexes=("2021", "2022", "2023", "1921", "1922", "2121", "2122"),
        ),
        BarrageZone(name="Yard", density=Density.MEDIUM, hexes=("2316", "2315", "2317")),
        BarrageZone(name="Port", density=Density.LIGHT, hexes=("2727", "2726", "2728")),
    ),
    printed_aaa=("2022",),
    ridgelines=_box(10, 10, 5, 15),
    china_buffer=_box(1, 35, 1, 2),
    downtown=(
        Downtown(city="hanoi", hexes=("2022", "2021", "2122")),
        Downtown(city="haiphong", hexes=("2727",)),
    ),
    targets=(
        Target(id="bridge", hex="2021", city="hanoi"),
        Target(id="yard", hex="2316"),
    ),
    entry_hexes=(EntryHex(id="west", hex="0520"), EntryHex(id="north", hex="2003")),
)
