"""Issue 41 item 8: a command whose job is done is not listed, and refused `nothing_to_do`.

5.4.4: only the first DRV chit of 1 or more in a game turn checks for a take-off; 4: a US
flight's end-of-movement roll is made once, and only where (a) or (b) of 4.1.2 applies;
2.1.7, 2.3.1: a unit reported suppressed or with its radar off stays so until the Admin
Phase. Before, each was listed again and accepted again, logging another decision.

1.2.1, 3.4.2, 5.9.1: a report that restates what the game holds (the US side, a SAM's
acquisition, a DRV flight's status and fuel) is refused too, and the listed schema's `not`
leaves it out; 5.8.2: PlanDrvFlight, a preview the move did not use, is not offered; 3.4.4:
an MP a US flight spends where it stands is in the state (SAMs react to it). Before, each
was declared exempt (a `Testing` field since removed) and accepted, changing nothing.
"""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.downtown.setups import flight, new_state, run
from tests.support.gateway_games import create_bound
from umpire.engine.actions import legal_actions
from umpire.engine.errors import NothingToDo
from umpire.engine.roles import Role
from umpire.engine.rulesets.downtown import RULESET
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
from umpire.engine.schemas import accepts
from umpire.server.games import Games

S1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="1423")


def _moving(**changes: object) -> State:
    state = msgspec.structs.replace(
        new_state(), phase=Phase.MOVEMENT, turn=1, movement_phases=1, us=(S1,)
    )
    return msgspec.structs.replace(state, **changes)


def _listed(state: State) -> dict[str, dict[str, object]]:
    return {a.type: a.schema for a in legal_actions(RULESET, state, Role.PLAYER, ended=False)}


def test_5_4_4_a_chit_after_the_take_off_check_is_not_listed_and_changes_nothing() -> None:
    state = _moving()
    chit = _listed(state)["DrvChitPicked"]
    assert chit["properties"]["value"]["minimum"] == 1  # type: ignore[index]
    with pytest.raises(NothingToDo, match="chit of 0"):
        run(state, {"type": "DrvChitPicked", "value": 0}, [])
    checked, _ = run(state, {"type": "DrvChitPicked", "value": 3}, [[1, 1]])
    assert checked.takeoff_checked and "DrvChitPicked" not in _listed(checked)
    with pytest.raises(NothingToDo, match="take-off check was made"):
        run(checked, {"type": "DrvChitPicked", "value": 3}, [])


def test_4_the_end_of_movement_roll_is_listed_once_and_refused_after() -> None:
    state = _moving()
    ending = _listed(state)["EndUsFlightMovement"]
    assert ending["properties"]["flight_id"]["enum"] == ["S1"]  # type: ignore[index]
    rolled, _ = run(state, {"type": "EndUsFlightMovement", "flight_id": "S1"}, [[3]])
    assert "EndUsFlightMovement" not in _listed(rolled)
    with pytest.raises(NothingToDo, match="had a random event"):
        run(rolled, {"type": "EndUsFlightMovement", "flight_id": "S1"}, [])


def test_2_1_7_a_suppressed_aaa_is_not_offered_for_suppression_again() -> None:
    state = _moving(aaa=(AaaUnit(id="A1", hex="1424", density="L"),))
    report = {"type": "ReportUnitStatus", "unit_id": "A1", "status": "suppressed"}
    suppressed, _ = run(state, report, [])
    assert suppressed.aaa[0].suppressed
    assert "ReportUnitStatus" not in _listed(suppressed)  # no radar on either
    with pytest.raises(NothingToDo, match="suppressed already"):
        run(suppressed, report, [])


def test_1_2_1_a_flight_reported_twice_is_outside_the_listed_schema() -> None:
    flights = _listed(_moving())["ReportUsFlights"]["properties"]["flights"]  # type: ignore[index]
    assert flights["uniqueItems"] is True
    assert flights["allOf"] == [
        {"contains": {"properties": {"id": {"const": "S1"}}}, "minContains": 0, "maxContains": 1}
    ]


def _listed_schema(state: State, kind: str) -> dict[str, object]:
    """The listed schema of `kind` as a client receives it (enums as their values)."""
    schema = _listed(state)[kind]
    decoded: dict[str, object] = msgspec.json.decode(msgspec.json.encode(schema))
    return decoded


def _refused_and_left_out(state: State, command: dict[str, object], match: str) -> None:
    """Refused `nothing_to_do`, and outside the listed schema of its (listed) type."""
    with pytest.raises(NothingToDo, match=match):
        run(state, command, [])
    assert not accepts(_listed_schema(state, str(command["type"])), command)


def _accepted_and_listed(state: State, command: dict[str, object]) -> State:
    assert accepts(_listed_schema(state, str(command["type"])), command)
    after, events = run(state, command, [])
    assert events and after != state
    return after


S1_REPORT = {"id": "S1", "mission": "strike", "task": "bombing", "hex": "1423"}
IH1 = UsFlight(id="IH1", mission=Mission.IRON_HAND, task=Task.SEAD, hex="1321", facing=2)
IH1_REPORT = flight("IH1", "iron_hand", "sead", "1321", altitude="medium", facing=2)


def test_1_2_1_a_report_of_the_us_side_as_it_stands_is_refused_and_left_out() -> None:
    state = _moving(us=(S1, IH1), preemptive_arms=1)
    # The same flights in another order, defaults given or left out: nothing changes.
    same = {"type": "ReportUsFlights", "flights": [IH1_REPORT, S1_REPORT], "preemptive_arms": 1}
    _refused_and_left_out(state, same, "restates the US side as it stands")
    given = {**S1_REPORT, "altitude": "medium", "detected": True}
    _refused_and_left_out(state, {**same, "flights": [given, IH1_REPORT]}, "restates")
    # A flight moved, left out, another ARM count: each changes the US side.
    moved = {**same, "flights": [IH1_REPORT, {**S1_REPORT, "hex": "1424"}]}
    assert _accepted_and_listed(state, moved).us[1].hex == "1424"
    assert _accepted_and_listed(state, {**same, "flights": [IH1_REPORT]}).us == (IH1,)
    assert _accepted_and_listed(state, {**same, "preemptive_arms": 0}).preemptive_arms == 0


def test_1_2_1_before_the_raid_an_empty_report_changes_nothing() -> None:
    state = new_state()
    _refused_and_left_out(state, {"type": "ReportUsFlights", "flights": []}, "flights none")
    arms = {"type": "ReportUsFlights", "flights": [], "preemptive_arms": 2}
    assert _accepted_and_listed(state, arms).preemptive_arms == 2


def _tracking(**changes: object) -> State:
    sam = Sam(id="SAM1", hex="1426", status=SamStatus.ACTIVE, radar_on=True, **changes)
    return _moving(sams=(sam,))


def test_3_4_2_an_acquisition_the_sam_holds_is_refused_and_left_out() -> None:
    state = _tracking(target="S1", level=AcqLevel.PARTIAL)
    report = {"type": "ReportAcquisition", "sam_id": "SAM1", "flight_id": "S1"}
    _refused_and_left_out(state, {**report, "level": "partial"}, "partial acquisition of S1")
    full = _accepted_and_listed(state, {**report, "level": "full"})
    assert full.sams[0].level is AcqLevel.FULL
    launched = _accepted_and_listed(state, {**report, "level": "partial", "launch": True})
    assert launched.sams[0].launch
    # With no acquisition, a result of none restates it, whichever flight it names.
    idle = _tracking()
    _refused_and_left_out(idle, {**report, "level": "none"}, "has no acquisition")
    # A SAM trying to acquire (umpire's 3.4.3 choice) loses the try on a result of none.
    trying = _tracking(target="S1")
    assert _accepted_and_listed(trying, {**report, "level": "none"}).sams[0].target == ""


def test_5_9_1_a_drv_flight_reported_as_it_stands_is_refused_and_left_out() -> None:
    m1 = DrvFlight(id="M1", hex="1004", status=FlightStatus.DISORDERED, fuel=3)
    state = _moving(drv=(m1,))
    report = {"type": "ReportDrvFlight", "flight_id": "M1"}
    same = {**report, "status": "disordered", "fuel": 3}
    _refused_and_left_out(state, same, "disordered with fuel 3 already")
    _refused_and_left_out(state, {**same, "destroyed": False}, "already")
    assert _accepted_and_listed(state, {**same, "fuel": 2}).drv[0].fuel == 2
    assert _accepted_and_listed(state, report).drv[0].status is FlightStatus.NORMAL
    assert _accepted_and_listed(state, {**same, "destroyed": True}).drv == ()


def test_5_8_2_a_drv_flight_s_intent_is_no_command_of_its_own() -> None:
    state = _moving(drv=(DrvFlight(id="M1", hex="1004"),))
    assert "PlanDrvFlight" not in _listed(state)
    assert "RunDrvMovement" in _listed(state)
    with pytest.raises(NothingToDo, match="read as it starts to move"):
        run(state, {"type": "PlanDrvFlight", "flight_id": "M1"}, [])


def test_3_4_4_an_mp_spent_where_the_flight_stands_is_in_the_state() -> None:
    state = _moving()
    stay = {"type": "MoveUsFlight", "flight_id": "S1", "hex": "1423", "altitude": "medium"}
    once, _ = run(state, {**stay, "facing": 0}, [])
    assert once.us == state.us and once.us_mp == ("S1",)
    twice, _ = run(once, {**stay, "facing": 0, "altitude": Altitude.MEDIUM.value}, [])
    assert twice.us_mp == ("S1", "S1")


async def test_1_2_1_a_restating_report_writes_nothing(games: Games) -> None:
    """Through the command path: the code is `nothing_to_do` and the log is unchanged."""
    gid = (await create_bound(games, "downtown", {}, "restate")).game_id
    report = {"type": "ReportUsFlights", "flights": [flight("S1", "strike", "bombing", "1423")]}
    await games.handle(gid, "first", report)
    before = await games.store.version(gid)
    with pytest.raises(NothingToDo, match="restates the US side") as info:
        await games.handle(gid, "again", report)
    assert info.value.code == "nothing_to_do"
    assert await games.store.version(gid) == before
