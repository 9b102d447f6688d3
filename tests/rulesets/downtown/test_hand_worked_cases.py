"""Rules of 000_842c81c5c58bc2f6.txt worked by hand with stated dice, as an outside reviewer
works them: each expected result comes from the seed's words (cited by rule number), not
from the code. These are the boundary rolls the other tests leave open: the last face of a
Dummy # range and the first above it, "half or less" with an odd pool, a roll equal to the
BSAN, the cumulative 3.3.1 modifiers at exactly 8 and 5 hexes, 00 read as 100."""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.downtown.setups import new_state, of, run
from umpire.engine.dice import ManualDice
from umpire.engine.rulesets.downtown import aaa, drv_movement, fire_can, sam_activation
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.situation import flight_limit
from umpire.engine.rulesets.downtown.state import AaaUnit, DrvFlight, Sam, State, UsFlight
from umpire.engine.rulesets.downtown.tables import air_activation, dummy_check
from umpire.engine.rulesets.downtown.terms import Mission, Phase, SamStatus, Task, Zone
from umpire.engine.rulesets.downtown.turn import DowntownTurn

STRIKE = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="1621", bomber=True)


def _aaa_pool(size: int) -> State:
    """A strike flight over land and `size` hidden AAA concentrations (2.1.5)."""
    return msgspec.structs.replace(
        new_state(),
        us=(STRIKE,),
        aaa=(AaaUnit(id="A0", hex="2021", density="L"),),
        aaa_pool=("L",) * size,
    )


@pytest.mark.parametrize(
    ("pool", "roll", "activations"),
    [(3, 1, 2), (3, 2, 1), (3, 3, 1), (3, 4, 0), (3, 10, 0), (2, 1, 2), (2, 2, 1), (1, 1, 1)],
)
def test_2_1_5_hidden_aaa_one_or_two(pool: int, roll: int, activations: int) -> None:
    """2.1.5: a roll at most the number of hidden concentrations activates one; a roll of
    half that number or less two. With 3 hidden, half is 1.5: only a 1 activates two; with
    2 hidden a 1 is exactly half; with 1 hidden a 1 is not half of it: one."""
    # then one 2.1.3 random pick from the pool for each concentration placed
    led = DowntownTurn(_aaa_pool(pool), ManualDice([[roll]] + [[1]] * activations, 0))
    aaa.admin_activation(led)
    (checked,) = of(led.events, ev.AaaActivationChecked)
    assert (checked.roll, checked.activations) == (roll, activations)


@pytest.mark.parametrize(("hidden", "roll", "placed"), [(3, 3, 1), (3, 4, 0), (1, 1, 1)])
def test_2_2_1_fire_can_roll_against_the_inactive_count(
    hidden: int, roll: int, placed: int
) -> None:
    """2.2.1: a roll less than or equal to the number of inactive Fire Cans activates one
    (and only one), which 2.3 row A puts in the target hex's AAA concentration."""
    state = msgspec.structs.replace(_aaa_pool(0), hidden_fire_cans=hidden)
    led = DowntownTurn(state, ManualDice([[roll]], 0))
    fire_can.admin_activation(led)
    assert of(led.events, ev.FireCanActivationChecked)[0].activations == placed
    assert len(led.state.fire_cans) == placed


@pytest.mark.parametrize(
    ("unmodified", "modified", "bsan", "acq", "count"),
    [
        (3, 2, 3, False, 2),  # Admin: unmodified 3 is not greater than BSAN 3: 2 SAMs
        (4, 2, 3, False, 0),  # Admin: unmodified 4 > BSAN 3: none
        (3, 0, 3, False, 0),  # modified to zero: none
        (6, 6, 5, False, 0),  # Admin: 6 > BSAN 5 before modification: none
        (3, 1, 2, True, 1),  # Acq: modified 1 <= BSAN 2 but unmodified 3 is not: one SAM
        (1, -1, 2, True, 0),  # Acq: a negative modified roll: none
        (6, 6, 5, True, 0),  # Acq: modified 6 > BSAN 5: none
    ],
)
def test_3_2_1_activation_counts(
    unmodified: int, modified: int, bsan: int, acq: bool, count: int
) -> None:
    """3.2.1: zero or less switches none on. Acq: modified above the BSAN none; positive
    and at most the BSAN one; two when the unmodified roll is also within the BSAN (ledger
    reading). Admin: unmodified above the BSAN none; else the modified number."""
    assert sam_activation.activation_count(unmodified, modified, bsan, acq=acq) == count


def _located(flight_hex: str, task: Task) -> State:
    us = (UsFlight(id="F1", mission=Mission.CAP, task=task, hex=flight_hex),)
    return msgspec.structs.replace(new_state(), us=us, sams=(Sam(id="SAM1", hex="2021"),))


@pytest.mark.parametrize(
    ("flight_hex", "task", "phase", "roll", "total", "possible"),
    [
        # 8 hexes, a bombing flight, Admin: +2 (within 8) +2 (bombing within 12) = +4
        ("1221", Task.BOMBING, Phase.ADMIN, 6, 10, True),
        ("1221", Task.BOMBING, Phase.ADMIN, 5, 9, False),
        # 9 hexes, a bombing flight, Admin: only +2 (bombing within 12)
        ("1121", Task.BOMBING, Phase.ADMIN, 7, 9, False),
        # 5 hexes, a CAP flight, Acq: +2 +2 and the Acq line's -1 (ledger) = +3
        ("1521", Task.CAP, Phase.SAM_ACQUISITION, 7, 10, True),
        ("1521", Task.CAP, Phase.SAM_ACQUISITION, 6, 9, False),
        # 6 hexes, a recon-tasked flight, Admin: +2 (within 8) +2 (recon within 12)
        ("1421", Task.RECON, Phase.ADMIN, 6, 10, True),
    ],
)
def test_3_3_1_cumulative_modifiers_at_the_range_edges(
    flight_hex: str, task: Task, phase: Phase, roll: int, total: int, possible: bool
) -> None:
    """3.3.1: d10, 1-9 no activation, 10 possible activation, with the cumulative +2s."""
    faces = [[roll], [5, 5]] if possible else [[roll]]
    led = DowntownTurn(_located(flight_hex, task), ManualDice(faces, 0))
    sam_activation.setup_check(led, phase)
    (rolled,) = of(led.events, ev.SetUpSamRolled)
    assert (rolled.total, rolled.possible) == (total, possible)


def test_3_3_acq_phase_ignores_a_flight_13_hexes_away_admin_rolls_for_it() -> None:
    """3.3: roll if a US flight is within 12 hexes (15 in the Admin Phase)."""
    state = _located("0721", Task.BOMBING)  # 13 hexes from 2021
    led = DowntownTurn(state, ManualDice([], 0))
    sam_activation.setup_check(led, Phase.SAM_ACQUISITION)
    assert not of(led.events, ev.SetUpSamRolled)
    led = DowntownTurn(state, ManualDice([[10], [5, 5]], 0))
    sam_activation.setup_check(led, Phase.ADMIN)
    assert of(led.events, ev.SetUpSamRolled)[0].modifiers == ()


@pytest.mark.parametrize(
    ("faces", "found", "outcome"),
    [
        ([6, 3], 0, "possible_dummy_radar"),  # 9
        ([1, 1], 0, "possible_dummy"),  # 2
        ([4, 4], 2, "activates"),  # 8 + 2 dummies discovered = 10
    ],
)
def test_3_3_2_dummy_check_totals(faces: list[int], found: int, outcome: str) -> None:
    """3.3.2: two dice, +1 per dummy discovered so far: 8 or less possible dummy, 9
    possible dummy radar, 10 or more activates."""
    state = msgspec.structs.replace(
        new_state(dummy_sams=3, dummy_radars=3),
        sams=(Sam(id="SAM1", hex="2021"),),
        dummies_found=found,
    )
    led = DowntownTurn(state, ManualDice([faces], 0))
    sam_activation.run_dummy_check(led, led.state.sams[0])
    (check,) = of(led.events, ev.SamDummyChecked)
    assert check.total == sum(faces) + found and check.result == outcome
    assert dummy_check.result_for(sum(faces) + found).value == outcome


def _air() -> State:
    return msgspec.structs.replace(new_state(), phase="air_deployment")


@pytest.mark.parametrize(
    ("faces", "warning", "count"),
    [
        ([[5, 7]], "poor", "1"),  # 57: the last of D4's Dummy # 01-57: one flight
        ([[5, 8]], "poor", "2"),  # 58: greater than the Dummy #: two flights
        ([[5, 7]], "average", "2"),  # Average warning adds one
        ([[0, 0]], "good", "3"),  # 00 reads 100 (1.2.3): two, and Good adds one
    ],
)
def test_5_4_2_air_deployment_count(faces: list[list[int]], warning: str, count: str) -> None:
    """5.4.2 with D4 (Dummy # 01-57)."""
    cmd = {"type": "DeployDrvAir", "early_warning": warning, "placement": "in_the_air"}
    _state, events = run(_air(), cmd, [*faces, [1, 0]])  # then the 5.5.1 profile roll
    deployment = [e for e in of(events, ev.DecisionMade) if e.topic == "air_deployment"]
    assert deployment[0].result == count


def _moving(drv: tuple[DrvFlight, ...] = (), **kw: object) -> State:
    return msgspec.structs.replace(
        new_state(**kw), phase="movement", turn=1, movement_phases=1, drv=drv, us=(STRIKE,)
    )


@pytest.mark.parametrize(("faces", "takes_off"), [([5, 7], False), ([5, 8], True)])
def test_5_4_4_take_off_at_the_dummy_edge(faces: list[int], takes_off: bool) -> None:
    """5.4.4 with D4 (Dummy # 01-57): a 57 generates no flight, a 58 one."""
    _state, events = run(_moving(), {"type": "DrvChitPicked", "value": 1}, [faces])
    assert bool(of(events, ev.DrvFlightGenerated)) is takes_off


@pytest.mark.parametrize(("faces", "real"), [([5, 4], False), ([5, 5], True)])
def test_5_6_1_activation_check_in_d1(faces: list[int], real: bool) -> None:
    """5.6.1 with D1 (Dummy # 01-54): 54 reveals a dummy (removed), 55 a real flight."""
    state = msgspec.structs.replace(
        _moving((DrvFlight(id="M1", hex="1518"),), scenario="D1"), phase="detection"
    )
    state, events = run(state, {"type": "RunDetectionPhase", "detected": ["M1"]}, [faces])
    assert of(events, ev.ActivationChecked)[0].real is real
    assert bool(state.drv) is real


@pytest.mark.parametrize(
    ("roll", "profile", "count", "aircraft"),
    [
        (21, "", 4, "MiG17F"),  # D4 MiG17F 4x 21-40
        (40, "", 4, "MiG17F"),
        (41, "", 2, "MiG21PF"),  # D4 MiG21PF 2x 41-60
        (96, "", 3, "MiG21F-13"),  # D4 MiG21F-13 3x 91-96
        (100, "", 4, "MiG21F-13"),  # 00 = 100: 4x 97-100
        (72, "MiG21PF", 3, "MiG21PF"),  # a profile flight on its own row: as rolled
        (50, "MiG17F", 2, "MiG17F"),  # a profile flight off its row: 2 of its profile
    ],
)
def test_5_6_2_visual_identification_d4(roll: int, profile: str, count: int, aircraft: str) -> None:
    """5.6.2: the percentile roll in D4's 2x, 3x and 4x columns gives count and type; a flight
    with a flying profile takes the result only in its profile's row, else 2 of its type."""
    result = air_activation.visual_id(air_activation.scenario("D4"), roll, profile)
    assert (result.count, result.aircraft) == (count, aircraft)


@pytest.mark.parametrize(("visual_ids", "limit"), [(0, 6), (5, 1), (7, 1)])
def test_5_4_1_flights_limit_never_below_one(visual_ids: int, limit: int) -> None:
    """5.4.1: D4 Flights 6, less one per visually identified flight, never below 1."""
    state = msgspec.structs.replace(new_state(), visual_ids=visual_ids)
    assert flight_limit(state) == limit


@pytest.mark.parametrize(("drv_hex", "first"), [("1024", "DRV"), ("1025", "US")])
def test_5_1_engage_zone_at_three_hexes(drv_hex: str, first: str) -> None:
    """5.1 (2): from the second Movement Phase the DRV goes first with a flight in the
    Engage zone, within 3 hexes of a US flight (5.8.3); 4 hexes away the US goes first."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="1021", bomber=True)
    state = msgspec.structs.replace(
        new_state(),
        phase="sam_acquisition",
        turn=2,
        movement_phases=1,
        drv=(DrvFlight(id="M1", hex=drv_hex),),
        us=(s1,),
    )
    _, events = run(state, {"type": "RunSamAcquisitionPhase"}, [[9]])
    assert [e.result for e in of(events, ev.DecisionMade) if e.topic == "initiative"] == [first]


def test_3_3_set_up_sam_status_after_activation() -> None:
    """3.3.2: 10 or more: the SAM site activates (and stays active, 3.3.2)."""
    led = DowntownTurn(_located("1621", Task.BOMBING), ManualDice([[10], [9, 9]], 0))
    sam_activation.setup_check(led, Phase.ADMIN)
    assert led.state.sams[0].status is SamStatus.ACTIVE


@pytest.mark.parametrize(
    ("profile", "year", "month", "eligible"),
    [
        ("MiG21PF", 1967, 8, False),  # August 1967 itself is not "after August 1967"
        ("MiG21PF", 1967, 9, True),
        ("MiG19S", 1972, 1, True),
        ("MiG17F", 1972, 1, False),  # only MiG-19 and MiG-21 profiles
        ("", 1968, 1, False),  # no flying profile
    ],
)
def test_5_5_2_slash_attack_after_august_1967(
    profile: str, year: int, month: int, eligible: bool
) -> None:
    """5.5.2: a MiG-19 or MiG-21 flying profile qualifies a flight for the Slash Attack
    tactic after August 1967."""
    assert drv_movement.slash_attack_eligible(profile, year, month) is eligible


def _zone_of(drv_hex: str, detected: bool = True) -> Zone:
    us = (msgspec.structs.replace(STRIKE, hex="1021", detected=detected),)
    state = msgspec.structs.replace(new_state(), phase="movement", turn=1, us=us)
    led = DowntownTurn(state, ManualDice([], 0))
    return drv_movement.zone(led, DrvFlight(id="M1", hex=drv_hex))


@pytest.mark.parametrize(
    ("drv_hex", "detected", "zone"),
    [
        ("1024", True, Zone.ENGAGE),  # 3 hexes: "within a range of 3 hexes"
        ("1025", True, Zone.APPROACH),  # 4 hexes
        ("1031", True, Zone.APPROACH),  # 10 hexes: "within 10 hexes of a detected US flight"
        ("1032", True, Zone.TRANSIT),  # 11 hexes: "greater than 10 hexes"
        ("1025", False, Zone.TRANSIT),  # 4 hexes from an undetected flight
    ],
)
def test_5_8_zone_boundaries(drv_hex: str, detected: bool, zone: Zone) -> None:
    """5.8.1-5.8.3: Transit beyond 10 hexes of a detected US flight, Approach within 10,
    Engage within 3 of an enemy flight (ledger: detected or not)."""
    assert _zone_of(drv_hex, detected) is zone


@pytest.mark.parametrize(
    ("cap_hex", "target"),
    [("1025", "C1"), ("1027", "S1")],
)
def test_5_8_2_closest_detected_flight_then_task(cap_hex: str, target: str) -> None:
    """5.8.2: the closest detected US flight is the target; the task order (Bombing, SEAD,
    others) decides between flights equally close (ledger). From 1021: a CAP at 4 hexes is
    closer than the bomber at 6; a CAP at 6 ties with it and the bomber is taken."""
    bomber = msgspec.structs.replace(STRIKE, hex="1015")
    cap = UsFlight(id="C1", mission=Mission.CAP, task=Task.CAP, hex=cap_hex)
    state = msgspec.structs.replace(new_state(), phase="movement", turn=1, us=(bomber, cap))
    led = DowntownTurn(state, ManualDice([], 0))
    drv_movement.intent(led, DrvFlight(id="M1", hex="1021"))
    assert of(led.events, ev.MovementIntent)[0].target == target
