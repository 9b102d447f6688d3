"""S5.2/S5.3 location rolls, with the re-rolls of S5.5 (exclusions) and S7.0 (occupied hexes)."""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.dice import coloured, d6
from umpire.engine.rulesets.nightfighter.geometry import area_cells, diagram_for
from umpire.engine.rulesets.nightfighter.state import Counter, State, counter_at
from umpire.engine.rulesets.nightfighter.tables.localisation import LOW, low_cell, moderate_cell
from umpire.engine.rulesets.nightfighter.terms import cite
from umpire.engine.rulesets.nightfighter.turn import NightfighterTurn
from umpire.events.types import Owner

RULE_LOW = cite("S5.2")
RULE_MODERATE = cite("S5.3")


class Location(Struct, frozen=True, kw_only=True):
    """The outcome of a location roll: the roll numbers (each roll emitted), the cell and
    hex ('' = off the map)."""

    roll_numbers: tuple[int, ...]
    cell: str
    hex: str
    rerolled: tuple[str, ...]


def blocked(state: State, counter: Counter, hex_label: str) -> str:
    """Why a rolled hex must be re-rolled ('' if it stands): S5.5 an earlier fruitless
    search area of that bomber this turn; S7.0 a hex holding another bomber counter."""
    if not hex_label:
        return ""
    if hex_label in state.excluded.get(counter.bomber, ()):
        return f"{hex_label} was in an earlier fruitless search this turn (S5.5)"
    other = counter_at(state, hex_label)
    if other is not None and other.id != counter.id:
        return f"{hex_label} holds another bomber counter {other.id} (S7.0)"
    return ""


def roll_location(turn: NightfighterTurn, state: State, counter: Counter, purpose: str) -> Location:
    """Roll for the bomber's precise hex within its uncertainty area.

    Low uncertainty rolls one die (S5.2), moderate and high a blue and a purple die
    (S5.3, S5.4); re-rolled as often as needed while the hex is barred (S5.5, S7.0). A
    cell off the map is not re-rolled: the bomber may no longer be located there (S7.0).
    The rolls are hidden (each emitted through `turn` as it is made): a failed search tells
    the player only that it failed. Every re-roll reads `state`, the search's.
    If every cell is barred, no roll is made and the location fails (cell '').
    """
    diagram = diagram_for(counter.level, state.setup.contrails)
    if diagram is None:
        return Location(roll_numbers=(), cell="", hex=counter.hex, rerolled=())
    cells = area_cells(state.setup, counter)
    if all(blocked(state, counter, h) for _, h in cells if h) and all(h for _, h in cells):
        return Location(roll_numbers=(), cell="", hex="", rerolled=())
    rolls = []
    rerolled = []
    by_label = {cell.label: h for cell, h in cells}
    while True:
        if diagram is LOW:
            roll = turn.roll(d6(), purpose, RULE_LOW, hidden=True, owner=Owner.OPPONENT)
            cell = low_cell(roll.faces[0])
        else:
            roll = turn.roll(
                coloured(blue=6, purple=6),
                purpose,
                RULE_MODERATE,
                hidden=True,
                owner=Owner.OPPONENT,
            )
            cell = moderate_cell(roll.faces[0], roll.faces[1])
        rolls.append(roll)
        hex_label = by_label[cell.label]
        why = blocked(state, counter, hex_label)
        if not why:
            break
        rerolled.append(f"{cell.label}: {why}")
    return Location(
        roll_numbers=tuple(r.roll for r in rolls),
        cell=cell.label,
        hex=hex_label,
        rerolled=tuple(rerolled),
    )
