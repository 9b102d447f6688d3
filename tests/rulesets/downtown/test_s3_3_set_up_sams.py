"""3.3 activating set-up SAMs: the SAM Activation Table, its cumulative modifiers (worked
example), the ranges by phase, and the 3.3.2 SAM Dummy Check Table with its caps."""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.downtown.setups import SEED, new_state, of, rolls
from umpire.engine.dice import ManualDice
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown import sam_activation
from umpire.engine.rulesets.downtown.state import Sam, State, UsFlight
from umpire.engine.rulesets.downtown.tables import dummy_check
from umpire.engine.rulesets.downtown.tables import sam_activation as table
from umpire.engine.rulesets.downtown.terms import Mission, Phase, SamStatus, Task
from umpire.engine.rulesets.downtown.turn import DowntownTurn
from umpire.testing.support.seeds import seed_text


def _state(flight_hex: str, task: Task = Task.BOMBING, **kw: object) -> State:
    us = (UsFlight(id="S1", mission=Mission.STRIKE, task=task, hex=flight_hex),)
    return msgspec.structs.replace(new_state(), us=us, sams=(Sam(id="SAM1", hex="2021"),), **kw)


def test_table_and_modifiers_match_the_seed() -> None:
    """3.3.1: 1-9 no activation, 10 possible; +2 +2 +2 as printed, and the Acq line's "1"
    whose sign the bullet ate (test_s3_3_1_acq_phase_sign)."""
    text = seed_text(SEED)
    assert "1-9\tNo Activation" in text and "10\tPossible Activation" in text
    for m in table.SET_UP_MODIFIERS:
        printed = f"- {m.value:+d}" if m.key != "acq_phase" else f"- {abs(m.value)}"
        assert f"\n{printed} {m.text}" in text, m.key
    assert table.set_up_result(9) == "No Activation"
    assert table.set_up_result(10) == "Possible Activation"
    assert table.CHECK_RADIUS == {"acq": 12, "admin": 15, "radar": 15}


def test_example_admin_bombing_flight_at_4_is_plus_6() -> None:
    """3.3.1 EXAMPLE: Admin Phase, a Bombing-tasked flight at 4 hexes: +2 +2 +2 = +6; a 4
    becomes 10, a possible activation, and the Dummy Check (5 + 5 = 10) activates it."""
    led = DowntownTurn(_state("1721"), ManualDice([[4], [5, 5]], 0))
    sam_activation.setup_check(led, Phase.ADMIN)
    rolled = of(led.events, ev.SetUpSamRolled)[0]
    assert rolled.modifiers == ("within_8", "within_5", "bombing_within_12")
    assert (rolled.roll, rolled.total, rolled.possible) == (4, 10, True)
    check = of(led.events, ev.SamDummyChecked)[0]
    assert check.result == "activates" and led.state.sams[0].status is SamStatus.ACTIVE
    assert led.state.sams[0].radar_on


def test_ranges_by_phase() -> None:
    """3.3: 12 hexes in the Acq phase, 15 in Admin (flight 14 hexes away)."""
    led = DowntownTurn(_state("0721"), ManualDice([], 0))
    sam_activation.setup_check(led, Phase.SAM_ACQUISITION)
    assert not rolls(led.events)
    led = DowntownTurn(_state("0721"), ManualDice([[1]], 0))
    sam_activation.setup_check(led, Phase.ADMIN)
    assert of(led.events, ev.SetUpSamRolled)[0].total == 1


def test_drv_radar_phase_measures_from_the_entry_point() -> None:
    """3.3: in the DRV Radar Phase, SAMs within 15 of the entry point; entry modifiers only."""
    state = msgspec.structs.replace(
        new_state(), sams=(Sam(id="SAM1", hex="0524"), Sam(id="SAM2", hex="2421"))
    )
    led = DowntownTurn(state, ManualDice([[5]], 0))
    sam_activation.setup_check(led, Phase.DRV_RADAR)
    rolled = of(led.events, ev.SetUpSamRolled)
    assert [r.sam_id for r in rolled] == ["SAM1"]
    assert (
        rolled[0].modifiers == ("within_8", "within_5")
        and rolled[0].total == 9
        and not rolled[0].possible
    )


@pytest.mark.parametrize(
    ("total", "result"),
    [
        (2, "possible_dummy"),
        (8, "possible_dummy"),
        (9, "possible_dummy_radar"),
        (10, "activates"),
        (20, "activates"),
    ],
)
def test_dummy_check_rows(total: int, result: str) -> None:
    """3.3.2 rows: 8 or less, 9, 10 or more."""
    assert dummy_check.result_for(total).value == result


def test_dummy_check_rows_match_the_seed() -> None:
    text = seed_text(SEED)
    for label, _ in dummy_check.ROWS:
        assert f"\n{label}\tThe SAM" in text


def _dummy(state: State, faces: list[int]) -> DowntownTurn:
    led = DowntownTurn(state, ManualDice([faces], 0))
    sam_activation.run_dummy_check(led, led.state.sams[0])
    return led


def test_possible_dummy_twice_is_a_dummy_and_counts_for_later_checks() -> None:
    """3.3.2: 8 or less marks a possible dummy; again on its next check it is removed; each
    dummy found adds one to later checks."""
    led = _dummy(_state("1721"), [4, 4])
    assert led.state.sams[0].possible_dummy and led.state.sams[0].status is SamStatus.LOCATED
    led = _dummy(led.state, [3, 3])
    assert led.state.sams[0].status is SamStatus.REMOVED and led.state.dummies_found == 1
    state = msgspec.structs.replace(led.state, sams=(Sam(id="SAM2", hex="2022"),))
    led = _dummy(state, [4, 4])  # 8 + 1 = 9
    assert of(led.events, ev.SamDummyChecked)[0].total == 9
    assert led.state.sams[0].dummy_radar


def test_caps_turn_dummy_results_into_activation() -> None:
    """3.3.2: once the allowed dummies / dummy radars are generated, those results activate."""
    led = _dummy(_state("1721", dummies_generated=1), [2, 2])
    assert of(led.events, ev.SamDummyChecked)[0].outcome == "activates"
    led = _dummy(_state("1721", dummy_radars_generated=1), [4, 5])
    assert of(led.events, ev.SamDummyChecked)[0].outcome == "activates"
    assert not led.state.sams[0].dummy_radar
