"""Map geometry for the solitaire rules: uncertainty areas and the areas each search covers.

The Nightfighter map has vertical hex columns with the EVEN columns drawn half a hex lower:
the example of play fixes it (turn 4: from 1107 facing 1006 the AI search runs on to 0906;
turn 7: from 0712 facing 0812 it runs on to 0913).
"""

from __future__ import annotations

from umpire.engine.hexgrid import DIRECTION_NAMES, Hex, HexGrid, Parity
from umpire.engine.rulesets.nightfighter.setup import Setup
from umpire.engine.rulesets.nightfighter.state import Counter, FighterState
from umpire.engine.rulesets.nightfighter.tables.localisation import (
    LOW,
    MODERATE,
    Axial,
    Cell,
    Diagram,
    offset_for_heading,
)
from umpire.engine.rulesets.nightfighter.terms import Arc, Uncertainty, Visibility


def grid_of(setup: Setup) -> HexGrid:
    """The scenario's map (S3.0: the large player's map only)."""
    return HexGrid(
        parity=Parity.EVEN_COLUMNS_DOWN,
        min_col=setup.min_col,
        max_col=setup.max_col,
        min_row=setup.min_row,
        max_row=setup.max_row,
    )


def facing_said(setup: Setup, hex_label: str, facing: int) -> str:
    """A facing as the player reads it on the map: its compass point and, as the example
    of play names one ("facing hex 0812"), the hex it faces when that is on the map."""
    point = DIRECTION_NAMES[facing]
    ahead = grid_of(setup).neighbour(Hex.parse(hex_label), facing) if hex_label else None
    if ahead is None or not grid_of(setup).contains(ahead):
        return point
    return f"{point}, towards {ahead.label}"


def off_grid(setup: Setup) -> HexGrid:
    """The same geometry without bounds, for hexes just off the map edge."""
    return HexGrid(parity=Parity.EVEN_COLUMNS_DOWN, min_col=0, max_col=99, min_row=0, max_row=99)


def shifted(setup: Setup, origin: Hex, offset: Axial, heading: int) -> Hex:
    """The hex at a diagram offset from `origin` for a bomber with `heading`."""
    grid = off_grid(setup)
    q, r = offset_for_heading(offset, heading)
    x, y, z = grid.to_cube(origin)
    return grid.from_cube(x + q, y - q - r, z + r)


def diagram_for(level: Uncertainty, contrails: bool) -> Diagram | None:
    """S5.2-S5.4, S21.0: the diagram a counter's location is rolled on (None: no uncertainty).

    High uncertainty counters are treated as moderate (S5.4), or as low under contrails
    (S21.0: 'there is no moderate uncertainty').
    """
    if level is Uncertainty.NONE:
        return None
    if level is Uncertainty.LOW or contrails:
        return LOW
    return MODERATE


def area_cells(setup: Setup, counter: Counter) -> tuple[tuple[Cell, str], ...]:
    """Each cell of the counter's uncertainty area with its hex label ('' if off the map)."""
    diagram = diagram_for(counter.level, setup.contrails)
    if diagram is None or not counter.hex:
        return ()
    grid = grid_of(setup)
    out = []
    for cell in diagram.cells:
        h = shifted(setup, Hex.parse(counter.hex), cell.offset, counter.heading)
        out.append((cell, h.label if grid.contains(h) else ""))
    return tuple(out)


def area(setup: Setup, counter: Counter) -> tuple[str, ...]:
    """S5.0: the on-map hexes the bomber may be in (its own hex when there is no doubt)."""
    if not counter.hex:
        return ()
    if counter.level is Uncertainty.NONE:
        return (counter.hex,)
    return tuple(sorted({label for _, label in area_cells(setup, counter) if label}))


def ai_search_area(setup: Setup, fighter: FighterState, range_: int, arc: Arc) -> tuple[str, ...]:
    """S19.0: the hexes an AI radar covers: the fighter's own hex and, up to its range,
    the row straight ahead (narrow arc) or the 120° front arc (wide arc)."""
    if not fighter.hex or range_ <= 0:
        return ()
    grid = grid_of(setup)
    here = Hex.parse(fighter.hex)
    hexes = {here}
    if arc is Arc.NARROW:
        h = here
        for _ in range(range_):
            h = grid.neighbour(h, fighter.facing)
            hexes.add(h)
    else:
        hexes.update(
            h for h in grid.within(here, range_) if grid.in_front_arc(here, fighter.facing, h)
        )
    return tuple(sorted(h.label for h in hexes if grid.contains(h)))


def in_wide_arc(setup: Setup, fighter: FighterState, target: str) -> bool:
    """S24.0 Flensburg: whether a hex is in the fighter's wide arc, at any range."""
    if not fighter.hex:
        return False
    grid = grid_of(setup)
    here, there = Hex.parse(fighter.hex), Hex.parse(target)
    return here == there or grid.in_front_arc(here, fighter.facing, there)


def tally_range(setup: Setup, fighter: FighterState, illuminated: bool) -> tuple[str, ...]:
    """S3.0, S10.0: the hexes a basic tally covers.

    Good visibility: the fighter's own hex and the single hex directly in front (S3.0),
    or all six adjacent hexes in illuminated cloud. Moderate or poor visibility: the
    fighter's own hex only (base game: range 0).
    """
    if not fighter.hex:
        return ()
    grid = grid_of(setup)
    here = Hex.parse(fighter.hex)
    hexes = {here}
    if setup.visibility is Visibility.GOOD or illuminated:
        if illuminated:
            hexes.update(grid.neighbours(here))
        else:
            hexes.add(grid.neighbour(here, fighter.facing))
    return tuple(sorted(h.label for h in hexes if grid.contains(h)))


def distance(setup: Setup, a: str, b: str) -> int:
    """Hexes between two labels."""
    return off_grid(setup).distance(Hex.parse(a), Hex.parse(b))
