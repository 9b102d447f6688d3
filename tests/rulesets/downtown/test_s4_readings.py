"""4 Solitaire Random Events (000_842c81c5c58bc2f6.txt): the readings of README ledger rows 4,
4.1.1 and 4.1.2(b): which doubles call an event, where a converted SAM goes, and where the SAM
of option (b) comes from."""

from __future__ import annotations

import msgspec

from tests.rulesets.downtown.setups import FLAK_DUE, SEED, new_state, of, run
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.state import AaaUnit, OrderedAttack, Sam, State, UsFlight
from umpire.engine.rulesets.downtown.terms import AcqLevel, DoublesReading, Mission, SamStatus, Task
from umpire.testing.support.seeds import seed_text

NEAR_HANOI = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="1423")
"""6 hexes from Hanoi (b) and 6 from the raid target, so not (a); not acquired."""
ATTACK = {"type": "RollDrvAttack", "unit_id": "A1", "flight_id": "S1", "kind": "aaa_attack"}


def _state(hidden_sams: int | None = None, **setup: object) -> State:
    # A1 three hexes from S1: in range (aaa_range 3), but no Fire Can host for 4.1.2 (a).
    state = msgspec.structs.replace(
        new_state(**{"aaa_range": 3, **setup}),
        phase="movement",
        turn=1,
        us=(NEAR_HANOI,),
        aaa=(AaaUnit(id="A1", hex="1426", density="L"),),
    )
    if hidden_sams is not None:
        state = msgspec.structs.replace(state, hidden_sams=hidden_sams)
    return state


def test_the_seed_says_a_and_b_after_saying_one_of_them() -> None:
    text = seed_text(SEED)
    assert "unless one of the following applies:" in text
    assert "unless (a) and (b) apply OR the flight is currently acquired by a SAM" in text


def test_a_double_near_hanoi_alone_calls_an_event_by_default() -> None:
    """(b) only, not (a): read as "(a) or (b)", the double (3, 3) calls an event (a 4: no
    Event!, just the inhibit row)."""
    _, events = run(_state(), ATTACK, [[3, 3], [4]])
    assert of(events, ev.DrvAttackRolled)[0].random_event


def test_the_literal_a_and_b_is_a_setup_switch() -> None:
    """`doubles_reading: a_and_b`: (b) without (a) ignores the double."""
    _, events = run(_state(doubles_reading=DoublesReading.A_AND_B.value), ATTACK, [[3, 3]])
    rolled = of(events, ev.DrvAttackRolled)[0]
    assert rolled.doubles and not rolled.random_event


def test_option_b_takes_a_hidden_sam_and_none_without_one() -> None:
    """4.1.2 (b) "place a SAM Warning counter": one of the hidden SAM battalions (the count
    falls by one, see test_s4_random_events); with no hidden SAM left nothing is placed."""
    due = msgspec.structs.replace(_state(hidden_sams=0), aaa_fire=(FLAK_DUE,))
    state, events = run(due, {**ATTACK, "kind": "flak_damage"}, [[1, 1], [10]])
    assert not of(events, ev.SamPlaced)
    assert [e.result for e in of(events, ev.DecisionMade) if e.topic == "event_option"] == ["none"]
    assert state.hidden_sams == 0


def test_a_converted_sam_stays_on_the_map_as_a_possible_dummy_radar() -> None:
    """4.1.1 "convert that unit to a dummy radars": the SAM stays on the map, active, and its
    next attempt to fire makes the 3.3.2 row 9 check. The position of the 4.1.1 example, after
    its Option 2 shot, with a dummy radar still unused."""
    cap = UsFlight(id="C1", mission=Mission.CAP, task=Task.CAP, hex="2026", facing=3)
    sam = Sam(id="SAM1", hex="2021", status=SamStatus.ACTIVE, radar_on=True, target="C1",
              level=AcqLevel.FULL, shots=1, fired=True, option=2)  # fmt: skip
    order = OrderedAttack(unit_id="SAM1", flight_id="C1", range=5, rule="3.4.5 option 2")
    state = msgspec.structs.replace(
        new_state(), phase="movement", turn=1, us=(cap,), sams=(sam,), ordered_attacks=(order,)
    )
    state, _ = run(
        state,
        {"type": "RollDrvAttack", "unit_id": "SAM1", "flight_id": "C1", "kind": "sam_attack"},
        [[5, 5], [3]],
    )
    sam = state.sams[0]
    assert sam.status is SamStatus.ACTIVE and sam.dummy_radar and sam.radar_on
