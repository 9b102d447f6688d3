"""decide: check a command against the phase and the state, then run the DRV procedure.

Each command belongs to one phase (sequence of play in terms.Phase); a command out of its
phase, naming a unit or flight that does not exist, or a hex off the map raises RuleError
naming the rule, and nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from umpire.engine.errors import NothingToDo, RuleError
from umpire.engine.kit.decider import decider
from umpire.engine.kit.dispatch import Dispatch
from umpire.engine.rulesets.downtown import (
    aaa,
    drv_air,
    drv_attack,
    drv_movement,
    fire_can,
    flight_activation,
    raid_end,
    sam_activation,
    sam_behaviour,
    sam_sites,
    solitaire_events,
)
from umpire.engine.rulesets.downtown import commands as cmd
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown import situation as sit
from umpire.engine.rulesets.downtown.labels import LABELS
from umpire.engine.rulesets.downtown.state import State, UsFlight
from umpire.engine.rulesets.downtown.terms import (
    REPORT_PHASES,
    AcqLevel,
    ActivationReason,
    Phase,
    SamStatus,
    cite,
)
from umpire.engine.rulesets.downtown.turn import DowntownTurn
from umpire.events.plurals import counted
from umpire.events.types import GameEnded, Winner

R_US = cite("1.2.1 (the player plays the US side with the full Downtown rules)")


def _need(state: State, phases: tuple[Phase, ...], what: str, rule: str) -> None:
    if state.phase not in phases:
        allowed = " or ".join(LABELS.words("phase", p) for p in phases)
        raise RuleError(
            f"{what} belongs to the {allowed} phase; the game is in the "
            f"{LABELS.words('phase', state.phase)} phase (turn {state.turn})",
            rule=rule,
        )


def _begin(turn: DowntownTurn, phase: Phase, number: int, rule: str) -> None:
    turn.emit(
        ev.PhaseBegan(
            rule=rule,
            phase=phase,
            turn=number,
            explanation=f"turn {number}: {LABELS.words('phase', phase)} phase",
        )
    )


def deploy_ground(turn: DowntownTurn, c: cmd.DeployGroundUnits) -> None:
    """DRV Ground Unit Deployment Phase: 2.1.1-2.1.4 AAA, 3.1.2 SAM set up."""
    _need(turn.state, (Phase.GROUND_DEPLOYMENT,), "DeployGroundUnits", aaa.R_DEPLOY)
    for label in turn.board.data.printed_aaa:
        turn.emit(
            ev.AaaPlaced(
                rule=cite("2.1"),
                unit_id=turn.new_id("AAA"),
                hex=label,
                density="printed",
                from_pool=False,
                explanation=f"printed AAA concentration {label}: active at all times",
            )
        )
    aaa.purchase(turn)
    aaa.deploy_initial(turn)
    sam_sites.set_up(turn)
    _begin(turn, Phase.DRV_RADAR, 0, cite("3.3"))


def check_radar(turn: DowntownTurn, c: cmd.CheckDrvRadar) -> None:
    """DRV Radar Phase (3.3): located SAMs within 15 of the entry point."""
    _need(turn.state, (Phase.DRV_RADAR,), "CheckDrvRadar", cite("3.3"))
    sam_activation.setup_check(turn, Phase.DRV_RADAR)
    _begin(turn, Phase.AIR_DEPLOYMENT, 0, drv_air.R_DEPLOY)


def deploy_air(turn: DowntownTurn, c: cmd.DeployDrvAir) -> None:
    """DRV Air Deployment Phase (5.4.2-5.4.3), then turn 1 opens with the Detection Phase."""
    _need(turn.state, (Phase.AIR_DEPLOYMENT,), "DeployDrvAir", drv_air.R_DEPLOY)
    drv_air.air_deployment(turn, c.early_warning, c.placement)
    _begin(turn, Phase.DETECTION, 1, drv_air.R_DETECT)


def report_us(turn: DowntownTurn, c: cmd.ReportUsFlights) -> None:
    """The player's report of the US side (1.2.1); every hex must be on the map."""
    ids = [f.id for f in c.flights]
    if len(set(ids)) != len(ids):
        raise RuleError("US flight ids must be unique", rule=R_US)
    for f in c.flights:
        turn.board.hex(f.hex, rule=R_US)
    flights = tuple(UsFlight(**msgspec.structs.asdict(f)) for f in c.flights)
    state = turn.state
    if _by_id(flights) == _by_id(state.us) and c.preemptive_arms == state.preemptive_arms:
        raise NothingToDo(
            "ReportUsFlights changes nothing: it restates the US side as it stands "
            f"(flights {', '.join(sorted(f.id for f in flights)) or 'none'}; "
            f"{c.preemptive_arms} preemptive ARMs); report the flights as they stand now "
            "when one entered, left, was found or changed, or another preemptive ARM count",
            rule=R_US,
        )
    turn.emit(
        ev.UsFlightsReported(
            rule=R_US,
            flights=flights,
            preemptive_arms=c.preemptive_arms,
            explanation=_us_said(flights, c.preemptive_arms),
        )
    )


def _us_said(flights: tuple[UsFlight, ...], arms: int) -> str:
    """The US side as a wargamer reads it off the map ("S1 (Strike, Bombing) in 0520,
    medium, facing NE"), not as its fields: found playing a raid through the CLI, the log
    printed the report as a list of field maps."""
    said = []
    for f in _by_id(flights):
        mission, task = LABELS.words("mission", f.mission), LABELS.words("task", f.task)
        kind = mission if mission == task else f"{mission}, {task}"
        where = (
            f"in {f.hex}, {LABELS.words('altitude', f.altitude).lower()}, facing "
            f"{LABELS.words('facing', f.facing)}"
            if f.on_map
            else "off the map"
        )
        said.append(f"{f.id} ({kind}{'' if f.detected else ', undetected'}) {where}")
    arms_said = f"; {counted(arms, 'preemptive ARM')} fired" if arms else ""
    return f"US flights: {'; '.join(said) or 'none'}{arms_said}"


def _by_id(flights: tuple[UsFlight, ...]) -> list[UsFlight]:
    """A US side in id order: a report that lists the same flights in another order
    changes nothing at the table."""
    return sorted(flights, key=lambda f: f.id)


def detection(turn: DowntownTurn, c: cmd.RunDetectionPhase) -> None:
    """Detection Phase (5.2, 5.6.1, 5.7.1)."""
    _need(turn.state, (Phase.DETECTION,), "RunDetectionPhase", drv_air.R_DETECT)
    drv_air.detection(turn, c.detected)
    _begin(turn, Phase.SAM_ACQUISITION, turn.state.turn, cite("3.2.1"))


def sam_acquisition(turn: DowntownTurn, c: cmd.RunSamAcquisitionPhase) -> None:
    """SAM Acquisition Phase (3.2.1 Acq, 3.3 Acq, 3.4.2-3.4.3), then the Movement Phase
    opens with 5.1 initiative and 5.7.2 flight order."""
    _need(turn.state, (Phase.SAM_ACQUISITION,), "RunSamAcquisitionPhase", cite("3.2.1"))
    sam_activation.hidden_check(turn, Phase.SAM_ACQUISITION)
    sam_activation.setup_check(turn, Phase.SAM_ACQUISITION)
    sam_behaviour.acquisition_phase(turn)
    _begin(turn, Phase.MOVEMENT, turn.state.turn, drv_air.R_INIT)
    drv_air.initiative(turn)
    drv_movement.flight_order(turn)


def report_acquisition(turn: DowntownTurn, c: cmd.ReportAcquisition) -> None:
    """The base-game acquisition result of a SAM's attempt (3.4.2)."""
    rule = cite("3.4.2")
    _need(turn.state, (Phase.MOVEMENT,), "ReportAcquisition", rule)
    sam = sit.sam(turn.state, c.sam_id, rule)
    sit.us_flight(turn.state, c.flight_id, rule)
    if sam.status is not SamStatus.ACTIVE:
        raise RuleError(f"{sam.id} is not active: only active SAMs acquire", rule=rule)
    target = c.flight_id if c.level is not AcqLevel.NONE else ""
    if (target, c.level, c.launch) == (sam.target, sam.level, sam.launch):
        held = f"{sam.level.value} acquisition of {target}" if target else "no acquisition"
        raise NothingToDo(
            f"ReportAcquisition changes nothing: {sam.id} has {held} "
            f"({'with' if sam.launch else 'no'} launch) already; report another level, "
            "flight or launch",
            rule=rule,
        )
    turn.emit(
        ev.AcquisitionReported(
            rule=rule,
            sam_id=sam.id,
            flight_id=c.flight_id,
            level=c.level.value,
            launch=c.launch,
            explanation=f"{sam.id} acquisition of {c.flight_id}: {c.level.value}",
        )
    )


def chit(turn: DowntownTurn, c: cmd.DrvChitPicked) -> None:
    """5.4.4 take-off check on the first DRV chit of 1 or more."""
    _need(turn.state, (Phase.MOVEMENT,), "DrvChitPicked", drv_air.R_MOVE_GEN)
    drv_air.takeoff_check(turn, c.value)


def move_us(turn: DowntownTurn, c: cmd.MoveUsFlight) -> None:
    """A US flight spends an MP: Fire Cans (2.3.1) and SAM reactions (3.4.4-3.4.5)."""
    rule = cite("3.4.4")
    _need(turn.state, (Phase.MOVEMENT,), "MoveUsFlight", rule)
    sit.us_flight(turn.state, c.flight_id, rule)
    turn.board.hex(c.hex, rule=rule)
    turn.emit(
        ev.UsFlightMoved(
            rule=rule,
            flight_id=c.flight_id,
            hex=c.hex,
            altitude=c.altitude,
            facing=c.facing,
            # As the map reads (the log printed the fields: "flight id: S1, hex: 0620, …").
            explanation=(
                f"{c.flight_id} spends a Movement Point: in {c.hex}, "
                f"{LABELS.words('altitude', c.altitude).lower()}, facing "
                f"{LABELS.words('facing', c.facing)}"
            ),
        )
    )
    flight = sit.us_flight(turn.state, c.flight_id, rule)
    # Said once a Movement Phase: 4.1.2 (b) asks whether the flight was within 12 "this
    # Movement Phase", so every later MP there would repeat what the state holds.
    if turn.board.dist_to_downtown(c.hex) <= 12 and flight.id not in turn.state.phase_near:
        turn.emit(
            ev.DecisionMade(
                rule=cite("4.1.2 (b)"),
                topic="near_flight",
                result=flight.id,
                explanation=f"{flight.id} within 12 of Hanoi/Haiphong",
            )
        )
    fire_can.fire_at_mover(turn, flight.id, flight.hex)
    sam_behaviour.react(turn, flight)


def end_us(turn: DowntownTurn, c: cmd.EndUsFlightMovement) -> None:
    """4: the end-of-movement random event roll."""
    _need(turn.state, (Phase.MOVEMENT,), "EndUsFlightMovement", solitaire_events.R_EVENTS)
    flight = sit.us_flight(turn.state, c.flight_id, solitaire_events.R_EVENTS)
    solitaire_events.end_of_movement(turn, flight)


def attack(turn: DowntownTurn, c: cmd.RollDrvAttack) -> None:
    """4: a DRV attack or damage roll that the rules allow now (drv_attack: the attacks
    umpire ordered, AAA in range); doubles may call a random event."""
    rule = solitaire_events.R_EVENTS
    _need(turn.state, (Phase.MOVEMENT,), "RollDrvAttack", rule)
    flight = sit.us_flight(turn.state, c.flight_id, rule)
    allowed = drv_attack.require(turn.state, turn.board, c.unit_id, flight, c.kind)
    solitaire_events.attack_roll(turn, allowed, flight)


def plan(turn: DowntownTurn, c: cmd.PlanDrvFlight) -> None:
    """5.8.2: a DRV flight selects its target "at start of their movement", so its intent
    is read as it flies (RunDrvMovement logs it with the move) and a preview beforehand
    would record nothing the move uses: PlanDrvFlight is no longer offered, and is
    refused (README "PlanDrvFlight"). The type stays so that an old log's command reads."""
    raise NothingToDo(
        "PlanDrvFlight changes nothing: a DRV flight's movement intent is read as it starts "
        "to move (5.8.2: its target is selected then) and logged with its move; send "
        "RunDrvMovement to fly the next DRV flights in flight order (flights 1 for one): "
        "each logs its intent as it moves",
        rule=drv_movement.R_APPROACH,
    )


def run_drv(turn: DowntownTurn, c: cmd.RunDrvMovement) -> None:
    """5.7, 5.7.2: the DRV flights that have not moved this Movement Phase move by
    themselves, in flight order (the next `flights` of them, or all)."""
    _need(turn.state, (Phase.MOVEMENT,), "RunDrvMovement", drv_movement.R_ORDER)
    if not drv_movement.unmoved(turn):
        raise RuleError(
            "every DRV flight has moved this Movement Phase (5.7.2: each moves once); "
            "the Admin Phase is next",
            rule=drv_movement.R_ORDER,
        )
    drv_movement.run(turn, c.flights)


def report_drv(turn: DowntownTurn, c: cmd.ReportDrvFlight) -> None:
    """A base-game result on a DRV flight: aborting or disordered (5.9.1), fuel (5.8.2), or
    destroyed in air-to-air combat."""
    rule = drv_movement.R_BROKEN
    _need(turn.state, REPORT_PHASES, "ReportDrvFlight", rule)
    f = sit.drv_flight(turn.state, c.flight_id, rule)
    if not c.destroyed and (c.status, c.fuel) == (f.status, f.fuel):
        raise NothingToDo(
            f"ReportDrvFlight changes nothing: {f.id} is {f.status.value} with fuel {f.fuel} "
            "already; report another status or fuel, or that it was destroyed",
            rule=rule,
        )
    if c.destroyed:
        turn.emit(
            ev.DrvFlightRemoved(
                rule=R_US,
                flight_id=f.id,
                reason="destroyed",
                explanation=f"{f.id} destroyed (base-game result)",
            )
        )
        return
    turn.emit(
        ev.DrvFlightReported(
            rule=rule,
            flight_id=f.id,
            status=c.status,
            fuel=c.fuel,
            explanation=f"{f.id}: {c.status.value}, fuel {c.fuel} (base-game result)",
        )
    )


def check(turn: DowntownTurn, c: cmd.CheckActivation) -> None:
    """5.6.1 activation check (targeted or detected). The proximity check is umpire's: it is
    made when a DRV flight moves adjacent to a US flight (drv_movement.fly)."""
    rule = flight_activation.R_CHECK
    _need(turn.state, (Phase.DETECTION, Phase.MOVEMENT), "CheckActivation", rule)
    if c.reason is ActivationReason.PROXIMITY:
        raise RuleError(
            "the proximity check is made by umpire when a DRV flight moves adjacent to a US "
            "flight (RunDrvMovement); CheckActivation takes reason targeted or detection",
            rule=rule,
        )
    f = sit.drv_flight(turn.state, c.flight_id, rule)
    if f.detected or f.visual_id:
        raise RuleError(
            f"{f.id} is detected or visually identified: no activation check (5.6)",
            rule=cite("5.6"),
        )
    flight_activation.activation_check(turn, f, c.reason)


def identify(turn: DowntownTurn, c: cmd.IdentifyVisually) -> None:
    """5.6.2 visual identification."""
    _need(turn.state, (Phase.MOVEMENT,), "IdentifyVisually", flight_activation.R_VID)
    f = sit.drv_flight(turn.state, c.flight_id, flight_activation.R_VID)
    if f.visual_id:
        raise RuleError(f"{f.id} is already visually identified", rule=flight_activation.R_VID)
    flight_activation.visual_identification(turn, f)


def reportable(state: State, status: str) -> list[str]:
    """The DRV units a base-game result can change now (issue 41 item 8): AAA not yet
    suppressed (2.1.7), Fire Cans and active SAMs whose radar is on (2.3.1, 3.4.1); to
    report one as it already is changes nothing."""
    if status == "suppressed":
        return [a.id for a in state.aaa if not a.suppressed]
    cans = [f.id for f in state.fire_cans if f.radar_on]
    return cans + [s.id for s in state.sams if s.status is SamStatus.ACTIVE and s.radar_on]


def unit_status(turn: DowntownTurn, c: cmd.ReportUnitStatus) -> None:
    """Base-game suppression (2.1.7) or ARM radar shutdown (2.3.1, 3.4.1) of a DRV unit."""
    rule = cite("2.1.7") if c.status == "suppressed" else cite("2.3.1")
    if c.status == "suppressed":
        known = {a.id for a in turn.state.aaa}
    else:
        known = {f.id for f in turn.state.fire_cans} | {
            s.id for s in turn.state.sams if s.status is SamStatus.ACTIVE
        }
    if c.unit_id not in known:
        status = LABELS.words("status", c.status).lower()
        raise RuleError(f"no DRV unit {c.unit_id!r} can be {status}", rule=rule)
    if c.unit_id not in reportable(turn.state, c.status):
        raise NothingToDo(
            f"ReportUnitStatus changes nothing: {c.unit_id} is "
            f"{LABELS.words('status', c.status).lower()} already",
            rule=rule,
        )
    turn.emit(
        ev.DecisionMade(
            rule=rule,
            topic="aaa_suppressed" if c.status == "suppressed" else "radar_off",
            result=c.unit_id,
            explanation=f"{c.unit_id}: {LABELS.words('status', c.status)} (base-game result)",
        )
    )


def admin(turn: DowntownTurn, c: cmd.RunAdminPhase) -> None:
    """Admin Phase: 2.1.7 suppression, 2.3.1/3.4.1 radars, 2.1.5 hidden AAA, 2.2.1 Fire Cans,
    3.2.1 hidden SAMs (Admin), 3.3 set-up SAMs (Admin), 5.4.5 flights; then the next turn."""
    _need(turn.state, (Phase.MOVEMENT,), "RunAdminPhase", aaa.R_ADMIN)
    # 5.7: every DRV flight moves in each Movement Phase; those the player did not call
    # (RunDrvMovement) move now, before the phase ends.
    if drv_movement.unmoved(turn):
        drv_movement.run(turn, None)
    _begin(turn, Phase.ADMIN, turn.state.turn, aaa.R_ADMIN)
    aaa.suppression(turn)
    fire_can.radar_restart(turn)
    aaa.admin_activation(turn)
    fire_can.admin_activation(turn)
    sam_activation.hidden_check(turn, Phase.ADMIN)
    sam_activation.setup_check(turn, Phase.ADMIN)
    drv_air.admin_generation(turn)
    if turn.state.turn < turn.state.setup.turn_limit:
        _begin(turn, Phase.DETECTION, turn.state.turn + 1, drv_air.R_DETECT)


DISPATCH: Dispatch[Callable[[DowntownTurn, Any], None]] = Dispatch(
    {
        cmd.DeployGroundUnits: deploy_ground,
        cmd.CheckDrvRadar: check_radar,
        cmd.DeployDrvAir: deploy_air,
        cmd.ReportUsFlights: report_us,
        cmd.RunDetectionPhase: detection,
        cmd.RunSamAcquisitionPhase: sam_acquisition,
        cmd.ReportAcquisition: report_acquisition,
        cmd.DrvChitPicked: chit,
        cmd.MoveUsFlight: move_us,
        cmd.EndUsFlightMovement: end_us,
        cmd.RollDrvAttack: attack,
        cmd.PlanDrvFlight: plan,
        cmd.RunDrvMovement: run_drv,
        cmd.ReportDrvFlight: report_drv,
        cmd.CheckActivation: check,
        cmd.IdentifyVisually: identify,
        cmd.RunAdminPhase: admin,
        cmd.ReportUnitStatus: unit_status,
    },
    rule=R_US,
)


def _ordered_attack_first(turn: DowntownTurn, command: Any) -> None:
    """3.4.4, 4: an attack umpire ordered is rolled before play goes on; until then only
    DRV rolls are taken (drv_attack.roll_first; README ledger, 3.4.4)."""
    if not isinstance(command, cmd.RollDrvAttack):
        drv_attack.roll_first(turn.state, turn.board, type(command).__name__)


def _raid_end(turn: DowntownTurn) -> None:
    """The raid ends by its scenario data (raid_end.result), checked after every command."""
    ended = raid_end.result(turn.state)
    if ended is not None:
        # The solo rules score none: victory is the scenario's in the base game (raid_end.py).
        turn.emit(GameEnded(result=ended, rule=raid_end.R_END, winner=Winner.NONE_STATED))


# The events a command causes (DiceRolled events in order, before their decisions).
decide = decider(DISPATCH, DowntownTurn, begin=_ordered_attack_first, end=_raid_end)
