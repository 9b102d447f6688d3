"""Commands the player sends: one per DRV phase step, and reports of the US side."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from umpire.engine.hexgrid import Facing
from umpire.engine.rulesets.downtown.terms import (
    AcqLevel,
    ActivationReason,
    AirPlacement,
    Altitude,
    AttackRoll,
    EarlyWarning,
    FlightStatus,
    Mission,
    Task,
)

Id = Annotated[str, Meta(min_length=1, max_length=40)]
Label = Annotated[str, Meta(min_length=1, max_length=8)]


class UsFlightReport(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One US flight as the player reports it."""

    id: Id
    mission: Mission
    task: Task
    hex: Label
    altitude: Altitude = Altitude.MEDIUM
    facing: Facing = 0
    detected: bool = True
    bomber: bool = False
    on_map: bool = True


class DeployGroundUnits(Struct, frozen=True, tag="DeployGroundUnits", kw_only=True):
    """DRV Ground Unit Deployment Phase: buy AAA (2.1.2), place half (2.1.4), set up SAMs
    (3.1.2)."""


class CheckDrvRadar(Struct, frozen=True, tag="CheckDrvRadar", kw_only=True):
    """DRV Radar Phase of the pre-raid sequence: set-up SAM activation vs the entry (3.3)."""


class DeployDrvAir(Struct, frozen=True, tag="DeployDrvAir", kw_only=True):
    """DRV Air Deployment Phase (5.4.2-5.4.3): the player reports the Early Warning Level
    and the placement the base game allows for it."""

    early_warning: EarlyWarning
    placement: AirPlacement


class ReportUsFlights(Struct, frozen=True, tag="ReportUsFlights", kw_only=True):
    """The US side as it stands (replaces the previous report)."""

    flights: Annotated[tuple[UsFlightReport, ...], Meta(max_length=64)]
    preemptive_arms: Annotated[int, Meta(ge=0, le=20)] = 0


class RunDetectionPhase(Struct, frozen=True, tag="RunDetectionPhase", kw_only=True):
    """Detection Phase (5.2): the DRV flights the US detected this phase (US rolls first)."""

    detected: Annotated[tuple[Id, ...], Meta(max_length=64)] = ()


class RunSamAcquisitionPhase(Struct, frozen=True, tag="RunSamAcquisitionPhase", kw_only=True):
    """SAM Acquisition Phase: 3.2.1 (Acq), 3.3 (Acq), 3.4.3; then the Movement Phase opens
    with 5.1 initiative and 5.7.2 flight order."""


class ReportAcquisition(Struct, frozen=True, tag="ReportAcquisition", kw_only=True):
    """The base-game acquisition result of a SAM's attempt (3.4.2)."""

    sam_id: Id
    flight_id: Id
    level: AcqLevel
    launch: bool = False


class DrvChitPicked(Struct, frozen=True, tag="DrvChitPicked", kw_only=True):
    """A DRV initiative chit was picked (5.4.4)."""

    value: Annotated[int, Meta(ge=0, le=9)]


class MoveUsFlight(Struct, frozen=True, tag="MoveUsFlight", kw_only=True):
    """A US flight spent one Movement Point and is now here (3.4.4, 2.3.1)."""

    flight_id: Id
    hex: Label
    altitude: Altitude
    facing: Facing


class EndUsFlightMovement(Struct, frozen=True, tag="EndUsFlightMovement", kw_only=True):
    """A US flight expended all its MP (4: end-of-movement random event roll)."""

    flight_id: Id


class RollDrvAttack(Struct, frozen=True, tag="RollDrvAttack", kw_only=True):
    """Roll the DRV's attack or damage roll of `unit_id` on US flight `flight_id`: a AAA
    concentration's on a flight within its range (2.1.7), a Fire Can's or a SAM's that
    umpire ordered (2.3.1, 3.4.4-3.4.5, 4.1.2). umpire rolls two d10 and names the
    base-game table and column to read them on; a double may call a random event (4)."""

    unit_id: Id
    flight_id: Id
    kind: AttackRoll


class PlanDrvFlight(Struct, frozen=True, tag="PlanDrvFlight", kw_only=True):
    """Ask for a DRV flight's movement intent (5.8, 5.9)."""

    flight_id: Id


class RunDrvMovement(Struct, frozen=True, tag="RunDrvMovement", kw_only=True):
    """The DRV flights move by themselves (5.7.2 order, 5.8-5.9 routes): the next `flights`
    of them that have not moved this Movement Phase (all of them if omitted), e.g. as many
    as the base game's initiative chit lets the DRV move."""

    flights: Annotated[int, Meta(ge=1, le=40)] | None = None


class ReportDrvFlight(Struct, frozen=True, tag="ReportDrvFlight", kw_only=True):
    """A base-game result on a DRV flight (air-to-air combat, fuel): it aborts, is
    disordered, recovers, has this much fuel left, or is destroyed (removed)."""

    flight_id: Id
    status: FlightStatus = FlightStatus.NORMAL
    fuel: Annotated[int, Meta(ge=0, le=99)] = 99
    destroyed: bool = False


class CheckActivation(Struct, frozen=True, tag="CheckActivation", kw_only=True):
    """An activation check (5.6.1): targeted by a US flight, or detected by the US."""

    flight_id: Id
    reason: ActivationReason


class IdentifyVisually(Struct, frozen=True, tag="IdentifyVisually", kw_only=True):
    """A DRV flight joined air-to-air combat: visual identification (5.6.2)."""

    flight_id: Id


class RunAdminPhase(Struct, frozen=True, tag="RunAdminPhase", kw_only=True):
    """Admin Phase: 2.1.7, 2.3.1/3.4.1, 2.1.5, 2.2.1, 3.2.1 (Admin), 3.3 (Admin), 5.4.5."""


class ReportUnitStatus(Struct, frozen=True, tag="ReportUnitStatus", kw_only=True):
    """A base-game result on a DRV unit: a AAA concentration suppressed (2.1.7) or a radar
    shut down by an ARM Morale roll (2.3.1, 3.4.1)."""

    unit_id: Id
    status: Annotated[str, Meta(pattern=r"^(suppressed|radar_off)$")]
