"""The setup of a Downtown solo game: scenario card values, the map, and the documented
parameters for base-game values the solo seed does not state and the switches between
readings of unclear text (README "Ledger of readings")."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from umpire.engine.rulesets.downtown.mapdata import MapData
from umpire.engine.rulesets.downtown.terms import (
    AcqPhaseReading,
    DistanceTiersReading,
    DoublesReading,
    TwoSamsReading,
)

Count = Annotated[int, Meta(ge=0, le=60)]


class DrvSpeed(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The Movement Points a DRV aircraft type spends in one Movement Phase at combat and at
    dash throttle (5.8.2, 5.9.1, 5.9.2): base-game performance values the seed does not
    state (README ledger, 5.9.2)."""

    aircraft: Annotated[str, Meta(min_length=1, max_length=20)]
    combat: Annotated[int, Meta(ge=1, le=20)]
    dash: Annotated[int, Meta(ge=1, le=20)]


DEFAULT_DRV_SPEEDS: tuple[DrvSpeed, ...] = (
    DrvSpeed(aircraft="MiG17F", combat=3, dash=4),
    DrvSpeed(aircraft="MiG19S", combat=3, dash=5),
    DrvSpeed(aircraft="MiG21F-13", combat=4, dash=6),
    DrvSpeed(aircraft="MiG21PF", combat=4, dash=6),
    DrvSpeed(aircraft="MiG21PFM", combat=4, dash=6),
    DrvSpeed(aircraft="MiG21MF", combat=4, dash=6),
)
"""SAMPLE values (not the published performance charts): one row per aircraft type of the
5.3 table; set them from your *Downtown* aircraft data. 5.9.2: a flight without a profile
uses the MiG-17 row (MiG17F)."""


class Setup(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Scenario values. The starting numbers of hidden SAM battalions and Fire Cans are on
    the scenario card (public); the running counts in the state are the DRV's secret."""

    scenario: Annotated[str, Meta(min_length=1, max_length=8)] = "D4"
    year: Annotated[int, Meta(ge=1964, le=1975)] = 1967
    month: Annotated[int, Meta(ge=1, le=12)] = 6
    aaa_points: Annotated[int, Meta(ge=1, le=14)] = 6
    fire_can_units: Count = 2
    sams_at_start: Count = 3
    dummy_sams: Count = 1
    dummy_radars: Count = 1
    sam_battalions_in_reserve: Count = 4
    gci_level: Count = 2
    raid_target: Annotated[str, Meta(min_length=1, max_length=40)] = "bridge"
    entry: Annotated[str, Meta(min_length=1, max_length=40)] = "west"
    mig_day: bool = False
    poor_weather: bool = False
    flights_override: Annotated[int, Meta(ge=1, le=20)] | None = None
    max_fire_cans_per_aaa: Annotated[int, Meta(ge=1, le=4)] = 1
    fire_can_range: Annotated[int, Meta(ge=1, le=10)] = 3
    suppression_removal_max: Annotated[int, Meta(ge=0, le=10)] = 5
    radar_restart_max: Annotated[int, Meta(ge=0, le=10)] = 5
    dummy_check_die: Annotated[int, Meta(ge=6, le=10)] = 10
    map: MapData | None = None
    sam_missiles: Annotated[int, Meta(ge=1, le=30)] = 6
    """3.4.5 option 1 "If there is insufficient ammo, fire one SAM": the missiles each SAM
    battalion starts with. A base-game value the seed does not state (README ledger, 3.4.5)."""
    sam_salvo: Annotated[int, Meta(ge=2, le=6)] = 3
    """3.4.5: the missiles a salvo expends. A base-game value (README ledger, 3.4.5)."""
    acq_phase_reading: AcqPhaseReading = AcqPhaseReading.MINUS_ONE
    """3.3.1 "1 In SAM Acquisition Phase" (sign lost): -1 (default) or +1 (README ledger)."""
    distance_tiers_reading: DistanceTiersReading = DistanceTiersReading.EXCLUSIVE
    """3.2.1 "more than 12" / "more than 18 hexes": one tier (default) or both (README ledger)."""
    doubles_reading: DoublesReading = DoublesReading.A_OR_B
    """4: a double calls an event when (a) or (b) (default) / (a) and (b) apply, or the flight
    is acquired by a SAM (README ledger)."""
    two_sams_reading: TwoSamsReading = TwoSamsReading.EXAMPLE
    """3.2.1 two SAMs: unmodified roll at most the BSAN (the example, default) or lower than
    it (the rule's words) (README ledger)."""
    turn_limit: Annotated[int, Meta(ge=1, le=60)] = 12
    """The raid's last game turn (scenario card; the seed states none): after its Admin Phase
    the game ends. SAMPLE default 12 (README "Raid end")."""
    # One entry per DRV aircraft type: a few types fly (MiG-17, -19, -21); 20 at most.
    drv_speeds: Annotated[tuple[DrvSpeed, ...], Meta(max_length=20)] = DEFAULT_DRV_SPEEDS
    """Movement Points per aircraft type at combat and dash throttle (5.9.2; base-game
    values, SAMPLE defaults; README ledger 5.9.2)."""
    aaa_range: Annotated[int, Meta(ge=0, le=10)] = 1
    """The hexes from a AAA concentration within which it may attack a flight (2.1.7 "all
    ... units they are eligible to attack"; a base-game value, default 1; README ledger 4)."""
    first_fire_counts_dummies: bool = True
    """3.3.2 row 9: the first-fire dummy check adds one per dummy discovered so far, as the
    dummy check of 3.3.1 does (default), or is a bare roll (README ledger, 3.3.2 row 9)."""
    aaa_attacks_per_mp: Annotated[int, Meta(ge=0, le=10)] = 1
    """How many attack rolls a AAA concentration makes on one US flight between two of the
    flight's Movement Points, its Flak Damage rolls following (2.1.7 "shoot at all ...
    units they are eligible to attack" bounds neither; a base-game value, default 1; 0:
    no bound, the player rolls as the base game asks; README ledger 2.1.7)."""
