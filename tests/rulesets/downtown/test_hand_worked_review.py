"""More rules of 000_842c81c5c58bc2f6.txt worked by hand with stated dice, by a fresh
reviewer: each expected result comes from the seed's words (cited by rule number), not from
the code. They cover what test_hand_worked_cases leaves open: the 3.2.1 date and 10-hex
edges and an Admin check with no raid bomber, the 3.3 ranges at exactly 12 and 15 hexes,
2.1.4's adjacent step, 2.3 row B's tie-breaks, 3.4.3 row B in 1972, 5.4.1's removal order,
5.4.5's parent, the throttle of 5.8.2 and 5.9.1 at their fuel edges.

Distances on the synthetic map: hexes of one column are as far apart as their rows; the
raid target (bridge) is 2021, downtown Hanoi 2021/2022/2122, Haiphong 2727.
"""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.downtown.setups import FLAK_DUE, new_state, of, run
from umpire.engine.dice import ManualDice
from umpire.engine.rulesets.downtown import (
    aaa,
    drv_air,
    drv_movement,
    fire_can,
    flight_activation,
    sam_activation,
    sam_behaviour,
)
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.state import AaaUnit, DrvFlight, Sam, State, UsFlight
from umpire.engine.rulesets.downtown.terms import (
    AcqLevel,
    Altitude,
    FlightStatus,
    Mission,
    Phase,
    SamStatus,
    Task,
)
from umpire.engine.rulesets.downtown.turn import DowntownTurn


def _strike(hex_: str, fid: str = "S1") -> UsFlight:
    return UsFlight(id=fid, mission=Mission.STRIKE, task=Task.BOMBING, hex=hex_, bomber=True)


def _cap(hex_: str, fid: str = "C1") -> UsFlight:
    return UsFlight(id=fid, mission=Mission.CAP, task=Task.CAP, hex=hex_)


def _turn(state: State, faces: list[list[int]] | None = None) -> DowntownTurn:
    return DowntownTurn(state, ManualDice(faces or [], 0))


def _mods(state: State, phase: Phase) -> dict[str, int]:
    led = _turn(state)
    return dict(sam_activation.modifiers(led.state, led, phase))


@pytest.mark.parametrize(("year", "month", "early"), [(1966, 12, True), (1967, 1, False)])
def test_3_2_1_the_early_date_line_ends_with_december_1966(
    year: int, month: int, early: bool
) -> None:
    """3.2.1: -1 in both columns when the date is Jan 1965-Dec 1966: December 1966 takes it,
    January 1967 does not. A raid bomber 2 hexes from the target adds nothing else."""
    state = msgspec.structs.replace(new_state(year=year, month=month), us=(_strike("2019"),))
    mods = _mods(state, Phase.ADMIN)
    assert mods == ({"early_date": -1} if early else {})


@pytest.mark.parametrize(("cap_hex", "minus_two"), [("2011", False), ("2010", True)])
def test_3_2_1_a_flight_exactly_10_hexes_away_is_within_10(cap_hex: str, minus_two: bool) -> None:
    """3.2.1: -2 when no US flight is within 10 hexes of the target or downtown. A CAP flight
    at 2011 is 10 hexes from the target 2021 (and 12 from downtown 2122): within 10, no -2.
    At 2010 it is 11 from the target, 12 from 2022: the -2 applies. (The 1968 raid bomber
    is 13 hexes west of the target, at 0721: -2 for more than 12.)"""
    state = msgspec.structs.replace(
        new_state(year=1968, month=1), us=(_strike("0721"), _cap(cap_hex))
    )
    mods = _mods(state, Phase.ADMIN)
    assert mods.get("none_within_10") == (-2 if minus_two else None)
    assert mods["bombers_over_12"] == -2


def test_3_2_1_admin_with_no_raid_bomber_on_the_map() -> None:
    """3.2.1 Admin column: no raid bomber on the map is -5 (the distance rows measure a bomber
    flight, so they do not apply); a CAP flight 16 hexes out leaves none within 10: -2.
    Total -7. BSAN 7 and a roll of 7: the unmodified 7 is not above the BSAN, the modified
    0 is not positive: no SAM switches on."""
    state = msgspec.structs.replace(
        new_state(year=1968, month=1, sam_battalions_in_reserve=7),
        phase="admin",
        turn=1,
        us=(_cap("2005"),),
    )
    assert _mods(state, Phase.ADMIN) == {"no_bombers": -5, "none_within_10": -2}
    led = _turn(state, [[7]])
    sam_activation.hidden_check(led, Phase.ADMIN)
    (checked,) = of(led.events, ev.SamActivationChecked)
    assert (checked.unmodified, checked.modified, checked.count) == (7, 0, 0)
    assert led.state.hidden_sams == 7


@pytest.mark.parametrize(
    ("flight_hex", "phase", "rolls"),
    [
        ("2033", Phase.SAM_ACQUISITION, True),  # 12 hexes: "within 12 hexes"
        ("2034", Phase.SAM_ACQUISITION, False),  # 13
        ("2036", Phase.ADMIN, True),  # 15 hexes: "15 hexes if rolling in the Admin Phase"
        ("2037", Phase.ADMIN, False),  # 16
    ],
)
def test_3_3_a_located_sam_rolls_at_exactly_12_and_15_hexes(
    flight_hex: str, phase: Phase, rolls: bool
) -> None:
    """3.3: each located SAM not yet active rolls if a US flight is within 12 hexes (15 in
    the Admin Phase); a CAP flight at exactly the range rolls (a 1: no activation), one hex
    farther does not roll."""
    state = msgspec.structs.replace(
        new_state(), us=(_cap(flight_hex),), sams=(Sam(id="SAM1", hex="2021"),)
    )
    led = _turn(state, [[1]] if rolls else [])
    sam_activation.setup_check(led, phase)
    assert bool(of(led.events, ev.SetUpSamRolled)) is rolls


def test_2_1_4_the_adjacent_step_starts_with_the_lowest_density_target() -> None:
    """2.1.4: 6 bought, 3 set up now. Neither target hex holds flak (the printed
    concentration is in 2022, beside the bridge), so the first two go to the targets, the
    closest to an entry arrow first (both 15 hexes: bridge, then yard). The third goes
    beside a target, starting with the one under the lowest-density barrage zone: the yard
    (Medium) before the bridge (Heavy, Hanoi)."""
    state = msgspec.structs.replace(new_state(), aaa_pool=("L",) * 6)
    led = _turn(state, [[1]] * 3)  # 2.1.3 hidden random picks from the pool
    aaa.deploy_initial(led)
    placed = [e.hex for e in of(led.events, ev.AaaPlaced)]
    assert placed[:2] == ["2021", "2316"]
    assert len(placed) == 3 and led.board.dist("2316", placed[2]) == 1


def test_2_3_row_b_ties_on_the_target_go_to_the_hex_nearer_a_flight() -> None:
    """2.3 row B: a Strike flight (2028) within 10 hexes of the target, not within 5 (row A
    fails), and a Recon flight (2013, 8 hexes out) each within 2 hexes of a AAA hex. 2015
    and 2027 are both 6 hexes from the target; 2027 is 1 hex from a flight, 2015 two: the
    Fire Can goes to 2027."""
    state = msgspec.structs.replace(
        new_state(),
        us=(
            _strike("2028"),
            UsFlight(id="R1", mission=Mission.RECON, task=Task.RECON, hex="2013"),
        ),
        aaa=(AaaUnit(id="A1", hex="2015", density="L"), AaaUnit(id="A2", hex="2027", density="L")),
        hidden_fire_cans=1,
    )
    led = _turn(state)
    assert fire_can.deploy_from_table(led)
    (placed,) = of(led.events, ev.FireCanPlaced)
    assert placed.hex == "2027" and placed.rule.endswith("row B")


@pytest.mark.parametrize(("year", "row"), [(1968, "H"), (1972, "C")])
def test_3_4_3_row_b_is_3_hexes_from_1972(year: int, row: str) -> None:
    """3.4.3 row B: a SAM drops an acquired flight within 5 hexes of a DRV flight (3 hexes
    for 1972 or later). The acquired flight (2025, 4 hexes from the SAM) has a MiG 4 hexes
    away. In 1968 the SAM drops it and goes directly to F; F fails (a DRV flight is within 5
    of the bomber), G fails (no SEAD flight), and H tries to acquire the nearest flight
    within 5 hexes: the same bomber, afresh. In 1972 the MiG is not within 3: row C keeps
    tracking it."""
    sam = Sam(id="SAM1", hex="2021", status=SamStatus.ACTIVE, radar_on=True, target="S1",
              level=AcqLevel.FULL)  # fmt: skip
    state = msgspec.structs.replace(
        new_state(year=year, month=6),
        us=(_strike("2025"),),
        sams=(sam,),
        drv=(DrvFlight(id="M1", hex="2029"),),
    )
    led = _turn(state)
    sam_behaviour.acquire(led, led.state.sams[0])
    decided = of(led.events, ev.SamAcquisitionDecided)[-1]
    assert (decided.row, decided.target) == (row, "S1")


def test_5_4_1_over_the_limit_the_farthest_from_a_strike_flight_goes_first() -> None:
    """5.4.1: D4's Flights 6, less 4 visually identified flights: 2. Three generic counters
    at 1, 9 and 19 hexes from the Strike flight (1621): the one 19 hexes away is removed.
    With only a CAP flight on the map, distance is measured from the strike mission's
    entry hex (west, 0520) instead: the counter farthest from it goes."""
    drv = (
        DrvFlight(id="M1", hex="1620"),
        DrvFlight(id="M2", hex="1630"),
        DrvFlight(id="M3", hex="1640"),
    )
    state = msgspec.structs.replace(new_state(), drv=drv, us=(_strike("1621"),), visual_ids=4)
    led = _turn(state)
    flight_activation.enforce_limit(led)
    assert [e.flight_id for e in of(led.events, ev.DrvFlightRemoved)] == ["M3"]
    far_west = (DrvFlight(id="M1", hex="0521"), DrvFlight(id="M2", hex="0530"),
                DrvFlight(id="M3", hex="3020"))  # fmt: skip
    state = msgspec.structs.replace(state, drv=far_west, us=(_cap("1621"),))
    led = _turn(state)
    flight_activation.enforce_limit(led)
    assert [e.flight_id for e in of(led.events, ev.DrvFlightRemoved)] == ["M3"]


def test_5_4_5_an_admin_flight_joins_the_undetected_parent_nearest_a_us_flight() -> None:
    """5.4.5 with D4 (Dummy # 01-57): a 58 generates a flight in the air with an existing
    undetected generic flight, the one closest to a US flight. M3 (1 hex from the Strike
    flight) is detected and cannot be a parent; M2 (3 hexes) is nearer than M1 (9): the new
    flight appears in 1624 with M2's altitude."""
    drv = (
        DrvFlight(id="M1", hex="1630"),
        DrvFlight(id="M2", hex="1624", altitude=Altitude.LOW),
        DrvFlight(id="M3", hex="1622", detected=True),
    )
    state = msgspec.structs.replace(
        new_state(), phase="admin", turn=1, drv=drv, us=(_strike("1621"),)
    )
    led = _turn(state, [[5, 8]])
    drv_air.admin_generation(led)
    (made,) = of(led.events, ev.DrvFlightGenerated)
    assert (made.hex, made.altitude) == ("1624", "low")


@pytest.mark.parametrize(("fuel", "throttle"), [(2, "dash"), (1, "combat")])
def test_5_8_2_approach_dashes_with_at_least_2_fuel_points(fuel: int, throttle: str) -> None:
    """5.8.2: an Approach flight (6 hexes from a detected Strike flight) uses dash throttle
    if it has at least 2 fuel points remaining: 2 dashes, 1 does not."""
    state = msgspec.structs.replace(new_state(), phase="movement", turn=1, us=(_strike("1027"),))
    led = _turn(state)
    plan = drv_movement.intent(led, DrvFlight(id="M1", hex="1021", fuel=fuel))
    assert (plan.zone.value, plan.throttle) == ("approach", throttle)


@pytest.mark.parametrize(("fuel", "throttle"), [(1, "dash"), (0, "combat")])
def test_5_9_1_an_aborting_flight_dashes_with_any_fuel(fuel: int, throttle: str) -> None:
    """5.9.1: an aborting flight heads for a China Buffer Zone map edge and uses dash
    throttle if it has any fuel points remaining: 1 dashes, 0 does not."""
    state = msgspec.structs.replace(new_state(), phase="movement", turn=1, us=(_strike("1027"),))
    led = _turn(state)
    flight = DrvFlight(id="M1", hex="1021", fuel=fuel, status=FlightStatus.ABORTING)
    plan = drv_movement.intent(led, flight)
    assert plan.throttle == throttle


@pytest.mark.parametrize(
    ("faces", "words"),
    [
        (
            [5, 7],
            "roll 57 vs Dummy # 01-57: in the Dummy range, no flight takes off this game turn",
        ),
        ([5, 8], "roll 58 vs Dummy # 01-57: greater, one flight takes off"),
    ],
)
def test_5_4_4_the_take_off_check_says_what_it_decided(faces: list[int], words: str) -> None:
    """5.4.4 with D4: the check's words give its outcome, not only the roll and the range;
    a flight that takes off says where its counter goes (the open airfield nearest the
    strike mission's entry hex 0520: Field North, 1918, on the Deck)."""
    state = msgspec.structs.replace(
        new_state(), phase="movement", turn=1, movement_phases=1, us=(_strike("1621"),)
    )
    _state, events = run(state, {"type": "DrvChitPicked", "value": 1}, [faces])
    check = [e for e in of(events, ev.DecisionMade) if e.topic == "takeoff_check"]
    assert check[0].explanation == words
    for made in of(events, ev.DrvFlightGenerated):
        assert made.explanation.startswith(f"generic flight {made.flight_id} in {made.hex}, deck")


def test_5_4_3_a_flight_placed_in_the_air_names_its_hex_altitude_and_facing() -> None:
    """5.4.3: flights set up in the air are at Low, 10 hexes from the entry hex; the words
    the player reads name the hex, the band and the facing of the counter to place."""
    state = msgspec.structs.replace(new_state(), phase="air_deployment")
    cmd = {"type": "DeployDrvAir", "early_warning": "poor", "placement": "in_the_air"}
    _state, events = run(state, cmd, [[1, 0], [1, 0]])  # 10: one flight; 10: no profile
    (made,) = of(events, ev.DrvFlightGenerated)
    assert made.explanation.startswith(
        f"generic flight {made.flight_id} in {made.hex}, low, facing {made.facing}: in the air"
    )


def test_3_3_2_an_activation_is_said_once_and_the_radar_phase_names_the_entry_point() -> None:
    """3.3 in the DRV Radar Phase measures from the raid's entry point (not the nearest of
    all entry arrows), and 3.3.2's 'SAM site activates' reads once when nothing turned it
    into another result. SAM at 0527 is 7 hexes from the raid entry 0520: +2; a 10 makes 12,
    a possible activation; the Dummy Check 5 + 6 = 11 activates."""
    state = msgspec.structs.replace(new_state(), sams=(Sam(id="SAM1", hex="0527"),))
    led = _turn(state, [[10], [5, 6]])
    sam_activation.setup_check(led, Phase.DRV_RADAR)
    (rolled,) = of(led.events, ev.SetUpSamRolled)
    assert rolled.explanation.startswith("SAM1: the raid entry point 7 hexes; roll 10")
    (checked,) = of(led.events, ev.SamDummyChecked)
    assert checked.explanation == "SAM1: 11 + 0 dummies found = 11: Activates"


def test_4_1_2_b_a_loal_attack_cites_the_event_table_and_says_no_acquisition() -> None:
    """4.1.2 (b): a double (1, 1) on a Flak Damage roll near Hanoi calls an event; the
    Solitaire Random Events roll of 10 is 'Event!'; no Fire Can host within 2 hexes, so a
    SAM Warning counter is placed 2-5 hexes away and makes a LOAL attack. Its roll (3, 4:
    no double, no further event) is read as a LOAL attack under 4.1.2, launched without an
    acquisition (the SAM Reaction Table, 3.4.5, did not order it)."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="1423")
    state = msgspec.structs.replace(
        new_state(aaa_range=3),
        phase="movement",
        turn=1,
        us=(s1,),
        aaa=(AaaUnit(id="A1", hex="1426", density="L"),),
        aaa_fire=(FLAK_DUE,),
    )
    flak = {"type": "RollDrvAttack", "unit_id": "A1", "flight_id": "S1", "kind": "flak_damage"}
    state, events = run(state, flak, [[1, 1], [10]])
    sam_id = of(events, ev.SamPlaced)[0].sam_id
    loal = {"type": "RollDrvAttack", "unit_id": sam_id, "flight_id": "S1", "kind": "sam_attack"}
    _state, events = run(state, loal, [[3, 4]])
    (rolled,) = of(events, ev.DrvAttackRolled)
    assert rolled.rule.endswith(" 4.1.2") and "3.4.5" not in rolled.rule
    assert rolled.explanation.endswith(
        "SAM LOAL attack (4.1.2 b), one SAM, launched without an acquisition"
    )


@pytest.mark.parametrize(("drv_hex", "altitude"), [("2022", "deck"), ("2030", "low")])
def test_5_9_4_a_deck_flight_in_a_barrage_zone_does_not_climb(drv_hex: str, altitude: str) -> None:
    """5.8.2 with 5.9.4: an Approach flight on the Deck climbs toward its target's band at
    most one band a turn (a Strike flight at Medium, 4 hexes away: Low), but not while it is
    in a AAA barrage zone: from 2022 (the Hanoi barrage) it stays on the Deck; from 2030,
    outside any barrage, it climbs to Low."""
    strike = msgspec.structs.replace(_strike("2026"), altitude=Altitude.MEDIUM)
    state = msgspec.structs.replace(new_state(), phase="movement", turn=1, us=(strike,))
    plan = drv_movement.intent(_turn(state), DrvFlight(id="M1", hex=drv_hex))
    assert (plan.zone.value, plan.altitude) == ("approach", altitude)
