"""Downtown solo events. Every AI decision carries rule, dice, candidates and explanation.

Events that hold a DRV secret (`pool_densities`, `bsan`, `hidden_fire_cans`) omit them when
defaulted, so `view.redact` can hand the player a copy without the field at all.
"""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.decision import Decision as BaseDecision
from umpire.engine.rulesets.downtown.state import UsFlight
from umpire.engine.rulesets.downtown.terms import Altitude, FlightStatus, Phase


class Decision(BaseDecision, frozen=True, kw_only=True, omit_defaults=True):
    """A DRV decision (engine.decision.Decision); empty defaults are left out of the log."""


def _tag(name: str) -> str:
    return f"downtown.{name}"


class PhaseBegan(Decision, frozen=True, kw_only=True, tag=_tag("PhaseBegan")):
    phase: Phase
    turn: int


class UsFlightsReported(Decision, frozen=True, kw_only=True, tag=_tag("UsFlightsReported")):
    flights: tuple[UsFlight, ...]
    preemptive_arms: int = 0


class AaaPurchased(Decision, frozen=True, kw_only=True, tag=_tag("AaaPurchased")):
    points: int
    count: int
    hidden_count: int
    pool_densities: tuple[str, ...] = ()


class AaaPlaced(Decision, frozen=True, kw_only=True, tag=_tag("AaaPlaced")):
    unit_id: str
    hex: str
    density: str
    from_pool: bool = True


class AaaActivationChecked(Decision, frozen=True, kw_only=True, tag=_tag("AaaActivationChecked")):
    pool_size: int
    roll: int
    activations: int


class AaaSuppressionRolled(Decision, frozen=True, kw_only=True, tag=_tag("AaaSuppressionRolled")):
    unit_id: str
    roll: int
    removed: bool


class FireCanActivationChecked(
    Decision, frozen=True, kw_only=True, tag=_tag("FireCanActivationChecked")
):
    roll: int
    activations: int
    hidden_fire_cans: int = -1


class FireCanPlaced(Decision, frozen=True, kw_only=True, tag=_tag("FireCanPlaced")):
    unit_id: str
    hex: str
    aaa_id: str


class RadarRestartRolled(Decision, frozen=True, kw_only=True, tag=_tag("RadarRestartRolled")):
    unit_id: str
    roll: int
    back_on: bool


class SamSetUp(Decision, frozen=True, kw_only=True, tag=_tag("SamSetUp")):
    sam_id: str
    hex: str
    site: str
    target: str


class SamActivationChecked(Decision, frozen=True, kw_only=True, tag=_tag("SamActivationChecked")):
    phase: Phase
    unmodified: int
    modified: int
    modifiers: tuple[str, ...]
    count: int
    bsan: int = -1


class SamPlaced(Decision, frozen=True, kw_only=True, tag=_tag("SamPlaced")):
    sam_id: str
    hex: str
    site: str
    row: str


class SetUpSamRolled(Decision, frozen=True, kw_only=True, tag=_tag("SetUpSamRolled")):
    sam_id: str
    roll: int
    total: int
    modifiers: tuple[str, ...]
    possible: bool


class SamDummyChecked(Decision, frozen=True, kw_only=True, tag=_tag("SamDummyChecked")):
    sam_id: str
    roll: int
    total: int
    result: str
    outcome: str


class SamAcquisitionDecided(Decision, frozen=True, kw_only=True, tag=_tag("SamAcquisitionDecided")):
    sam_id: str
    row: str
    action: str
    target: str = ""


class AcquisitionReported(Decision, frozen=True, kw_only=True, tag=_tag("AcquisitionReported")):
    sam_id: str
    flight_id: str
    level: str
    launch: bool = False


class SamReacted(Decision, frozen=True, kw_only=True, tag=_tag("SamReacted")):
    sam_id: str
    flight_id: str
    option: int
    fire: str
    missiles: int = 0
    """Missiles this attack expends (3.4.5; 0 in logs written before ammunition was kept)."""


class DrvAttackRolled(Decision, frozen=True, kw_only=True, tag=_tag("DrvAttackRolled")):
    unit_id: str
    flight_id: str
    kind: str
    total: int
    doubles: bool
    random_event: bool
    range: int = -1
    """Hexes from the unit to the flight when rolled (-1 in logs before it was checked)."""
    table: str = ""
    """The table the player reads the roll on (the base game's, named by the seed in 4)."""
    column: str = ""
    """The column or line of that table umpire knows (density, salvo, acquisition)."""


class RandomEventRolled(Decision, frozen=True, kw_only=True, tag=_tag("RandomEventRolled")):
    flight_id: str
    roll: int
    remark: str
    sam_id: str = ""
    inhibits: tuple[int, ...] = ()
    inhibited: bool = False
    converted: bool = False


class DrvFlightGenerated(Decision, frozen=True, kw_only=True, tag=_tag("DrvFlightGenerated")):
    flight_id: str
    hex: str
    altitude: Altitude
    facing: int
    ready: bool = False
    profile: str = ""
    parent: str = ""


class DrvFlightRemoved(Decision, frozen=True, kw_only=True, tag=_tag("DrvFlightRemoved")):
    flight_id: str
    reason: str


class FlightProfileAssigned(Decision, frozen=True, kw_only=True, tag=_tag("FlightProfileAssigned")):
    flight_id: str
    aircraft: str


class ActivationChecked(Decision, frozen=True, kw_only=True, tag=_tag("ActivationChecked")):
    flight_id: str
    reason: str
    roll: int
    real: bool


class VisualIdentified(Decision, frozen=True, kw_only=True, tag=_tag("VisualIdentified")):
    flight_id: str
    roll: int
    count: int
    aircraft: str
    note: str = ""


class DrvFlightMoved(Decision, frozen=True, kw_only=True, tag=_tag("DrvFlightMoved")):
    flight_id: str
    hex: str
    altitude: Altitude
    facing: int
    status: FlightStatus
    fuel: int = 99
    path: tuple[str, ...] = ()
    """The hexes entered, in order (empty in logs where the player reported the move)."""


class DrvFlightReported(Decision, frozen=True, kw_only=True, tag=_tag("DrvFlightReported")):
    """A base-game result on a DRV flight (abort, disorder, recovery, fuel left)."""

    flight_id: str
    status: FlightStatus
    fuel: int = 99


class UsFlightMoved(Decision, frozen=True, kw_only=True, tag=_tag("UsFlightMoved")):
    flight_id: str
    hex: str
    altitude: Altitude
    facing: int


class MovementIntent(Decision, frozen=True, kw_only=True, tag=_tag("MovementIntent")):
    flight_id: str
    zone: str
    target: str
    destination: str
    altitude: str
    throttle: str
    route: tuple[str, ...] = ()


class DecisionMade(Decision, frozen=True, kw_only=True, tag=_tag("DecisionMade")):
    """A decision with no state effect beyond its record (initiative, order, no placement)."""

    topic: str
    result: str
    order: tuple[str, ...] = ()
    missiles: int = 0
    """Missiles an ordered SAM attack expends (4.1.2 (b)'s LOAL attack: one, README ledger
    4.1.2 (b); 0 for every other decision, and in logs written before v8)."""


EVENT_TYPES: tuple[type[Struct], ...] = (
    PhaseBegan,
    UsFlightsReported,
    AaaPurchased,
    AaaPlaced,
    AaaActivationChecked,
    AaaSuppressionRolled,
    FireCanActivationChecked,
    FireCanPlaced,
    RadarRestartRolled,
    SamSetUp,
    SamActivationChecked,
    SamPlaced,
    SetUpSamRolled,
    SamDummyChecked,
    SamAcquisitionDecided,
    AcquisitionReported,
    SamReacted,
    DrvAttackRolled,
    RandomEventRolled,
    DrvFlightGenerated,
    DrvFlightRemoved,
    FlightProfileAssigned,
    ActivationChecked,
    VisualIdentified,
    DrvFlightMoved,
    DrvFlightReported,
    UsFlightMoved,
    MovementIntent,
    DecisionMade,
)
