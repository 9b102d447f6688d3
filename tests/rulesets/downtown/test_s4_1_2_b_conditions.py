"""4.1.2 (b): "If the moving flight is detected and any hex within 2 to 5 hexes from the
moving flight meets all conditions to place a SAM battalion counter, place a SAM Warning
counter ... (This option is available only from 1967)"; and 3: on a 'MiG day' "no SAM is
allowed to be activated". Each condition, worked by hand on the same Event!: S1 (Strike)
in 1423, within 12 of Hanoi, not within 2 of the raid target; A1 three hexes away
(`aaa_range` 3), so no Fire Can host lies within 2 hexes for option (a). A1's Flak Damage
roll (1, 1) is a double: the random event roll 10 is Event!."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from tests.rulesets.downtown.setups import FLAK_DUE, drv_attack, new_state, of, run
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.state import AaaUnit, UsFlight
from umpire.engine.rulesets.downtown.terms import Mission, Phase, Task


def _event(detected: bool = True, **setup: Any) -> list[msgspec.Struct]:
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="1423",
                  detected=detected)  # fmt: skip
    state = msgspec.structs.replace(
        new_state(aaa_range=3, **setup), phase=Phase.MOVEMENT, turn=1, us=(s1,),
        aaa=(AaaUnit(id="A1", hex="1426", density="L"),), aaa_fire=(FLAK_DUE,),
    )  # fmt: skip
    _, events = run(state, drv_attack("A1", "flak_damage", "S1"), [[1, 1], [10]])
    return events


def test_from_1967_a_detected_flight_draws_a_sam_warning() -> None:
    """June 1967, S1 detected: option (b) places a SAM Warning counter 2-5 hexes away."""
    assert of(_event(), ev.SamPlaced)[0].row == "4.1.2b"


@pytest.mark.parametrize(
    ("why", "detected", "setup"),
    [
        ("December 1966: (b) only from 1967", True, {"year": 1966, "month": 12}),
        ("the moving flight is not detected", False, {}),
        ("a MiG day: no SAM is activated (3)", True, {"mig_day": True}),
    ],
)
def test_option_b_is_not_met(why: str, detected: bool, setup: dict[str, Any]) -> None:
    """By hand: no SAM Warning counter, and the Event! says neither option can be met."""
    events = _event(detected, **setup)
    assert not of(events, ev.SamPlaced), why
    options = [e for e in of(events, ev.DecisionMade) if e.topic == "event_option"]
    assert [e.result for e in options] == ["none"], why
