"""Issue 41 item 8: a command whose job is done is not listed, and refused `nothing_to_do`.

5.4.4: only the first DRV chit of 1 or more in a game turn checks for a take-off; 4: a US
flight's end-of-movement roll is made once, and only where (a) or (b) of 4.1.2 applies;
2.1.7, 2.3.1: a unit reported suppressed or with its radar off stays so until the Admin
Phase. Before, each was listed again and accepted again, logging another decision.
"""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.downtown.setups import new_state, run
from umpire.engine.actions import legal_actions
from umpire.engine.errors import NothingToDo
from umpire.engine.roles import Role
from umpire.engine.rulesets.downtown import RULESET
from umpire.engine.rulesets.downtown.state import AaaUnit, State, UsFlight
from umpire.engine.rulesets.downtown.terms import Mission, Phase, Task

S1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="1423")


def _moving(**changes: object) -> State:
    return msgspec.structs.replace(
        new_state(), phase=Phase.MOVEMENT, turn=1, movement_phases=1, us=(S1,), **changes
    )


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
