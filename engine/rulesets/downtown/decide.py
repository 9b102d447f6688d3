"""decide: check a command against the phase and the state, then run the DRV procedure.

Each command belongs to one phase (sequence of play in terms.Phase); a command out of its
phase, naming a unit or flight that does not exist, or a hex off the map raises RuleError
naming the rule, and nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine.dice import Dice
from umpire.engine.errors import RuleError
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
from umpire.engine.rulesets.downtown.ledger import Ledger
from umpire.engine.rulesets.downtown.state import State, UsFlight
from umpire.engine.rulesets.downtown.terms import (
    REPORT_PHASES,
    ActivationReason,
    Phase,
    SamStatus,
    cite,
)
from umpire.events.types import GameEnded

R_US = cite("1.2.1 (the player plays the US side with the full Downtown rules)")


def _need(state: State, phases: tuple[Phase, ...], what: str, rule: str) -> None:
    if state.phase not in phases:
        allowed = " or ".join(p.value for p in phases)
        raise RuleError(
            f"{what} belongs to the {allowed} phase; the game is in the "
            f"{state.phase.value} phase (turn {state.turn})",
            rule=rule,
        )


def _begin(led: Ledger, phase: Phase, turn: int, rule: str) -> None:
    led.emit(
        ev.PhaseBegan(
            rule=rule, phase=phase, turn=turn, explanation=f"turn {turn}: {phase.value} phase"
        )
    )


def deploy_ground(led: Ledger, c: cmd.DeployGroundUnits) -> None:
    """DRV Ground Unit Deployment Phase: 2.1.1-2.1.4 AAA, 3.1.2 SAM set up."""
    _need(led.state, (Phase.GROUND_DEPLOYMENT,), "DeployGroundUnits", aaa.R_DEPLOY)
    for label in led.board.data.printed_aaa:
        led.emit(
            ev.AaaPlaced(
                rule=cite("2.1"),
                unit_id=led.new_id("AAA"),
                hex=label,
                density="printed",
                from_pool=False,
                explanation=f"printed AAA concentration {label}: active at all times",
            )
        )
    aaa.purchase(led)
    aaa.deploy_initial(led)
    sam_sites.set_up(led)
    _begin(led, Phase.DRV_RADAR, 0, cite("3.3"))


def check_radar(led: Ledger, c: cmd.CheckDrvRadar) -> None:
    """DRV Radar Phase (3.3): located SAMs within 15 of the entry point."""
    _need(led.state, (Phase.DRV_RADAR,), "CheckDrvRadar", cite("3.3"))
    sam_activation.setup_check(led, Phase.DRV_RADAR)
    _begin(led, Phase.AIR_DEPLOYMENT, 0, drv_air.R_DEPLOY)


def deploy_air(led: Ledger, c: cmd.DeployDrvAir) -> None:
    """DRV Air Deployment Phase (5.4.2-5.4.3), then turn 1 opens with the Detection Phase."""
    _need(led.state, (Phase.AIR_DEPLOYMENT,), "DeployDrvAir", drv_air.R_DEPLOY)
    drv_air.air_deployment(led, c.early_warning, c.placement)
    _begin(led, Phase.DETECTION, 1, drv_air.R_DETECT)


def report_us(led: Ledger, c: cmd.ReportUsFlights) -> None:
    """The player's report of the US side (1.2.1); every hex must be on the map."""
    ids = [f.id for f in c.flights]
    if len(set(ids)) != len(ids):
        raise RuleError("US flight ids must be unique", rule=R_US)
    for f in c.flights:
        led.board.hex(f.hex, rule=R_US)
    flights = tuple(UsFlight(**msgspec.structs.asdict(f)) for f in c.flights)
    led.emit(ev.UsFlightsReported(rule=R_US, flights=flights, preemptive_arms=c.preemptive_arms))


def detection(led: Ledger, c: cmd.RunDetectionPhase) -> None:
    """Detection Phase (5.2, 5.6.1, 5.7.1)."""
    _need(led.state, (Phase.DETECTION,), "RunDetectionPhase", drv_air.R_DETECT)
    drv_air.detection(led, c.detected)
    _begin(led, Phase.SAM_ACQUISITION, led.state.turn, cite("3.2.1"))


def sam_acquisition(led: Ledger, c: cmd.RunSamAcquisitionPhase) -> None:
    """SAM Acquisition Phase (3.2.1 Acq, 3.3 Acq, 3.4.2-3.4.3), then the Movement Phase
    opens with 5.1 initiative and 5.7.2 flight order."""
    _need(led.state, (Phase.SAM_ACQUISITION,), "RunSamAcquisitionPhase", cite("3.2.1"))
    sam_activation.hidden_check(led, Phase.SAM_ACQUISITION)
    sam_activation.setup_check(led, Phase.SAM_ACQUISITION)
    sam_behaviour.acquisition_phase(led)
    _begin(led, Phase.MOVEMENT, led.state.turn, drv_air.R_INIT)
    drv_air.initiative(led)
    drv_movement.flight_order(led)


def report_acquisition(led: Ledger, c: cmd.ReportAcquisition) -> None:
    """The base-game acquisition result of a SAM's attempt (3.4.2)."""
    rule = cite("3.4.2")
    _need(led.state, (Phase.MOVEMENT,), "ReportAcquisition", rule)
    sam = sit.sam(led.state, c.sam_id, rule)
    sit.us_flight(led.state, c.flight_id, rule)
    if sam.status is not SamStatus.ACTIVE:
        raise RuleError(f"{sam.id} is not active: only active SAMs acquire", rule=rule)
    led.emit(
        ev.AcquisitionReported(
            rule=rule,
            sam_id=sam.id,
            flight_id=c.flight_id,
            level=c.level.value,
            launch=c.launch,
            explanation=f"{sam.id} acquisition of {c.flight_id}: {c.level.value}",
        )
    )


def chit(led: Ledger, c: cmd.DrvChitPicked) -> None:
    """5.4.4 take-off check on the first DRV chit of 1 or more."""
    _need(led.state, (Phase.MOVEMENT,), "DrvChitPicked", drv_air.R_MOVE_GEN)
    drv_air.takeoff_check(led, c.value)


def move_us(led: Ledger, c: cmd.MoveUsFlight) -> None:
    """A US flight spends an MP: Fire Cans (2.3.1) and SAM reactions (3.4.4-3.4.5)."""
    rule = cite("3.4.4")
    _need(led.state, (Phase.MOVEMENT,), "MoveUsFlight", rule)
    sit.us_flight(led.state, c.flight_id, rule)
    led.board.hex(c.hex, rule=rule)
    led.emit(
        ev.UsFlightMoved(
            rule=rule, flight_id=c.flight_id, hex=c.hex, altitude=c.altitude, facing=c.facing
        )
    )
    flight = sit.us_flight(led.state, c.flight_id, rule)
    if led.board.dist_to_downtown(c.hex) <= 12:
        led.emit(
            ev.DecisionMade(
                rule=cite("4.1.2 (b)"),
                topic="near_flight",
                result=flight.id,
                explanation=f"{flight.id} within 12 of Hanoi/Haiphong",
            )
        )
    fire_can.fire_at_mover(led, flight.id, flight.hex)
    sam_behaviour.react(led, flight)


def end_us(led: Ledger, c: cmd.EndUsFlightMovement) -> None:
    """4: the end-of-movement random event roll."""
    _need(led.state, (Phase.MOVEMENT,), "EndUsFlightMovement", solitaire_events.R_EVENTS)
    flight = sit.us_flight(led.state, c.flight_id, solitaire_events.R_EVENTS)
    solitaire_events.end_of_movement(led, flight)


def attack(led: Ledger, c: cmd.RollDrvAttack) -> None:
    """4: a DRV attack or damage roll that the rules allow now (drv_attack: the attacks
    umpire ordered, AAA in range); doubles may call a random event."""
    rule = solitaire_events.R_EVENTS
    _need(led.state, (Phase.MOVEMENT,), "RollDrvAttack", rule)
    flight = sit.us_flight(led.state, c.flight_id, rule)
    allowed = drv_attack.require(led.state, led.board, c.unit_id, flight, c.kind)
    solitaire_events.attack_roll(led, allowed, flight)


def plan(led: Ledger, c: cmd.PlanDrvFlight) -> None:
    """5.8-5.9 movement intent (a preview: RunDrvMovement flies it)."""
    _need(led.state, (Phase.MOVEMENT,), "PlanDrvFlight", drv_movement.R_GENERAL)
    drv_movement.intent(led, sit.drv_flight(led.state, c.flight_id, drv_movement.R_GENERAL))


def run_drv(led: Ledger, c: cmd.RunDrvMovement) -> None:
    """5.7, 5.7.2: the DRV flights that have not moved this Movement Phase move by
    themselves, in flight order (the next `flights` of them, or all)."""
    _need(led.state, (Phase.MOVEMENT,), "RunDrvMovement", drv_movement.R_ORDER)
    if not drv_movement.unmoved(led):
        raise RuleError(
            "every DRV flight has moved this Movement Phase (5.7.2: each moves once); "
            "the Admin Phase is next",
            rule=drv_movement.R_ORDER,
        )
    drv_movement.run(led, c.flights)


def report_drv(led: Ledger, c: cmd.ReportDrvFlight) -> None:
    """A base-game result on a DRV flight: aborting or disordered (5.9.1), fuel (5.8.2), or
    destroyed in air-to-air combat."""
    rule = drv_movement.R_BROKEN
    _need(led.state, REPORT_PHASES, "ReportDrvFlight", rule)
    f = sit.drv_flight(led.state, c.flight_id, rule)
    if c.destroyed:
        led.emit(
            ev.DrvFlightRemoved(
                rule=R_US,
                flight_id=f.id,
                reason="destroyed",
                explanation=f"{f.id} destroyed (base-game result)",
            )
        )
        return
    led.emit(
        ev.DrvFlightReported(
            rule=rule,
            flight_id=f.id,
            status=c.status,
            fuel=c.fuel,
            explanation=f"{f.id}: {c.status.value}, fuel {c.fuel} (base-game result)",
        )
    )


def check(led: Ledger, c: cmd.CheckActivation) -> None:
    """5.6.1 activation check (targeted or detected). The proximity check is umpire's: it is
    made when a DRV flight moves adjacent to a US flight (drv_movement.fly)."""
    rule = flight_activation.R_CHECK
    _need(led.state, (Phase.DETECTION, Phase.MOVEMENT), "CheckActivation", rule)
    if c.reason is ActivationReason.PROXIMITY:
        raise RuleError(
            "the proximity check is made by umpire when a DRV flight moves adjacent to a US "
            "flight (RunDrvMovement); CheckActivation takes reason targeted or detection",
            rule=rule,
        )
    f = sit.drv_flight(led.state, c.flight_id, rule)
    if f.detected or f.visual_id:
        raise RuleError(
            f"{f.id} is detected or visually identified: no activation check (5.6)",
            rule=cite("5.6"),
        )
    flight_activation.activation_check(led, f, c.reason)


def identify(led: Ledger, c: cmd.IdentifyVisually) -> None:
    """5.6.2 visual identification."""
    _need(led.state, (Phase.MOVEMENT,), "IdentifyVisually", flight_activation.R_VID)
    f = sit.drv_flight(led.state, c.flight_id, flight_activation.R_VID)
    if f.visual_id:
        raise RuleError(f"{f.id} is already visually identified", rule=flight_activation.R_VID)
    flight_activation.visual_identification(led, f)


def unit_status(led: Ledger, c: cmd.ReportUnitStatus) -> None:
    """Base-game suppression (2.1.7) or ARM radar shutdown (2.3.1, 3.4.1) of a DRV unit."""
    rule = cite("2.1.7") if c.status == "suppressed" else cite("2.3.1")
    if c.status == "suppressed":
        known = {a.id for a in led.state.aaa}
    else:
        known = {f.id for f in led.state.fire_cans} | {
            s.id for s in led.state.sams if s.status is SamStatus.ACTIVE
        }
    if c.unit_id not in known:
        raise RuleError(f"no DRV unit {c.unit_id!r} can be {c.status}", rule=rule)
    led.emit(
        ev.DecisionMade(
            rule=rule,
            topic="aaa_suppressed" if c.status == "suppressed" else "radar_off",
            result=c.unit_id,
            explanation=f"{c.unit_id}: {c.status} (base-game result)",
        )
    )


def admin(led: Ledger, c: cmd.RunAdminPhase) -> None:
    """Admin Phase: 2.1.7 suppression, 2.3.1/3.4.1 radars, 2.1.5 hidden AAA, 2.2.1 Fire Cans,
    3.2.1 hidden SAMs (Admin), 3.3 set-up SAMs (Admin), 5.4.5 flights; then the next turn."""
    _need(led.state, (Phase.MOVEMENT,), "RunAdminPhase", aaa.R_ADMIN)
    # 5.7: every DRV flight moves in each Movement Phase; those the player did not call
    # (RunDrvMovement) move now, before the phase ends.
    if drv_movement.unmoved(led):
        drv_movement.run(led, None)
    _begin(led, Phase.ADMIN, led.state.turn, aaa.R_ADMIN)
    aaa.suppression(led)
    fire_can.radar_restart(led)
    aaa.admin_activation(led)
    fire_can.admin_activation(led)
    sam_activation.hidden_check(led, Phase.ADMIN)
    sam_activation.setup_check(led, Phase.ADMIN)
    drv_air.admin_generation(led)
    if led.state.turn < led.state.setup.turn_limit:
        _begin(led, Phase.DETECTION, led.state.turn + 1, drv_air.R_DETECT)


DISPATCH: Dispatch[Callable[[Ledger, Any], None]] = Dispatch(
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


def decide(state: State, command: Struct, dice: Dice) -> list[Struct]:
    """The events a command causes (DiceRolled events in order, before their decisions)."""
    handler = DISPATCH.handler(command)
    led = Ledger(state, dice)
    handler(led, command)
    ended = raid_end.result(led.state)
    if ended is not None:
        led.emit(GameEnded(result=ended, rule=raid_end.R_END))
    return led.events
