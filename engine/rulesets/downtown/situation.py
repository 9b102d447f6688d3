"""Reading the situation: the US and DRV flights, distances and the raid target, as the
procedures ask for them. Pure queries over a state and its board; orders are deterministic."""

from __future__ import annotations

from umpire.engine.errors import RuleError
from umpire.engine.hexgrid import Hex
from umpire.engine.rulesets.downtown.mapdata import Board
from umpire.engine.rulesets.downtown.state import DrvFlight, Sam, State, UsFlight
from umpire.engine.rulesets.downtown.tables.air_activation import scenario
from umpire.engine.rulesets.downtown.terms import Mission, SamStatus, Task, cite

ACTIVE_MISSIONS = (Mission.IRON_HAND, Mission.STRIKE, Mission.RECON)


def target_hex(state: State, board: Board) -> str:
    """The raid target's hex (setup.raid_target names a map target)."""
    return board.targets[state.setup.raid_target].hex


def entry_hex(state: State, board: Board) -> str:
    """The strike mission's entry hex."""
    return board.entries[state.setup.entry].hex


def us_on_map(state: State) -> tuple[UsFlight, ...]:
    """US flights on the map, by id."""
    return tuple(sorted((f for f in state.us if f.on_map), key=lambda f: f.id))


def us_flight(state: State, flight_id: str, rule: str) -> UsFlight:
    """A reported US flight, or RuleError naming `rule`."""
    for f in state.us:
        if f.id == flight_id:
            return f
    known = ", ".join(f.id for f in state.us) or "none reported"
    raise RuleError(f"there is no US flight {flight_id!r} (reported: {known})", rule=rule)


def drv_flight(state: State, flight_id: str, rule: str) -> DrvFlight:
    """A DRV flight on the map, or RuleError naming `rule`."""
    for f in state.drv:
        if f.id == flight_id:
            return f
    known = ", ".join(f.id for f in state.drv) or "none"
    raise RuleError(f"there is no DRV flight {flight_id!r} (on the map: {known})", rule=rule)


def sam(state: State, sam_id: str, rule: str) -> Sam:
    """A SAM counter on the map, or RuleError."""
    for s in state.sams:
        if s.id == sam_id and s.status is not SamStatus.REMOVED:
            return s
    raise RuleError(f"there is no SAM {sam_id!r} on the map", rule=rule)


def airborne(state: State) -> tuple[DrvFlight, ...]:
    """DRV flights in flight (not waiting under a Ready marker), by id."""
    return tuple(sorted((f for f in state.drv if not f.ready), key=lambda f: f.id))


def nearest(board: Board, origin: str, flights: tuple[UsFlight, ...]) -> UsFlight | None:
    """The nearest of `flights` to `origin` (ties: lower id)."""
    ranked = sorted(flights, key=lambda f: (board.dist(origin, f.hex), f.id))
    return ranked[0] if ranked else None


def active_mission_over_land(state: State, board: Board) -> bool:
    """2.1.5 / 2.2.1: an Iron Hand, Strike or Recon unit on the map over a land hex."""
    return any(f.mission in ACTIVE_MISSIONS and board.is_land(f.hex) for f in us_on_map(state))


def near_target_or_downtown(board: Board, hex_: str, target: str) -> int:
    """Distance to the raid target or downtown Hanoi/Haiphong, whichever is nearer."""
    return min(board.dist(hex_, target), board.dist_to_downtown(hex_))


def bombing(f: UsFlight) -> bool:
    """A bombing-tasked flight."""
    return f.task is Task.BOMBING


def in_front_arc(board: Board, flight: UsFlight | DrvFlight, other: str) -> bool:
    """Whether hex `other` is in the flight's front arc (engine/hexgrid.py arcs)."""
    return board.grid.in_front_arc(Hex.parse(flight.hex), flight.facing, Hex.parse(other))


def in_rear_arc(board: Board, flight: UsFlight | DrvFlight, other: str) -> bool:
    """Whether hex `other` is in the flight's rear arc."""
    return board.grid.in_rear_arc(Hex.parse(flight.hex), flight.facing, Hex.parse(other))


def facing_toward(board: Board, origin: str, toward: str) -> int:
    """5.4.3 'faced as closely as possible toward' a hex: the direction whose neighbour is
    nearest to it (ties: lowest direction number)."""
    o = Hex.parse(origin)
    if origin == toward:
        return 0
    best = min(
        range(6),
        key=lambda d: (board.grid.distance(board.grid.neighbour(o, d), Hex.parse(toward)), d),
    )
    return best


def flight_limit(state: State) -> int:
    """5.4.1: the Flights value less one per visually identified flight, never below 1."""

    base = state.setup.flights_override or scenario(state.setup.scenario).flights
    return max(1, base - state.visual_ids)


def generic(state: State) -> tuple[DrvFlight, ...]:
    """Generic flight counters (not visually identified), by id."""
    return tuple(sorted((f for f in state.drv if not f.visual_id), key=lambda f: f.id))


PHASE_RULE = cite("sequence of play (solo phases: 2.1.4, 3.3, 5.4.2, 5.2, 3.2.1, 5.1, 2.1.5)")
