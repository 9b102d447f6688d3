"""2.3.1, 3.4.4, 4.1.2: the attack a random event orders is the placed unit's fire for the
Movement Phase.

4.1.2 places a Fire Can "and resolve[s] a Fire Can attack on the moving flight"; 2.3.1 has
a Fire Can fire at "the first US flight to move within range in the Movement Phase", one
flight a phase. The event's Fire Can has fired at its first flight, so a later Movement
Point within its range draws no second attack this phase. Likewise a SAM Warning counter
placed by 4.1.2 (b) has made its LOAL attack: 3.4.4's reaction is for "an unfired SAM
(i.e. a SAM that has not yet attacked this Movement Phase)". Dice are stated.
"""

from __future__ import annotations

import msgspec

from tests.rulesets.downtown.setups import FLAK_DUE, drv_attack, move_us, new_state, of, run
from umpire.engine.rulesets.downtown import RULESET
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.board import board_of
from umpire.engine.rulesets.downtown.state import AaaUnit, UsFlight
from umpire.engine.rulesets.downtown.terms import Mission, Phase, Task


def _fired_at(events: list[msgspec.Struct]) -> list[str]:
    return [e.result for e in of(events, ev.DecisionMade) if e.topic == "fire_can_fires"]


def test_an_event_fire_can_does_not_fire_again_that_phase() -> None:
    """S1 (Strike, bombing) at 2022, one hex from the raid target 2021, where A1 stands.
    A1's attack rolls (2, 2): a double within 2 of the target calls a random event; the
    event roll 10 is Event!, and the target paragraph of 4.1.2 places FC1 in 2021 and
    orders its attack on S1 (rolled 5, 3: no double). By hand: FC1 has now fired this
    Movement Phase (2.3.1), so S1's next MP into 2023 (2 hexes from FC1, inside
    `fire_can_range` 3) draws no Fire Can fire, and neither does S2 moving in beside it.
    Before: FC1 fired again at S1, and the MP waited for a second Fire Can attack."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="2022")
    s2 = UsFlight(id="S2", mission=Mission.STRIKE, task=Task.BOMBING, hex="2026")
    start = msgspec.structs.replace(
        new_state(), phase="movement", turn=1, us=(s1, s2),
        aaa=(AaaUnit(id="A1", hex="2021", density="L"),),
    )  # fmt: skip
    state, events = run(start, drv_attack("A1", "aaa_attack", "S1"), [[2, 2], [10]])
    can = of(events, ev.FireCanPlaced)[0].unit_id
    ordered = [e for e in of(events, ev.DecisionMade) if e.topic == "attack_ordered"]
    assert "2.3.1" in ordered[0].explanation  # the event's attack is its fire this phase
    assert next(f for f in state.fire_cans if f.id == can).fired
    state, _ = run(state, drv_attack(can, "fire_can_attack", "S1"), [[5, 3]])
    state, events = run(state, move_us("2023", "S1"), [])
    assert _fired_at(events) == []
    assert not any(o.waiting for o in state.ordered_attacks)
    state, events = run(state, move_us("2024", "S2"), [])
    assert _fired_at(events) == []


def test_a_loal_sam_does_not_react_that_phase() -> None:
    """4.1.2 (b): S1 (Strike, detected) at 1423, within 12 of Hanoi, A1 three hexes away
    (`aaa_range` 3) and no Fire Can host within 2. A1's Flak Damage roll (1, 1) is a
    double: random event 10, Event!, option (b) places a SAM Warning counter 2-5 hexes
    away and orders its LOAL attack (rolled 6, 3). The player then reports the new SAM's
    full acquisition of S1, and S1 spends an MP: by hand the SAM has attacked this
    Movement Phase, so 3.4.4 gives it no reaction. Before: it reacted and fired again."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="1423")
    start = msgspec.structs.replace(
        new_state(aaa_range=3), phase="movement", turn=1, us=(s1,),
        aaa=(AaaUnit(id="A1", hex="1426", density="L"),),
        aaa_fire=(FLAK_DUE,),
    )  # fmt: skip
    state, events = run(start, drv_attack("A1", "flak_damage", "S1"), [[1, 1], [10]])
    sam = of(events, ev.SamPlaced)[0].sam_id
    assert next(s for s in state.sams if s.id == sam).fired
    state, _ = run(state, drv_attack(sam, "sam_attack", "S1"), [[6, 3]])
    report = {"type": "ReportAcquisition", "sam_id": sam, "flight_id": "S1", "level": "full"}
    state, _ = run(state, report, [])
    state, events = run(state, move_us("1422", "S1"), [])
    assert of(events, ev.SamReacted) == []


def test_an_event_fire_can_attack_is_not_measured_against_fire_can_range() -> None:
    """4.1.2 top paragraph orders the attack outright ("resolve a Fire Can attack on the
    moving flight"), and the solo rules take precedence (1.2.1): with `fire_can_range` 1,
    S1 two hexes from the raid target (2023; A1 in 2021, `aaa_range` 2) meets A1's double
    (4, 4), Event! (10), and FC1's attack is rolled (1, 3) at the range of the order, 2."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="2023")
    start = msgspec.structs.replace(
        new_state(fire_can_range=1, aaa_range=2), phase="movement", turn=1, us=(s1,),
        aaa=(AaaUnit(id="A1", hex="2021", density="L"),),
    )  # fmt: skip
    state, events = run(start, drv_attack("A1", "aaa_attack", "S1"), [[4, 4], [10]])
    can = of(events, ev.FireCanPlaced)[0].unit_id
    state, events = run(state, drv_attack(can, "fire_can_attack", "S1"), [[1, 3]])
    assert of(events, ev.DrvAttackRolled)[0].range == 2


def test_a_loal_attack_is_the_sams_first_attack_for_4_1_1() -> None:
    """4.1.1 converts an inhibited SAM to a dummy radar only "If [it] has not yet made a SAM
    attack in the game so far". The LOAL SAM of the test above (placed and rolled, 6, 3)
    is acquired in the next Movement Phase and reacts with option 2 (S1 4 or 5 hexes away);
    its attack rolls a double (5, 5) near Hanoi, the random event (3) inhibits options 1
    and 2: by hand it has attacked before (its LOAL attack), so it is not converted, though
    a dummy radar is unused. Before: its LOAL attack was not counted, and it was."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="1423")
    start = msgspec.structs.replace(
        new_state(aaa_range=3, dummy_radars=1), phase="movement", turn=1, us=(s1,),
        aaa=(AaaUnit(id="A1", hex="1426", density="L"),), aaa_fire=(FLAK_DUE,),
    )  # fmt: skip
    state, events = run(start, drv_attack("A1", "flak_damage", "S1"), [[1, 1], [10]])
    placed = of(events, ev.SamPlaced)[0]
    state, _ = run(state, drv_attack(placed.sam_id, "sam_attack", "S1"), [[6, 3]])
    state = RULESET.evolve(
        state, ev.PhaseBegan(rule="000_842c81c5c58bc2f6.txt 5.1", phase=Phase.MOVEMENT, turn=2)
    )
    report = {"type": "ReportAcquisition", "sam_id": placed.sam_id, "flight_id": "S1",
              "level": "full"}  # fmt: skip
    state, _ = run(state, report, [])
    board = board_of(state.setup.map)
    to = next(
        h
        for h in ("1422", "1421", "1420", "1520", "1320", "1424", "1425", "1324", "1524")
        if board.dist(h, placed.hex) in (4, 5) and board.dist(h, "1423") == 1
    )
    state, events = run(state, move_us(to, "S1"), [])
    assert [e.option for e in of(events, ev.SamReacted)] == [2]
    state, events = run(state, drv_attack(placed.sam_id, "sam_attack", "S1"), [[5, 5], [3]])
    (event,) = of(events, ev.RandomEventRolled)
    assert event.inhibited and not event.converted


def test_a_loal_attack_fires_one_missile() -> None:
    """4.1.2 (b) "resolve a SAM LOAL attack" gives no count; 4.1.1 has an attack that takes
    place expend ammo ("it doesn't expend any ammo" only when inhibited), so the LOAL
    attack fires one SAM, the least a SAM attack fires (3.4.5; README ledger 4.1.2 (b)).
    The set-up of test_a_loal_sam_does_not_react_that_phase: A1's Flak Damage roll (1, 1),
    Event! (10), a SAM Warning counter 2-5 hexes from S1. By hand it has 6 - 1 = 5
    missiles left, and the order says one missile. Before: it had fired none."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="1423")
    start = msgspec.structs.replace(
        new_state(aaa_range=3, sam_missiles=6), phase="movement", turn=1, us=(s1,),
        aaa=(AaaUnit(id="A1", hex="1426", density="L"),), aaa_fire=(FLAK_DUE,),
    )  # fmt: skip
    state, events = run(start, drv_attack("A1", "flak_damage", "S1"), [[1, 1], [10]])
    sam = of(events, ev.SamPlaced)[0].sam_id
    (order,) = [e for e in of(events, ev.DecisionMade) if e.topic == "attack_ordered"]
    assert order.missiles == 1 and "one missile" in order.explanation
    placed = next(s for s in state.sams if s.id == sam)
    assert (placed.spent, state.setup.sam_missiles - placed.spent) == (1, 5)
    state, events = run(state, drv_attack(sam, "sam_attack", "S1"), [[6, 3]])
    assert "one SAM" in of(events, ev.DrvAttackRolled)[0].column
