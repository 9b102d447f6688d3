"""5.7.2-5.9 DRV flight: flight order A-H, maneuver zones and movement intents.

Where the solo rules prescribe a route (transit by the shortest route avoiding barrage
zones; broken flights toward the China Buffer Zone or a rally point; approach straight at
the target; engage from the target's rear) the route is computed on the map, and the
flight flies it by itself (`fly`): as many hexes as its Movement Points at the intent's
throttle (5.9.2, `Setup.drv_speeds`), to the intent's altitude, facing along its last step.
Nothing of a DRV move comes from the player (README "Where the player still acts").
"""

from __future__ import annotations

from collections import deque
from typing import NamedTuple

from umpire.engine.decision import Candidate
from umpire.engine.hexgrid import Hex
from umpire.engine.kit.citation import rule_number
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown import situation as sit
from umpire.engine.rulesets.downtown.flight_activation import activation_check
from umpire.engine.rulesets.downtown.labels import LABELS
from umpire.engine.rulesets.downtown.state import DrvFlight, UsFlight
from umpire.engine.rulesets.downtown.terms import (
    ALTITUDE_INDEX,
    ActivationReason,
    Altitude,
    FlightStatus,
    Mission,
    SamStatus,
    Task,
    Zone,
    cite,
)
from umpire.engine.rulesets.downtown.turn import DowntownTurn

R_ORDER = cite("5.7.2")
R_TRANSIT = cite("5.8.1")
R_APPROACH = cite("5.8.2")
R_ENGAGE = cite("5.8.3")
R_GENERAL = cite("5.9")
R_BROKEN = cite("5.9.1")
R_PROFILE = cite("5.9.2")
R_WEATHER = cite("5.9.3")
R_AAA = cite("5.9.4")
R_SLASH = cite("5.5.2")
R_FLIGHT = cite("5.7")
R_PROXIMITY = cite("5.6.1")


class Plan(NamedTuple):
    """A flight's movement intent (5.8-5.9): rule, zone, target, destination, altitude,
    throttle and the whole route from its hex."""

    rule: str
    zone: Zone
    target: str
    destination: str
    altitude: str
    throttle: str
    route: tuple[str, ...]


def slash_attack_eligible(profile: str, year: int, month: int) -> bool:
    """5.5.2: a MiG-19 or MiG-21 flying profile qualifies for the Slash Attack tactic after
    August 1967 (the flight still has to meet the base game's requirements)."""
    return profile.startswith(("MiG19", "MiG21")) and (year, month) > (1967, 8)


STEPS = "ABCDEFGH"
ROUTE_SHOWN = 8


def zone(turn: DowntownTurn, flight: DrvFlight) -> Zone:
    """5.8: Engage within 3 of an enemy flight, Approach within 10 of a detected US flight,
    else Transit."""
    us = sit.us_on_map(turn.state)
    if any(turn.board.dist(flight.hex, u.hex) <= 3 for u in us):
        return Zone.ENGAGE
    if any(turn.board.dist(flight.hex, u.hex) <= 10 for u in us if u.detected):
        return Zone.APPROACH
    return Zone.TRANSIT


def threatening(turn: DowntownTurn, a: DrvFlight | UsFlight, b: DrvFlight | UsFlight) -> bool:
    """5.7.2: a threatens b if b is in a's forward arc and a is in b's rear arc."""
    return sit.in_front_arc(turn.board, a, b.hex) and sit.in_rear_arc(turn.board, b, a.hex)


def _bomber_or_ih(u: UsFlight) -> bool:
    return u.task is Task.BOMBING or u.mission is Mission.IRON_HAND


def step_of(turn: DowntownTurn, f: DrvFlight) -> tuple[str, str]:
    """The first step A-H that applies to a flight, and why."""
    board = turn.board
    us = sit.us_on_map(turn.state)
    z = zone(turn, f)
    if f.status is FlightStatus.ABORTING:
        return "D", "aborting"
    if f.ready:
        return "G", "taking off"
    if f.status is FlightStatus.DISORDERED:
        return "H", "disordered"
    if z is Zone.ENGAGE:
        close = [u for u in us if board.dist(f.hex, u.hex) <= 3]
        if any(u.detected and threatening(turn, f, u) for u in close):
            return "A", "Engage zone, threatening a detected US flight"
        if any(u.detected and _bomber_or_ih(u) for u in close):
            return "B", "Engage zone vs a detected Bomber/Iron Hand flight"
        if any(u.task is Task.CAP and threatening(turn, u, f) for u in close):
            return "C", "Engage zone, threatened by a US CAP flight"
    if z is Zone.APPROACH and any(
        u.detected and _bomber_or_ih(u) and board.dist(f.hex, u.hex) <= 10 for u in us
    ):
        return "E", "Approach zone vs a detected Bomber/Iron Hand flight"
    return "F", "closest to a US flight"


def flight_order(turn: DowntownTurn, *, unmoved: bool = False) -> tuple[str, ...]:
    """5.7.2: DRV flights move by priority steps A (highest) to H; within a step, closest to
    a US flight first (then by id). With `unmoved`, only the flights that have not moved
    this Movement Phase (the order is read again each time the DRV moves)."""
    us = sit.us_on_map(turn.state)
    rows = []
    flights = sit.airborne(turn.state) + tuple(x for x in turn.state.drv if x.ready)
    if unmoved:
        flights = tuple(f for f in flights if f.id not in turn.state.drv_moved)
    for f in flights:
        step, why = step_of(turn, f)
        near = min((turn.board.dist(f.hex, u.hex) for u in us), default=999)
        rows.append((STEPS.index(step), near, f.id, step, why))
    rows.sort()
    order = tuple(r[2] for r in rows)
    turn.emit(
        ev.DecisionMade(
            rule=R_ORDER,
            topic="flight_order",
            result=" ".join(order) or "none",
            order=order,
            candidates=tuple(
                Candidate(option=r[2], chosen=True, reason=f"step {r[3]}: {r[4]}") for r in rows
            ),
            explanation="DRV movement order: "
            + (", ".join(f"{r[2]} ({r[3]})" for r in rows) or "no DRV flights"),
        )
    )
    return order


def route(turn: DowntownTurn, start: str, goal: str, *, avoid_barrage: bool) -> tuple[str, ...]:
    """Shortest hex route (breadth-first, neighbours in direction order), avoiding barrage
    zones if asked and possible; falls back to the straight line."""
    board = turn.board
    if start == goal:
        return (start,)
    prev: dict[str, str] = {start: start}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        if cur == goal:
            break
        for n in board.grid.neighbours(Hex.parse(cur)):
            lab = n.label
            if lab in prev:
                continue
            if avoid_barrage and board.in_barrage(lab) and lab != goal:
                continue
            prev[lab] = cur
            queue.append(lab)
    if goal not in prev:
        return tuple(h.label for h in board.grid.line(Hex.parse(start), Hex.parse(goal)))
    path = [goal]
    while path[-1] != start:
        path.append(prev[path[-1]])
    return tuple(reversed(path))


def route_not_closer(
    turn: DowntownTurn, start: str, goal: str, away: tuple[str, ...]
) -> tuple[str, ...] | None:
    """5.9.1 (000_842c81c5c58bc2f6.txt): the shortest hex route from `start` to `goal` on
    which no step moves the flight closer to any of the hexes `away` (the US flights on
    the map), breadth-first with neighbours in direction order; None when there is none.

    "Closer" is read per step (README ledger 5.9.1): each hex entered is at least as far
    from every US flight as the hex left. The rule speaks of how the flight moves ("move
    them closer"), and a reading against the start hex alone would let a route close in
    on a flight and draw off again, which is what the rule keeps a broken flight from."""
    board = turn.board
    if start == goal:
        return (start,)
    prev: dict[str, str] = {start: start}
    queue = deque([start])
    while queue and goal not in prev:
        cur = queue.popleft()
        for n in board.grid.neighbours(Hex.parse(cur)):
            lab = n.label
            if lab in prev or any(board.dist(lab, u) < board.dist(cur, u) for u in away):
                continue
            prev[lab] = cur
            queue.append(lab)
    if goal not in prev:
        return None
    path = [goal]
    while path[-1] != start:
        path.append(prev[path[-1]])
    return tuple(reversed(path))


def _sam_shadow(turn: DowntownTurn, u: UsFlight) -> bool:
    """5.8.2: not within 5 of a SAM with its radar on, nor marked with a SAM acquisition."""
    for s in turn.state.sams:
        if s.status is SamStatus.ACTIVE and s.radar_on and turn.board.dist(s.hex, u.hex) <= 5:
            return True
        if s.target == u.id and s.level.value != "none":
            return True
    return False


def _task_rank(u: UsFlight) -> int:
    return 0 if u.task is Task.BOMBING else 1 if u.task is Task.SEAD else 2


def intent(turn: DowntownTurn, flight: DrvFlight) -> Plan:
    """5.8-5.9: the flight's zone, target, destination, altitude, throttle and route."""
    board, state = turn.board, turn.state
    weather_floor = ALTITUDE_INDEX["low"] if state.setup.poor_weather and not flight.ready else 0
    alt_now = ALTITUDE_INDEX[flight.altitude.value]
    notes = [f"{rule_number(R_PROFILE)}: movement values of {flight.profile or 'MiG-17'}"]
    us = sit.us_on_map(state)
    if flight.status is FlightStatus.ABORTING:
        edge = [h for h in board.data.china_buffer if board.edge_distance(h) == 0]
        dest = sorted(
            edge or board.data.china_buffer or (flight.hex,),
            key=lambda h: (board.dist(flight.hex, h), h),
        )[0]
        return _emit(
            turn,
            flight,
            R_BROKEN,
            Zone.TRANSIT,
            "",
            dest,
            flight.altitude.value,
            "dash" if flight.fuel > 0 else "combat",
            route(turn, flight.hex, dest, avoid_barrage=False),
            "aborting: toward a China Buffer Zone map-edge hex, altitude unchanged",
        )
    if flight.status is FlightStatus.DISORDERED:
        rally = sorted(board.rally_points(), key=lambda h: (board.dist(flight.hex, h), h))
        dest = rally[0] if rally else flight.hex
        away = tuple(sorted({u.hex for u in us}))
        kept = route_not_closer(turn, flight.hex, dest, away)
        if kept is not None:
            path = kept
            how = "by the shortest route not closer to a US flight"
            if away:
                how += f" ({', '.join(away)})"
        else:  # 5.9.1 "If there is no such route": the plain shortest route
            path = route(turn, flight.hex, dest, avoid_barrage=False)
            how = (
                "by the plain shortest route: there is no such route that is not closer "
                f"to a US flight ({', '.join(away)})"
            )
        return _emit(
            turn,
            flight,
            R_BROKEN,
            Zone.TRANSIT,
            "",
            dest,
            flight.altitude.value,
            "combat",
            path,
            f"disordered: toward the nearest rally point {dest} {how}, altitude unchanged",
        )
    z = zone(turn, flight)
    if z is Zone.TRANSIT or flight.ready:
        strikes = [u for u in us if u.mission is Mission.STRIKE] or list(us)
        goal = (
            sorted(strikes, key=lambda u: (board.dist(flight.hex, u.hex), u.id))[0].hex
            if strikes
            else sit.entry_hex(state, board)
        )
        path = route(turn, flight.hex, goal, avoid_barrage=True)
        ridge = [h for h in path[1:ROUTE_SHOWN] if h in board.data.ridgelines]
        alt = Altitude.LOW.value if weather_floor else Altitude.DECK.value
        why = "transit: Deck, combat throttle, shortest route avoiding barrage zones, free turns"
        if ridge:
            why += f"; climb only to cross ridgelines at {', '.join(ridge)}, then back to the Deck"
        if weather_floor:
            why += f"; {rule_number(R_WEATHER)}: poor weather, Low is the lowest band"
        return _emit(
            turn,
            flight,
            R_TRANSIT,
            Zone.TRANSIT,
            "",
            goal,
            alt,
            "combat",
            path,
            why + "; " + "; ".join(notes),
        )
    eligible = [
        u
        for u in us
        if u.detected and board.dist(flight.hex, u.hex) <= 10 and not _sam_shadow(turn, u)
    ]
    if not eligible:
        return _emit(
            turn,
            flight,
            R_APPROACH,
            z,
            "",
            flight.hex,
            flight.altitude.value,
            "combat",
            (flight.hex,),
            "no eligible target (SAM restrictions): hold and keep clear of SAMs",
        )
    ranked = sorted(eligible, key=lambda u: (board.dist(flight.hex, u.hex), _task_rank(u), u.id))
    target = ranked[0]
    want = ALTITUDE_INDEX[target.altitude.value]
    step = min(want, alt_now + 1) if want > alt_now else want
    step = max(step, weather_floor)
    if alt_now == 0 and step > 0 and board.in_barrage(flight.hex):
        step = 0
        notes.append(f"{rule_number(R_AAA)}: stays on the Deck until out of the barrage zone")
    alt = list(ALTITUDE_INDEX)[step]
    throttle = "dash" if flight.fuel >= 2 else "combat"
    if z is Zone.ENGAGE:
        if slash_attack_eligible(flight.profile, state.setup.year, state.setup.month):
            notes.append(
                f"{rule_number(R_SLASH)}: claims a Slash Attack if it meets all its requirements"
            )
        behind = board.grid.neighbour(Hex.parse(target.hex), (target.facing + 3) % 6)
        dest = behind.label if board.grid.contains(behind) else target.hex
        return _emit(
            turn,
            flight,
            R_ENGAGE,
            z,
            target.id,
            dest,
            alt,
            throttle,
            route(turn, flight.hex, dest, avoid_barrage=False),
            (
                f"engage {target.id}: attack from the rear or rear/beam this turn, "
                f"missiles first as primary weapon; " + "; ".join(notes)
            ),
        )
    return _emit(
        turn,
        flight,
        R_APPROACH,
        z,
        target.id,
        target.hex,
        alt,
        throttle,
        route(turn, flight.hex, target.hex, avoid_barrage=False),
        (
            f"approach {target.id} (closest detected; Bombing > SEAD > others), free "
            f"turns, climb at most one band a turn, descend by the descent rule, no hex "
            f"that conflicts with a SAM; " + "; ".join(notes)
        ),
    )


def _emit(
    turn: DowntownTurn,
    f: DrvFlight,
    rule: str,
    z: Zone,
    target: str,
    dest: str,
    alt: str,
    throttle: str,
    path: tuple[str, ...],
    why: str,
) -> Plan:
    turn.emit(
        ev.MovementIntent(
            rule=rule,
            flight_id=f.id,
            zone=z.value,
            target=target,
            destination=dest,
            altitude=alt,
            throttle=throttle,
            route=path[:ROUTE_SHOWN],
            explanation=f"{f.id}: {why}",
        )
    )
    return Plan(rule, z, target, dest, alt, throttle, path)


def allowance(turn: DowntownTurn, flight: DrvFlight, throttle: str) -> tuple[int, str]:
    """5.9.2: the Movement Points of the flight's aircraft (identified type, else its flying
    profile, else the MiG-17) at the intent's throttle, from `Setup.drv_speeds` (base-game
    values the seed does not state; README ledger 5.9.2)."""
    speeds = {s.aircraft: s for s in turn.state.setup.drv_speeds}
    kind = flight.aircraft or flight.profile or MIG17
    row = speeds.get(kind) or speeds.get(MIG17)
    if row is None:
        row = sorted(turn.state.setup.drv_speeds, key=lambda s: s.aircraft)[0]
    mp = row.dash if throttle == "dash" else row.combat
    return mp, f"{row.aircraft} {throttle} {mp} MP"


MIG17 = "MiG17F"
"""5.9.2: "Flights without a flight profile always fly using the movement values of the
MiG-17" (the 5.3 table's MiG17F row of `Setup.drv_speeds`)."""


def fly(turn: DowntownTurn, flight: DrvFlight) -> None:
    """5.7 (000_842c81c5c58bc2f6.txt): the flight moves by itself along the route its
    maneuver zone gives (5.8-5.9): one hex per Movement Point (5.8.2: it may not spend MPs
    to turn), as far as its allowance reaches (5.9.2), to the intent's altitude, facing the
    way of its last step. An aborting flight that reaches the China Buffer Zone map edge
    leaves the map (5.9.1). A generic undetected flight that moves adjacent to a US flight,
    fewer than two altitude bands apart, takes a proximity activation check (5.6.1)."""
    plan = intent(turn, flight)
    mp, speed = allowance(turn, flight, plan.throttle)
    steps = plan.route[1 : mp + 1]
    end = steps[-1] if steps else flight.hex
    facing = flight.facing
    if steps:
        before = plan.route[len(steps) - 1]
        step = turn.board.grid.direction_to(Hex.parse(before), Hex.parse(end))
        facing = facing if step is None else step
    altitude = Altitude(plan.altitude)
    # "moves 0526-0626-0725 toward 2021"; a flight that holds "stays in 0513" (it read
    # "moves stays in 0513 toward 0513").
    toward = f" toward {plan.destination}" if plan.destination != end else ""
    where = f"moves {'-'.join(steps)}{toward}" if steps else f"stays in {flight.hex}{toward}"
    turn.emit(
        ev.DrvFlightMoved(
            rule=f"{R_FLIGHT}; {plan.rule}; {R_PROFILE}",
            flight_id=flight.id,
            hex=end,
            altitude=altitude,
            facing=facing,
            status=flight.status,
            fuel=flight.fuel,
            path=steps,
            explanation=(
                f"{flight.id} ({plan.zone.value}) {where}: "
                f"{len(steps)} of {mp} MP ({speed}), "
                f"{LABELS.words('altitude', altitude).lower()}, facing {facing}"
            ),
        )
    )
    board = turn.board
    left = end in board.data.china_buffer and board.edge_distance(end) == 0
    if flight.status is FlightStatus.ABORTING and steps and end == plan.destination and left:
        turn.emit(
            ev.DrvFlightRemoved(
                rule=R_BROKEN,
                flight_id=flight.id,
                reason="left the map",
                explanation=f"{flight.id} reached the China Buffer Zone edge at {end}",
            )
        )
        return
    moved = next((f for f in turn.state.drv if f.id == flight.id), None)
    if moved is None or moved.detected or moved.visual_id or not steps:
        return
    band = ALTITUDE_INDEX[altitude.value]
    if any(
        board.dist(u.hex, h) == 1 and abs(ALTITUDE_INDEX[u.altitude.value] - band) < 2
        for h in steps
        for u in sit.us_on_map(turn.state)
    ):
        activation_check(turn, moved, ActivationReason.PROXIMITY)


def unmoved(turn: DowntownTurn) -> tuple[str, ...]:
    """The DRV flights that have not moved this Movement Phase, by id."""
    flights = sit.airborne(turn.state) + tuple(x for x in turn.state.drv if x.ready)
    return tuple(sorted(f.id for f in flights if f.id not in turn.state.drv_moved))


def run(turn: DowntownTurn, count: int | None) -> None:
    """5.7-5.7.2: the next `count` DRV flights that have not moved this Movement Phase (all
    of them if None) move by themselves, in the flight order read now."""
    order = flight_order(turn, unmoved=True)
    for flight_id in order if count is None else order[:count]:
        flight = next((f for f in turn.state.drv if f.id == flight_id), None)
        if flight is not None:
            fly(turn, flight)
