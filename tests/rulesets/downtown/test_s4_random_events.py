"""4 Solitaire random events: the table (4.1.1) with its worked example, the Event Options
Table (4.1.2), and the end-of-movement roll."""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.downtown.setups import FLAK_DUE, SEED, new_state, of, run
from umpire.engine.errors import NothingToDo
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.state import AaaUnit, Sam, State, UsFlight
from umpire.engine.rulesets.downtown.tables import solitaire_random_events as random_events
from umpire.engine.rulesets.downtown.terms import AcqLevel, Mission, SamStatus, Task
from umpire.testing.support.seeds import seed_text


def test_table_matches_the_seed() -> None:
    text = seed_text(SEED)
    assert "1-4\tInhibit SAM Options 1 and 2." in text
    assert "5-9\tInhibit SAM Option 2." in text
    assert "10\tEvent!" in text
    table = random_events.TABLE
    assert [table.row_for(r).value.inhibits for r in (1, 4, 5, 9)] == [(1, 2)] * 2 + [(2,)] * 2
    assert table.row_for(10).value.event
    # Cited as the logs always have: no "row", no comma.
    assert table.row_for(3).citation == f"{SEED} 4.1.1 Solitaire Random Events Table 1-4"
    assert table.row_for(10).citation == f"{SEED} 4.1.1 Solitaire Random Events Table 10"


def _example(dummy_radars_left: bool) -> State:
    cap = UsFlight(id="C1", mission=Mission.CAP, task=Task.CAP, hex="2024", facing=3)
    sam = Sam(
        id="SAM1",
        hex="2021",
        status=SamStatus.ACTIVE,
        radar_on=True,
        target="C1",
        level=AcqLevel.FULL,
    )
    return msgspec.structs.replace(
        new_state(dummy_radars=1),
        phase="movement",
        turn=1,
        us=(cap,),
        sams=(sam,),
        dummy_radars_generated=0 if dummy_radars_left else 1,
    )


@pytest.mark.parametrize("left", [False, True])
def test_worked_example_4_1_1(left: bool) -> None:
    """4.1.1 EXAMPLE: a fully acquired CAP flight moves 5 hexes from the SAM, which attacks
    by Option 2 and rolls a double 5; the random event die shows 3 (inhibit options 1 and
    2): the SAM is inhibited for the Movement Phase. It is its first shot of the game, but
    all dummy radars are deployed, so it is not converted (with one left, it would be)."""
    state, events = run(
        _example(left),
        {
            "type": "MoveUsFlight",
            "flight_id": "C1",
            "hex": "2026",
            "altitude": "medium",
            "facing": 3,
        },
        [],
    )
    reacted = of(events, ev.SamReacted)[0]
    assert (reacted.option, reacted.fire) == (2, "one")
    state, events = run(
        state,
        {"type": "RollDrvAttack", "unit_id": "SAM1", "flight_id": "C1", "kind": "sam_attack"},
        [[5, 5], [3]],
    )
    attack = of(events, ev.DrvAttackRolled)[0]
    assert attack.doubles and attack.random_event
    event = of(events, ev.RandomEventRolled)[0]
    assert event.roll == 3 and event.inhibits == (1, 2) and event.inhibited
    assert event.converted is left
    assert state.sams[0].inhibited == (1, 2)
    assert state.sams[0].dummy_radar is left


def test_doubles_ignored_far_from_target_and_cities_unless_acquired() -> None:
    """4.1.2: no response to doubles unless (a), (b), or the flight is acquired by a SAM."""
    far = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="0240")
    state = msgspec.structs.replace(
        new_state(),
        phase="movement",
        turn=1,
        us=(far,),
        aaa=(AaaUnit(id="A1", hex="0340", density="L"),),
    )
    _, events = run(
        state,
        {"type": "RollDrvAttack", "unit_id": "A1", "flight_id": "S1", "kind": "aaa_attack"},
        [[4, 4]],
    )
    assert of(events, ev.DrvAttackRolled)[0].doubles
    assert not of(events, ev.DrvAttackRolled)[0].random_event


def test_event_near_the_target_places_a_fire_can_in_the_target_hex() -> None:
    """4.1.2 top paragraph: within 2 of the raid target, a hidden Fire Can goes into the
    target hex (with AAA) radar on and attacks the moving flight."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="2022")
    state = msgspec.structs.replace(
        new_state(),
        phase="movement",
        turn=1,
        us=(s1,),
        aaa=(AaaUnit(id="A1", hex="2021", density="L"),),
    )
    state, events = run(
        state,
        {"type": "RollDrvAttack", "unit_id": "A1", "flight_id": "S1", "kind": "aaa_attack"},
        [[2, 2], [10]],
    )
    assert of(events, ev.FireCanPlaced)[0].hex == "2021"
    ordered = [e for e in of(events, ev.DecisionMade) if e.topic == "attack_ordered"]
    assert ordered and ordered[0].order == ("S1",)


def test_event_option_b_places_a_sam_warning_2_to_5_hexes_away() -> None:
    """4.1.2 (b): within 12 of Hanoi, no Fire Can host within 2: a SAM Warning counter at
    the closest location 2-5 hexes from the detected moving flight (1967 on)."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="1423")
    # A1 three hexes away: in range (aaa_range 3), no Fire Can host within 2 for (a).
    state = msgspec.structs.replace(
        new_state(aaa_range=3),
        phase="movement",
        turn=1,
        us=(s1,),
        aaa=(AaaUnit(id="A1", hex="1426", density="L"),),
        aaa_fire=(FLAK_DUE,),
    )
    state, events = run(
        state,
        {"type": "RollDrvAttack", "unit_id": "A1", "flight_id": "S1", "kind": "flak_damage"},
        [[1, 1], [10]],
    )
    placed = of(events, ev.SamPlaced)[0]
    from umpire.engine.rulesets.downtown.board import board_of

    assert 2 <= board_of(None).dist(placed.hex, "1423") <= 5 and placed.rule.endswith("(b)")
    assert state.hidden_sams == new_state().hidden_sams - 1


def test_end_of_movement_roll_only_event_counts_and_is_skipped_far_away() -> None:
    """4: after its last MP a flight rolls once, only 'Event!' counting; no roll when neither
    (a) nor (b) applies."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="1423")
    state = msgspec.structs.replace(new_state(), phase="movement", turn=1, us=(s1,))
    _, events = run(state, {"type": "EndUsFlightMovement", "flight_id": "S1"}, [[3]])
    assert "ignored" in of(events, ev.RandomEventRolled)[0].explanation
    far = msgspec.structs.replace(state, us=(msgspec.structs.replace(s1, hex="0240"),))
    with pytest.raises(NothingToDo, match="neither"):  # issue 41 item 8: no roll, no event
        run(far, {"type": "EndUsFlightMovement", "flight_id": "S1"}, [])


def test_event_option_a_places_a_fire_can_within_2_of_the_flight() -> None:
    """4.1.2 (a): within 12 of Hanoi, a AAA hex within 2 of the moving flight with room for
    a Fire Can and a hidden Fire Can: place it radar on in the closest such hex and attack."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="1423")
    aaa = (AaaUnit(id="A1", hex="1424", density="L"), AaaUnit(id="A2", hex="1523", density="M"))
    state = msgspec.structs.replace(new_state(), phase="movement", turn=1, us=(s1,), aaa=aaa)
    state, events = run(
        state,
        {"type": "RollDrvAttack", "unit_id": "A1", "flight_id": "S1", "kind": "aaa_attack"},
        [[6, 6], [10]],
    )
    placed = of(events, ev.FireCanPlaced)[0]
    assert placed.hex == "1424" and placed.rule.endswith("(a)")
    assert state.fire_cans[0].radar_on and state.hidden_fire_cans == 1


def test_event_near_the_target_without_aaa_there_is_lost() -> None:
    """4.1.2 top paragraph: no AAA concentration in the target hex: the event is lost and no
    other option is called."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="2022")
    aaa = (AaaUnit(id="A1", hex="2023", density="L"),)
    state = msgspec.structs.replace(new_state(), phase="movement", turn=1, us=(s1,), aaa=aaa)
    state, events = run(
        state,
        {"type": "RollDrvAttack", "unit_id": "A1", "flight_id": "S1", "kind": "aaa_attack"},
        [[1, 1], [10]],
    )
    assert [e.result for e in of(events, ev.DecisionMade)] == ["lost"]
    assert not of(events, ev.FireCanPlaced) and not of(events, ev.SamPlaced)
