"""The state of a Downtown solo game (a fold of its events). Frozen, tuples only."""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.rulesets.downtown.setup import Setup
from umpire.engine.rulesets.downtown.terms import (
    AcqLevel,
    Altitude,
    FlightStatus,
    Mission,
    Phase,
    SamStatus,
    Task,
)


class UsFlight(Struct, frozen=True, kw_only=True):
    """A US flight as the player reports it (the US side is the player's)."""

    id: str
    mission: Mission
    task: Task
    hex: str
    altitude: Altitude = Altitude.MEDIUM
    facing: int = 0
    detected: bool = True
    bomber: bool = False
    on_map: bool = True


class AaaUnit(Struct, frozen=True, kw_only=True):
    """A AAA concentration on the map (active side up, density shown)."""

    id: str
    hex: str
    density: str
    printed: bool = False
    suppressed: bool = False
    fire_cans: int = 0


class FireCan(Struct, frozen=True, kw_only=True):
    """A Fire Can radar on the map (2.3: placed radar on)."""

    id: str
    hex: str
    radar_on: bool = True
    fired: bool = False


class Sam(Struct, frozen=True, kw_only=True):
    """A SAM counter on the map: its site, status, radar and acquisition bookkeeping."""

    id: str
    hex: str
    status: SamStatus = SamStatus.LOCATED
    radar_on: bool = False
    warning: bool = False
    possible_dummy: bool = False
    dummy_radar: bool = False
    shots: int = 0
    fired: bool = False
    launch: bool = False
    target: str = ""
    level: AcqLevel = AcqLevel.NONE
    inhibited: tuple[int, ...] = ()
    option: int = 0
    spent: int = 0
    """Missiles fired so far (3.4.5 ammunition; `Setup.sam_missiles` minus this is left)."""
    last_fired: int = 0
    """Missiles of its latest attack: 4.1.1 gives them back when that attack is inhibited."""


class SiteUse(Struct, frozen=True, kw_only=True):
    """3.2.2 strike-through bookkeeping for one SAM Deployment Table hex."""

    hex: str
    strikes: int


class DrvFlight(Struct, frozen=True, kw_only=True):
    """A DRV generic flight counter (or a visually identified flight)."""

    id: str
    hex: str
    altitude: Altitude = Altitude.DECK
    facing: int = 0
    detected: bool = False
    visual_id: bool = False
    profile: str = ""
    aircraft: str = ""
    count: int = 0
    status: FlightStatus = FlightStatus.NORMAL
    ready: bool = False
    fuel: int = 99


class OrderedAttack(Struct, frozen=True, kw_only=True):
    """An attack umpire ordered this Movement Phase: a SAM's reaction (3.4.4-3.4.5), a Fire
    Can's fire at a mover (2.3.1), an event's Fire Can or LOAL attack (4.1.2)."""

    unit_id: str
    flight_id: str
    range: int
    """Hexes from the unit to the flight when it was ordered: the SAM fires as the flight
    spends that Movement Point (3.4.4), so its rolls are read at this range."""
    rule: str
    """The rule that ordered it (the decision's citation)."""
    waiting: bool = True
    """Its attack roll is still to be made, and play waits for it (README ledger, 3.4.4);
    false once rolled, or once 4.1.1 inhibits it (its attack "does not take place")."""


class AaaFire(Struct, frozen=True, kw_only=True):
    """A AAA concentration's fire on one US flight this Movement Phase (2.1.7, 4; README
    ledger 2.1.7): the attack rolls made since the flight's last Movement Point, and
    whether it has attacked the flight this phase (its Flak Damage rolls may follow)."""

    unit_id: str
    flight_id: str
    attacks: int = 0
    attacked: bool = False


class State(Struct, frozen=True, kw_only=True):
    """Everything the DRV umpire knows. `aaa_pool`, `hidden_sams` and `hidden_fire_cans`
    are the DRV's secrets (never in the player's view)."""

    setup: Setup
    phase: Phase = Phase.GROUND_DEPLOYMENT
    turn: int = 0
    movement_phases: int = 0
    aaa_pool: tuple[str, ...] = ()
    aaa_hidden_count: int = 0
    aaa: tuple[AaaUnit, ...] = ()
    hidden_fire_cans: int = 0
    fire_cans: tuple[FireCan, ...] = ()
    hidden_sams: int = 0
    sams: tuple[Sam, ...] = ()
    site_uses: tuple[SiteUse, ...] = ()
    dummies_found: int = 0
    dummies_generated: int = 0
    dummy_radars_generated: int = 0
    us: tuple[UsFlight, ...] = ()
    drv: tuple[DrvFlight, ...] = ()
    next_id: int = 1
    visual_ids: int = 0
    no_more_flights: bool = False
    vid_limit: int = -1
    takeoff_checked: bool = False
    preemptive_arms: int = 0
    phase_near: tuple[str, ...] = ()
    phase_events: tuple[str, ...] = ()
    admin_parents: tuple[str, ...] = ()
    drv_moved: tuple[str, ...] = ()
    """DRV flights that have moved this Movement Phase (5.7.2: each moves once, in order)."""
    us_entered: tuple[str, ...] = ()
    """The US flights that have been on the map (Raid end: the raid is over when every
    reported flight has been on the map and is now off it)."""
    us_mp: tuple[str, ...] = ()
    """The Movement Points the US flights have spent this Movement Phase: a flight's id once
    per `MoveUsFlight` (3.4.4: each is a point where the SAMs that acquired it react), so
    an MP spent where the flight stands is in the state too (issue 41 item 8)."""
    ordered_attacks: tuple[OrderedAttack, ...] = ()
    """The attacks umpire ordered this Movement Phase, by unit and flight (2.3.1 Fire Can,
    3.4.4-3.4.5 SAM reaction, 4.1.2 events): what a RollDrvAttack by a Fire Can or a SAM
    must follow; one still waiting for its attack roll stops play until it is rolled."""
    aaa_fire: tuple[AaaFire, ...] = ()
    """AAA fire this Movement Phase, by concentration and flight (2.1.7, 4): at most
    `Setup.aaa_attacks_per_mp` attack rolls between two of the flight's Movement Points,
    Flak Damage rolls only after an attack (README ledger 2.1.7)."""
