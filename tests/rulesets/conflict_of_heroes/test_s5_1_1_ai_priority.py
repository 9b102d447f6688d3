"""5.1.1 AI Fire or Move Eligible AI Priority, with the order's 'closest' / 'farthest' and
'Highest FP AI' (003_368c69a730e6e14a.txt 5.1.1, 'Executing an AI Order').

U sits at 0508; 0505, 0306 and 0706 are 3 hexes from it, 0503 is 5. AIs are turreted so
their arc never matters; every shot needs 12 - 5 = 7.
"""

from __future__ import annotations

from tests.rulesets.conflict_of_heroes.setups import (
    ai,
    ai_turn,
    card,
    one,
    reasons,
    state,
    unit,
)
from umpire.engine.rulesets.conflict_of_heroes.events import AiFired, AiMoved, AiUnitSelected
from umpire.engine.rulesets.conflict_of_heroes.scenario import ObjectiveSpec, TerrainSpec

U = unit("U", "0508")
FIRE = "AI closest to Unit -> Fire"


def _pick(ais, order=FIRE, *faces, terrain=(), colour="blue", objectives=()):  # type: ignore[no-untyped-def]
    s = state([*ais, U], (card(1, colour, 12, order),), terrain=terrain, objectives=objectives)
    events, _ = ai_turn(s, 1, *faces)
    return one(events, AiUnitSelected), events


def test_closest_order_takes_the_ai_closest_to_its_closest_target() -> None:
    """'If the Order specifies closest, execute with the AI which is closest to its closest
    Target'."""
    chosen, events = _pick(
        [ai("A", "0505", turreted=True), ai("B", "0503", turreted=True)], FIRE, [4, 3]
    )
    assert chosen.unit == "A" and "closest" in reasons(chosen.candidates)["B"]
    assert one(events, AiFired).hit  # 7 against 7


def test_farthest_order_takes_the_ai_farthest_from_its_closest_target() -> None:
    """'If the Order specifies farthest, execute with the AI which is farthest from its
    closest Target'."""
    chosen, _ = _pick(
        [ai("A", "0505", turreted=True), ai("B", "0503", turreted=True)],
        "AI farthest from Unit -> Fire",
        [1, 1],
    )
    assert chosen.unit == "B" and "farthest" in reasons(chosen.candidates)["A"]


def test_fire_unhit_before_hit() -> None:
    """5.1.1: 'Un-hit AI, before a hit AI'."""
    chosen, _ = _pick(
        [ai("A", "0505", turreted=True, hit=True), ai("B", "0306", turreted=True)], FIRE, [1, 1]
    )
    assert chosen.unit == "B" and "un-hit" in reasons(chosen.candidates)["A"]


def test_fire_highest_firepower() -> None:
    """5.1.1 To Fire: 'the AI with the highest Firepower'."""
    chosen, _ = _pick(
        [ai("A", "0505", turreted=True), ai("B", "0306", turreted=True, firepower=6)], FIRE, [1, 1]
    )
    assert chosen.unit == "B" and "highest Firepower" in reasons(chosen.candidates)["A"]


def test_fire_lowest_cost_to_fire() -> None:
    """5.1.1: same firepower: 'the lowest cost to fire has priority'."""
    chosen, _ = _pick(
        [ai("A", "0505", turreted=True), ai("B", "0306", turreted=True, fire_cost=1)], FIRE, [1, 1]
    )
    assert chosen.unit == "B" and "cost to fire" in reasons(chosen.candidates)["A"]


def test_fire_highest_dm_hex() -> None:
    """5.1.1: same cost: 'the AI in the highest DM hex will fire'."""
    chosen, _ = _pick(
        [ai("A", "0505", turreted=True), ai("B", "0306", turreted=True)],
        FIRE,
        [1, 1],
        terrain=[TerrainSpec(hex="0306", dm=1)],
    )
    assert chosen.unit == "B" and "DM" in reasons(chosen.candidates)["A"]


def test_fire_random_1d6_among_tied_ais() -> None:
    """5.1.1: 'Randomly determine which AI executes the order by assigning each AI a number
    and rolling 1D6': A is number 1, B number 2; the die shows the number chosen, and a 3-6
    names no AI and is rolled again (ledger (6))."""
    ais = [ai("A", "0505", turreted=True), ai("B", "0306", turreted=True)]
    chosen, _ = _pick(ais, FIRE, [2], [1, 1])
    assert chosen.unit == "B" and len(chosen.dice) == 1
    assert "random roll" in reasons(chosen.candidates)["A"]
    chosen, _ = _pick(ais, FIRE, [1], [1, 1])
    assert chosen.unit == "A"
    chosen, _ = _pick(ais, FIRE, [5], [3], [2], [1, 1])
    assert chosen.unit == "B" and len(chosen.dice) == 3
    assert "rolled again after [5, 3]" in reasons(chosen.candidates)["B"]


def test_random_choice_among_three_rerolls_4_to_6_and_among_four_rerolls_5_and_6() -> None:
    """1D6 among 3: faces 1, 2, 3, and 4-6 are rolled again; among 4: faces 1..4, and 5 or
    6 is rolled again."""
    three = [
        ai("A", "0505", turreted=True),
        ai("B", "0306", turreted=True),
        ai("C", "0706", turreted=True),
    ]
    chosen, _ = _pick(three, FIRE, [3], [1, 1])
    assert chosen.unit == "C"
    chosen, _ = _pick(three, FIRE, [6], [4], [2], [1, 1])
    assert chosen.unit == "B" and len(chosen.dice) == 3
    four = [*three, ai("D", "0807", turreted=True)]
    chosen, _ = _pick(four, FIRE, [5], [6], [4], [1, 1])
    assert chosen.unit == "D" and len(chosen.dice) == 3


def test_highest_fp_ai_means_the_highest_among_the_eligible() -> None:
    """'Highest FP AI specifies the AI with the highest FP that is eligible to perform the
    action': C (FP 9) is out of normal range, so B (FP 6) fires though A is closer."""
    ais = [
        ai("A", "0505", turreted=True),
        ai("B", "0503", turreted=True, firepower=6),
        ai("C", "0501", turreted=True, firepower=9),
    ]
    chosen, _ = _pick(ais, "Highest FP AI closest to Unit -> Fire", [1, 1])
    why = reasons(chosen.candidates)
    assert chosen.unit == "B" and "Highest FP" in why["A"] and "long range" in why["C"]


def test_move_unhit_before_hit_then_lowest_move_cost_then_1d6() -> None:
    """5.1.1 To Move: un-hit first, then 'the AI with the lowest cost to move', then 1D6."""
    obj = [ObjectiveSpec(id="OBJ", hex="0508")]
    order = "AI closest to Objective -> Move"
    s_ais = [ai("A", "0505", hit=True), ai("B", "0306")]
    chosen, _ = _pick(s_ais, order, [1], objectives=obj)
    assert chosen.unit == "B" and "un-hit" in reasons(chosen.candidates)["A"]
    chosen, _ = _pick([ai("A", "0505", move_cost=2), ai("B", "0306")], order, [1], objectives=obj)
    assert chosen.unit == "B" and "cost to move" in reasons(chosen.candidates)["A"]
    chosen, events = _pick([ai("A", "0505"), ai("B", "0306")], order, [2], [1], objectives=obj)
    assert chosen.unit == "B" and one(events, AiMoved).unit == "B"


def test_green_card_only_fresh_ai_blue_card_fresh_or_spent() -> None:
    """4.0: a Green Action Order is executed only by fresh AI; a Blue Command Order by
    fresh or spent AI."""
    ais = [ai("A", "0505", turreted=True, fresh=False), ai("B", "0503", turreted=True)]
    chosen, _ = _pick(ais, FIRE, [1, 1], [1], colour="green")
    assert chosen.unit == "B" and "Green" in reasons(chosen.candidates)["A"]
    chosen, _ = _pick(ais, FIRE, [1, 1], colour="blue")
    assert chosen.unit == "A"


def test_order_status_conditions_filter_the_ai() -> None:
    """An order's own AI conditions (Spent AI, Hit AI, ...) limit which AI may execute it."""
    ais = [ai("A", "0505", turreted=True), ai("B", "0503", turreted=True, fresh=False)]
    chosen, _ = _pick(ais, "Spent AI closest to Unit -> Fire", [1, 1])
    assert chosen.unit == "B" and "not spent" in reasons(chosen.candidates)["A"]
