"""Cases of 000_842c81c5c58bc2f6.txt worked by hand in the tenth session, with stated dice:
the edges no earlier test pinned (the 3.4.5 ranges the table does not print, the task
columns of options 1, 2, 3, 5 and 6 no test named, four 3.2.1 modifiers stacking in one
check). Each expected result comes from the seed's words (cited), not from the code.

Distances on the synthetic map: hexes of one column are as far apart as their rows; the
raid target (bridge) is 2021, downtown Hanoi 2021/2022/2122, Haiphong 2727.
"""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.downtown.setups import new_state, of, run
from umpire.engine.dice import ManualDice
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown import sam_activation
from umpire.engine.rulesets.downtown.state import Sam, UsFlight
from umpire.engine.rulesets.downtown.tables import sam_reaction
from umpire.engine.rulesets.downtown.tables.sam_reaction import FireMode
from umpire.engine.rulesets.downtown.terms import AcqLevel, Mission, Phase, Task
from umpire.engine.rulesets.downtown.turn import DowntownTurn


@pytest.mark.parametrize(
    ("level", "distance", "task"),
    [(AcqLevel.FULL, 1, Task.BOMBING), (AcqLevel.PARTIAL, 0, Task.SEAD)],
)
def test_3_4_5_a_flight_at_range_0_or_1_is_on_no_line_of_the_table(
    level: AcqLevel, distance: int, task: Task
) -> None:
    """3.4.5: option 1 begins at 'a Range of 2-3 hexes' and option 7 is 'greater than 8':
    no line is for range 0 or 1, so going down the list 'until an instruction applies'
    finds none and the SAM does nothing (README ledger 3.4.5), even at a fully acquired
    bombing flight."""
    option, fire = sam_reaction.react(level, distance, task)
    assert option is None and fire is FireMode.NOTHING


@pytest.mark.parametrize(
    ("level", "distance", "task", "option", "fire"),
    [
        # 1: 'Fire a Salvo' whatever the task, Recon too.
        (AcqLevel.FULL, 3, Task.RECON, 1, FireMode.SALVO),
        # 2: a salvo only at Bombing, SEAD or Armed Escort, 'otherwise fire one SAM'.
        (AcqLevel.PARTIAL, 4, Task.RECON, 2, FireMode.ONE),
        # 3: Fully acquired at 6: 'Fire one SAM if … SEAD or Armed Escort'.
        (AcqLevel.FULL, 6, Task.ARMED_ESCORT, 3, FireMode.ONE),
        # 5: Fully acquired at 7-8: one SAM at Bombing, SEAD or Armed Escort.
        (AcqLevel.FULL, 8, Task.SEAD, 5, FireMode.ONE),
        # 6: Partially acquired at 7-8: one SAM 'if the target is tasked with Bombing.
        # Otherwise do nothing', so not at an Armed Escort flight.
        (AcqLevel.PARTIAL, 7, Task.ARMED_ESCORT, 6, FireMode.NOTHING),
    ],
)
def test_3_4_5_task_columns_no_earlier_row_named(
    level: AcqLevel, distance: int, task: Task, option: int, fire: FireMode
) -> None:
    """3.4.5 SAM Reaction Table, read line by line for the tasks each line names."""
    opt, mode = sam_reaction.react(level, distance, task)
    assert opt is not None and opt.option == option and mode is fire


def test_3_2_1_four_acq_modifiers_stack_and_the_check_places_one_sam() -> None:
    """3.2.1, SAM Acquisition Phase, November 1966, BSAN 3: the date (-1), two pre-emptive
    ARMs (-1 each: -2), the only raid bomber 13 hexes from the target and from downtown
    (0721, 'more than 12': -2), and no US flight within 10 hexes of either (-2) stack to -7.
    A roll of 9 becomes 2: positive and at most the BSAN, one SAM; the unmodified 9 is not
    within the BSAN, so not two."""
    bomber = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="0721", bomber=True)
    state = msgspec.structs.replace(
        new_state(year=1966, month=11, sam_battalions_in_reserve=3),
        phase=Phase.SAM_ACQUISITION,
        turn=1,
        us=(bomber,),
        preemptive_arms=2,
    )
    turn = DowntownTurn(state, ManualDice([[9]], 0))
    mods = dict(sam_activation.modifiers(turn.state, turn, Phase.SAM_ACQUISITION))
    assert mods == {
        "early_date": -1,
        "preemptive_arm": -2,
        "bombers_over_12": -2,
        "none_within_10": -2,
    }
    sam_activation.hidden_check(turn, Phase.SAM_ACQUISITION)
    (checked,) = of(turn.events, ev.SamActivationChecked)
    assert (checked.unmodified, checked.modified, checked.count) == (9, 2, 1)


def test_1_2_1_a_report_of_the_us_side_is_said_as_read_off_the_map() -> None:
    """1.2.1: the player plays the US side and reports it. Found playing a raid through the
    CLI: the log printed the report as a list of field maps ('flights: [{id: S1, mission:
    strike, …}]'). It reads as the map does, in the seed's words ('Iron Hand', 'SEAD',
    'CAP'), flights in id order, an undetected one said so, ARMs counted."""
    state = msgspec.structs.replace(new_state(), phase=Phase.DETECTION, turn=1)
    flights = [
        {"id": "W1", "mission": "iron_hand", "task": "sead", "hex": "0620", "detected": False},
        {"id": "S1", "mission": "strike", "task": "bombing", "hex": "0520", "facing": 1},
        {"id": "C1", "mission": "cap", "task": "cap", "hex": "0320", "on_map": False},
    ]
    _, events = run(state, {"type": "ReportUsFlights", "flights": flights, "preemptive_arms": 1})
    (reported,) = of(events, ev.UsFlightsReported)
    assert reported.explanation == (
        "US flights: C1 (CAP) off the map; S1 (Strike, Bombing) in 0520, medium, facing NE; "
        "W1 (Iron Hand, SEAD, undetected) in 0620, medium, facing N; 1 preemptive ARM fired"
    )


def test_3_4_4_a_us_flights_movement_point_is_said_as_read_off_the_map() -> None:
    """3.4.4: each Movement Point a US flight spends is a point where SAMs react. Found
    playing a raid through the CLI: the log printed it as fields ('US flight moved (flight
    id: S1, hex: 0620, altitude: medium, facing: 1)'); it reads as the map does."""
    state = msgspec.structs.replace(
        new_state(),
        phase=Phase.MOVEMENT,
        turn=1,
        us=(UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="0520"),),
    )
    move = {"type": "MoveUsFlight", "flight_id": "S1", "hex": "0620", "altitude": "medium",
            "facing": 1}  # fmt: skip
    _, events = run(state, move, [])
    (moved,) = of(events, ev.UsFlightMoved)
    assert moved.explanation == "S1 spends a Movement Point: in 0620, medium, facing NE"


def test_3_3_1_a_set_up_sams_modifiers_are_said_one_by_one() -> None:
    """3.3.1, Admin Phase: located SAM9 at 0510; its nearest US flight, S1 bombing in 0520,
    is 10 hexes away: +2 for a bombing flight within 12 (not within 8 or 5). A roll of 9
    is 11: possible activation (10 or more), then the 3.3.2 Dummy Check. Found playing
    through the CLI: the modifiers ran into the roll ('roll 9 bombing within 12 +2 = 11');
    each is set off by a comma."""
    state = msgspec.structs.replace(
        new_state(),
        phase=Phase.ADMIN,
        turn=1,
        us=(UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="0520"),),
        sams=(Sam(id="SAM9", hex="0510"),),
    )
    turn = DowntownTurn(state, ManualDice([[9], [8, 6]], 0))
    sam_activation.setup_check(turn, Phase.ADMIN)
    rolled = {e.sam_id: e for e in of(turn.events, ev.SetUpSamRolled)}
    assert "roll 9, bombing within 12 +2 = 11: possible activation" in rolled["SAM9"].explanation
