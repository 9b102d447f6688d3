"""The map as the solo rules read it: distances, terrain DM, line of sight, arcs, fire zones
and close combat.

Seed 003_368c69a730e6e14a.txt 5.0-5.3.1 rely on base-game notions the seed does not define;
here they are computed from the scenario's data (README "Interpretations"):

- distance: hexes on the map grid (engine/hexgrid.py);
- line of sight: clear unless a hex strictly between the two hexes on the hex line
  (`HexGrid.line`) blocks LOS in the terrain data;
- front arc: `HexGrid.in_front_arc` for the counter's facing (a turreted vehicle fires
  all round, 5.3.1);
- Fire Zone of a Unit: the hexes within its normal range, in its arc of fire and in its LOS
  (the counter's own hex included); Short Range Fire Zone: the part within `short_range`;
- close combat: a hex holding counters of both sides.
"""

from __future__ import annotations

from msgspec import UNSET
from msgspec.structs import replace

from umpire.engine.hexgrid import Hex
from umpire.engine.rulesets.conflict_of_heroes.scenario import ObjectiveSpec, TerrainSpec
from umpire.engine.rulesets.conflict_of_heroes.state import State, Unit
from umpire.engine.rulesets.conflict_of_heroes.terms import Side

CLEAR = TerrainSpec(hex="0000")


def hex_of(label: str) -> Hex:
    """The Hex of a CCRR label."""
    return Hex.parse(label)


def distance(state: State, a: str, b: str) -> int:
    """Hexes from a to b."""
    return state.rules.grid.distance(hex_of(a), hex_of(b))


def terrain(state: State, label: str) -> TerrainSpec:
    """The terrain of a hex (clear when the scenario lists nothing for it)."""
    for t in state.terrain:
        if t.hex == label:
            return t
    return CLEAR


def dm(state: State, label: str) -> int:
    """The defense modifier (DM) of a hex."""
    return terrain(state, label).dm


def on_map(state: State, label: str) -> bool:
    """Whether the hex is inside the map's bounds."""
    return state.rules.grid.contains(hex_of(label))


def active(state: State, side: Side | None = None) -> list[Unit]:
    """Counters in play and not destroyed (of one side), in id order."""
    return sorted(
        (
            u
            for u in state.units
            if u.in_play and not u.destroyed and (side is None or u.side is side)
        ),
        key=lambda u: u.id,
    )


def enemies_of(state: State, unit: Unit) -> list[Unit]:
    """The other side's active counters."""
    other = Side.PLAYER if unit.side is Side.AI else Side.AI
    return active(state, other)


def los(state: State, a: str, b: str) -> bool:
    """Line of sight from a to b: no LOS-blocking hex strictly between them."""
    line = state.rules.grid.line(hex_of(a), hex_of(b))
    return not any(terrain(state, h.label).blocks_los for h in line[1:-1])


def in_front_arc(state: State, unit: Unit, label: str) -> bool:
    """Whether a hex is in the counter's front arc (its own hex is not)."""
    return state.rules.grid.in_front_arc(hex_of(unit.hex), unit.facing, hex_of(label))


def can_fire_into(state: State, unit: Unit, label: str) -> bool:
    """Arc of fire: the front arc, all round for a turreted vehicle, and its own hex."""
    return label == unit.hex or unit.turreted or in_front_arc(state, unit, label)


def in_fire_zone(state: State, unit: Unit, label: str, reach: int) -> bool:
    """Whether `label` is in `unit`'s Fire Zone out to `reach` hexes (range, arc, LOS)."""
    return (
        distance(state, unit.hex, label) <= reach
        and can_fire_into(state, unit, label)
        and los(state, unit.hex, label)
    )


def fire_zones(state: State, mover: Unit, label: str) -> list[Unit]:
    """The enemy counters whose (normal range) Fire Zone covers `label`."""
    return [e for e in enemies_of(state, mover) if in_fire_zone(state, e, label, e.range)]


def short_range_fire_zones(state: State, mover: Unit, label: str) -> list[Unit]:
    """The enemy counters whose Short Range Fire Zone covers `label`."""
    reach = state.rules.short_range
    return [
        e for e in enemies_of(state, mover) if in_fire_zone(state, e, label, min(reach, e.range))
    ]


def in_close_combat(state: State, unit: Unit, label: str | None = None) -> bool:
    """Whether `unit` (at `label`, default its hex) shares a hex with an enemy counter."""
    where = label or unit.hex
    return any(e.hex == where for e in enemies_of(state, unit))


def ai_at(state: State, label: str, but: str = "") -> Unit | None:
    """An active AI in the hex other than `but` (5.3.1: AIs will not stack)."""
    for u in active(state, Side.AI):
        if u.hex == label and u.id != but:
            return u
    return None


def ai_holds(state: State, label: str) -> bool:
    """An AI in the hex and no Unit: the AI holds it (README "End of the mission")."""
    return ai_at(state, label) is not None and not _unit_at(state, label)


def _unit_at(state: State, label: str) -> bool:
    return any(u.hex == label for u in active(state, Side.PLAYER))


def with_control(state: State) -> State:
    """5.0: the Control Markers' sides after counters moved. A marker is the AI's once an
    AI stands in its hex with no Unit, and stays the AI's after the AI leaves, until a
    Unit stands there with no AI (the base game's flip: the last side alone in the hex;
    README ledger "5.0 Player Control Markers")."""
    held = set(state.ai_markers or ())
    for o in state.objectives:
        if not o.control_marker:
            continue
        ai, unit = ai_at(state, o.hex) is not None, _unit_at(state, o.hex)
        if ai and not unit:
            held.add(o.id)
        elif unit and not ai:
            held.discard(o.id)
    markers = tuple(o.id for o in state.objectives if o.id in held)
    if markers == (state.ai_markers or ()):
        return state
    return replace(state, ai_markers=markers or UNSET)


def ai_controls(state: State, objective: ObjectiveSpec) -> bool:
    """Whether the AI holds an objective: a Control Marker by its side (`with_control`),
    any other objective by an AI in its hex and no Unit (5.0; README ledger)."""
    if objective.control_marker:
        return objective.id in (state.ai_markers or ())
    return ai_holds(state, objective.hex)


def flanked(state: State, target: Unit, from_label: str) -> bool:
    """Whether a counter at `from_label` is on `target`'s flank (outside its front arc)."""
    return from_label != target.hex and not in_front_arc(state, target, from_label)
