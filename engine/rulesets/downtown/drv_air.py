"""5.1-5.7.1 DRV air: initiative, detection, flight generation, flying profiles, activation
checks, visual identification and the GCI level."""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.dice import d100
from umpire.engine.errors import NothingToDo
from umpire.engine.hexgrid import Hex
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown import situation as sit
from umpire.engine.rulesets.downtown.flight_activation import activation_check, gci
from umpire.engine.rulesets.downtown.labels import LABELS, hexes
from umpire.engine.rulesets.downtown.state import DrvFlight, State
from umpire.engine.rulesets.downtown.tables import air_activation as table
from umpire.engine.rulesets.downtown.terms import (
    ActivationReason,
    AirPlacement,
    Altitude,
    EarlyWarning,
    Mission,
    cite,
)
from umpire.engine.rulesets.downtown.turn import DowntownTurn
from umpire.events.plurals import counted

R_INIT = cite("5.1")
R_DETECT = cite("5.2")
R_LIMIT = cite("5.4.1")
R_DEPLOY = cite("5.4.2")
R_PLACE = cite("5.4.3")
R_MOVE_GEN = cite("5.4.4")
R_ADMIN_GEN = cite("5.4.5")
R_PROFILE = cite("5.5.1")
ENGAGE_RANGE = 3


def _scenario(turn: DowntownTurn) -> table.Scenario:
    return table.scenario(turn.state.setup.scenario)


R_PERCENT = cite("1.2.3")


def _percentile(turn: DowntownTurn, purpose: str, rule: str) -> tuple[int, int]:
    """1.2.3 Percentile Rolls: tens and units d10, '00' reads 100 (engine.dice.d100)."""
    roll = turn.roll(d100(), purpose, rule)
    return roll.total, roll.roll


def initiative(turn: DowntownTurn) -> None:
    """5.1: the US moves first in the raid's first Movement Phase; later the DRV moves first
    if it has a flight in the Engage zone (within 3 hexes of a US flight)."""
    first = turn.state.movement_phases == 1
    engaged = [
        f.id
        for f in sit.airborne(turn.state)
        if any(turn.board.dist(f.hex, u.hex) <= ENGAGE_RANGE for u in sit.us_on_map(turn.state))
    ]
    side = "US" if first or not engaged else "DRV"
    why = (
        "first Movement Phase of the raid"
        if first
        else f"DRV flights in the Engage zone: {', '.join(engaged)}"
        if engaged
        else "no DRV flight in the Engage zone"
    )
    turn.emit(
        ev.DecisionMade(
            rule=f"{R_INIT} ({1 if first else 2})",
            topic="initiative",
            result=side,
            explanation=f"{side} moves first: {why}",
        )
    )


def detection(turn: DowntownTurn, detected: tuple[str, ...]) -> None:
    """5.2: the US detection attempts come first; each newly detected generic flight takes an
    activation check (5.6.1 US Detection); then the GCI level is checked (5.7.1)."""
    for flight_id in detected:
        sit.drv_flight(turn.state, flight_id, R_DETECT)
    for flight_id in detected:
        flight = next((f for f in turn.state.drv if f.id == flight_id), None)
        if flight is not None and not flight.detected and not flight.visual_id:
            activation_check(turn, flight, ActivationReason.DETECTION)
    gci(turn)


def _room(turn: DowntownTurn) -> bool:
    return len(sit.generic(turn.state)) < sit.flight_limit(turn.state)


def air_deployment(turn: DowntownTurn, warning: EarlyWarning, placement: AirPlacement) -> None:
    """5.4.2: percentile roll: Dummy range one flight, above it two; Average or Good warning
    adds one. 5.4.3 places them; flights at airfields are discarded at the start of play."""
    scn = _scenario(turn)
    total, n = _percentile(turn, "DRV Air Deployment", R_DEPLOY)
    count = 1 if table.is_dummy(scn, total) else 2
    if warning in (EarlyWarning.AVERAGE, EarlyWarning.GOOD):
        count += 1
    turn.emit(
        ev.DecisionMade(
            rule=f"{table.CITATION} {scn.scenario} Dummy # {scn.dummy.lo:02d}-"
            f"{scn.dummy.hi:02d}; {R_DEPLOY}",
            dice=(n,),
            topic="air_deployment",
            result=str(count),
            explanation=(
                f"roll {total}: {counted(count, 'flight')} (early warning {warning.value})"
            ),
        )
    )
    board = turn.board
    entry = sit.entry_hex(turn.state, board)
    target = sit.target_hex(turn.state, board)
    if placement is AirPlacement.ORBIT_OR_AIRFIELD:
        spots = [(h, "orbit point") for h in board.data.orbit_points]
        spots += [(a.hex, "airfield") for a in board.data.airfields if a.open]
        spots.sort(key=lambda s: (board.dist(s[0], entry), s[0]))
        for i in range(count):
            if i >= len(spots):
                break
            hex_, kind = spots[i]
            if kind == "airfield":
                turn.emit(
                    ev.DecisionMade(
                        rule=R_PLACE,
                        topic="air_deployment",
                        result="discarded",
                        explanation=f"flight {i + 1} would set up at airfield {hex_}: discarded",
                    )
                )
                continue
            _generate(
                turn,
                hex_,
                Altitude.DECK,
                sit.facing_toward(board, hex_, entry),
                R_PLACE,
                f"orbit point {hex_}, nearest free to the entry hex {entry}",
            )
        return
    ring = [h.label for h in board.grid.ring(Hex.parse(entry), 10)]
    ok = [h for h in ring if board.edge_distance(h) <= 3 and board.is_land(h)]
    if not ok:
        land = [
            h.label
            for r in range(11, 40)
            for h in board.grid.ring(Hex.parse(entry), r)
            if board.is_land(h.label)
        ]
        ok = land[:1]
    ok.sort(key=lambda h: (board.dist(h, target), h))
    placed: list[str] = []
    for i in range(min(count, len(ok))):
        flight_id = _generate(
            turn,
            ok[i],
            Altitude.LOW,
            sit.facing_toward(board, ok[i], entry),
            R_PLACE,
            f"in the air 10 hexes from {entry}, near the map edge",
        )
        if flight_id:
            placed.append(flight_id)
    if placed:
        profile_roll(turn, tuple(placed))


def _generate(
    turn: DowntownTurn,
    hex_: str,
    alt: Altitude,
    facing: int,
    rule: str,
    why: str,
    *,
    ready: bool = False,
    profile: str = "",
    parent: str = "",
) -> str:
    """5.4.1: a generic counter, if the DRV are under their Flights limit (and no † result)."""
    if turn.state.no_more_flights or not _room(turn):
        turn.emit(
            ev.DecisionMade(
                rule=R_LIMIT,
                topic="flight_limit",
                result="not generated",
                explanation=(
                    f"at the Flights limit {sit.flight_limit(turn.state)}"
                    if not turn.state.no_more_flights
                    else "† result: no more flights"
                ),
            )
        )
        return ""
    flight_id = turn.new_id("M")
    turn.emit(
        ev.DrvFlightGenerated(
            rule=rule,
            flight_id=flight_id,
            hex=hex_,
            altitude=alt,
            facing=facing,
            ready=ready,
            profile=profile,
            parent=parent,
            explanation=(
                f"generic flight {flight_id} in {hex_}, {LABELS.words('altitude', alt).lower()}, "
                f"facing {facing}: {why}"
            ),
        )
    )
    return flight_id


def profile_roll(turn: DowntownTurn, flights: tuple[str, ...]) -> None:
    """5.5.1 (000_842c81c5c58bc2f6.txt): the flights generated in the air in the DRV Air
    Deployment Phase make one percentile roll: "If the roll is in the range listed for the
    Dummy# column ... then no flight gains a flying profile. If the dice roll is greater than
    the Dummy# then one flight gains a profile." One roll, at most one profile, however many
    flights were placed. The seed does not say which flight: the first placed (the one
    nearest the raid target, 5.4.3) takes it (README ledger, 5.5.1)."""
    scn = _scenario(turn)
    names = ", ".join(flights)
    total, n = _percentile(turn, f"flying profile ({names})", R_PROFILE)
    row = table.profile_for(scn, total)
    if row is None:
        turn.emit(
            ev.DecisionMade(
                rule=f"{R_PROFILE} (one roll for the Air Deployment Phase)",
                dice=(n,),
                topic="profile",
                result="none",
                explanation=f"roll {total} in the Dummy range: no flight ({names}) gains a profile",
            )
        )
        return
    chosen = flights[0]
    turn.emit(
        ev.FlightProfileAssigned(
            rule=f"{table.CITATION} {scn.scenario} profile {row.profile.lo:02d}-{row.profile.hi}; "
            f"{R_PROFILE} (one flight gains a profile)",
            dice=(n,),
            flight_id=chosen,
            aircraft=row.aircraft,
            candidates=tuple(
                Candidate(
                    option=f,
                    chosen=f == chosen,
                    reason="first placed, nearest the raid target"
                    if f == chosen
                    else "placed later",
                )
                for f in flights
            ),
            explanation=(
                f"roll {total}: one flight gains a profile: {chosen} flies the {row.aircraft} "
                f"profile"
                + (
                    f"; {', '.join(flights[1:])} "
                    f"{'stays' if len(flights) == 2 else 'stay'} without one"
                    if len(flights) > 1
                    else ""
                )
            ),
        )
    )


def _strike_reference(turn: DowntownTurn) -> str:
    strikes = [f for f in sit.us_on_map(turn.state) if f.mission is Mission.STRIKE]
    if strikes:
        target = sit.target_hex(turn.state, turn.board)
        return sorted(strikes, key=lambda f: (turn.board.dist(f.hex, target), f.id))[0].hex
    return sit.entry_hex(turn.state, turn.board)


def takeoff_check_due(state: State, chit: int | None = None) -> str:
    """Why a DRV chit would change nothing now ('' when it makes the 5.4.4 take-off
    check): the check was made this game turn, or the chit is 0. Such a chit is not
    listed, and refused `nothing_to_do` (issue 41 item 8)."""
    if state.takeoff_checked:
        return "the take-off check was made this game turn (5.4.4: the first chit only)"
    if chit is not None and chit < 1:
        return "a chit of 0 makes no take-off check (5.4.4: the first chit of 1 or more)"
    return ""


def takeoff_check(turn: DowntownTurn, chit: int) -> None:
    """5.4.4: the first DRV chit of 1 or more in a game turn checks for a take-off; above the
    Dummy range one flight appears under a Ready marker at the open airfield closest to the
    strike mission (or its entry hex)."""
    why = takeoff_check_due(turn.state, chit)
    if why:
        raise NothingToDo(f"DrvChitPicked changes nothing: {why}", rule=R_MOVE_GEN)
    scn = _scenario(turn)
    total, n = _percentile(turn, "DRV take-off check", R_MOVE_GEN)
    turn.emit(
        ev.DecisionMade(
            rule=R_MOVE_GEN,
            dice=(n,),
            topic="takeoff_check",
            result="dummy" if table.is_dummy(scn, total) else "takeoff",
            explanation=f"roll {total} vs Dummy # {scn.dummy.lo:02d}-{scn.dummy.hi:02d}: "
            + (
                "in the Dummy range, no flight takes off this game turn"
                if table.is_dummy(scn, total)
                else "greater, one flight takes off"
            ),
        )
    )
    if table.is_dummy(scn, total):
        return
    board = turn.board
    ref = _strike_reference(turn)
    fields = sorted(
        (a for a in board.data.airfields if a.open), key=lambda a: (board.dist(a.hex, ref), a.hex)
    )
    if not fields:
        turn.emit(ev.DecisionMade(rule=R_MOVE_GEN, topic="takeoff", result="no open airfield"))
        return
    field = fields[0]
    _generate(
        turn,
        field.hex,
        Altitude.DECK,
        sit.facing_toward(board, field.hex, ref),
        R_MOVE_GEN,
        f"takes off from {field.name} ({field.hex}) under a Ready marker",
        ready=True,
        profile=field.aircraft,
    )


def admin_generation(turn: DowntownTurn) -> None:
    """5.4.5: percentile roll; above the Dummy range one flight appears in the air with an
    undetected generic flight (one per parent, the parent closest to a US flight), taking
    its hex, altitude, facing and profile (5.5.1)."""
    scn = _scenario(turn)
    total, n = _percentile(turn, "DRV Admin Phase generation", R_ADMIN_GEN)
    if table.is_dummy(scn, total):
        turn.emit(
            ev.DecisionMade(
                rule=R_ADMIN_GEN,
                dice=(n,),
                topic="admin_generation",
                result="none",
                explanation=f"roll {total} in the Dummy range: no flight is generated",
            )
        )
        return
    us = sit.us_on_map(turn.state)
    parents = [
        f
        for f in sit.airborne(turn.state)
        if not f.detected and not f.visual_id and f.id not in turn.state.admin_parents
    ]

    def key(f: DrvFlight) -> tuple[int, str]:
        return (min((turn.board.dist(f.hex, u.hex) for u in us), default=999), f.id)

    parents.sort(key=key)
    if not parents:
        turn.emit(
            ev.DecisionMade(
                rule=R_ADMIN_GEN,
                dice=(n,),
                topic="admin_generation",
                result="none",
                explanation=f"roll {total}: no undetected generic flight",
            )
        )
        return
    p = parents[0]
    turn.emit(
        ev.DecisionMade(
            rule=R_ADMIN_GEN,
            dice=(n,),
            topic="admin_generation",
            result=p.id,
            candidates=tuple(
                Candidate(
                    option=f.id,
                    chosen=f is p,
                    reason="closest to a US flight"
                    if f is p
                    else f"farther from a US flight ({hexes(key(f)[0])})"
                    if key(f)[0] > key(p)[0]
                    else "as close to a US flight: a later id",
                )
                for f in parents
            ),
            explanation=f"roll {total}: a flight joins {p.id}",
        )
    )
    _generate(
        turn,
        p.hex,
        p.altitude,
        p.facing,
        R_ADMIN_GEN,
        f"with parent {p.id}",
        profile=p.profile,
        parent=p.id,
    )
