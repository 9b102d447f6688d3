"""Cases worked by hand from the seed (003_368c69a730e6e14a.txt) with stated dice, the way
an outside reviewer checks the engine: each docstring gives the rule, the dice and the
result the seed's text gives, worked without reading the code.

The AI A sits at 0505 (turreted, FP 5). 0508 and 0307 are both 3 hexes from it; 0506 is 1.
A Unit's total DV is its DV plus its hex's DM; the 2D6 needed is total DV minus FP.
"""

from __future__ import annotations

import pytest
from msgspec import UNSET

from tests.rulesets.conflict_of_heroes.setups import (
    ai,
    ai_turn,
    card,
    every,
    one,
    reasons,
    run,
    state,
    unit,
)
from umpire.engine.actions import legal_actions
from umpire.engine.roles import Role
from umpire.engine.rulesets.conflict_of_heroes import RULESET
from umpire.engine.rulesets.conflict_of_heroes.eligibility import targets_for
from umpire.engine.rulesets.conflict_of_heroes.events import (
    AiFired,
    AiMoved,
    AiOrderSelected,
    AiPassed,
    AiTargetSelected,
    AiUnitSelected,
    MissionTrackChecked,
    SpentCheckMade,
)
from umpire.engine.rulesets.conflict_of_heroes.labels import LABELS
from umpire.engine.rulesets.conflict_of_heroes.orders import parse_order
from umpire.engine.rulesets.conflict_of_heroes.scenario import ObjectiveSpec
from umpire.engine.rulesets.conflict_of_heroes.view import view
from umpire.events.action_text import render

A = ai("A", "0505", turreted=True)
FIRE = "AI closest to Unit -> Fire"


def _u(uid: str, hex: str, **kw):  # type: ignore[no-untyped-def]
    values = dict(front_dv=12, flank_dv=12)
    values.update(kw)
    return unit(uid, hex, **values)


def test_s5_1_a_target_needing_exactly_10_is_fired_at_and_hit_on_10() -> None:
    """5.1: an AI 'will not fire at a Target if it needs a modified 2D6 result of 11 or
    higher'. U at 1 hex with DV 15 needs 15 - 5 = 10: it is fired at. 2D6 5+5 = 10 hits;
    4+5 = 9 misses."""
    s = state([A, _u("U", "0506", front_dv=15, flank_dv=15)], (card(1, "blue", 12, FIRE),))
    events, _ = ai_turn(s, 1, [5, 5])
    fired = one(events, AiFired)
    assert (fired.target, fired.needed, fired.roll, fired.hit) == ("U", 10, 10, True)
    events, _ = ai_turn(s, 1, [4, 5])
    fired = one(events, AiFired)
    assert (fired.needed, fired.roll, fired.hit) == (10, 9, False)


def test_s5_1_1_unhit_comes_before_firepower() -> None:
    """5.1.1: 'Un-hit AI, before a hit AI. If multiple eligible AIs are un-hit (or hit),
    then ... the highest Firepower': a hit AI with FP 8 loses to an un-hit AI with FP 5,
    both 3 hexes from U. Dice: 2D6 6+6 for the shot."""
    ais = [ai("A", "0505", turreted=True, hit=True, firepower=8), ai("B", "0306", turreted=True)]
    s = state([*ais, _u("U", "0508")], (card(1, "blue", 12, FIRE),))
    events, _ = ai_turn(s, 1, [6, 6])
    assert one(events, AiUnitSelected).unit == "B"
    assert one(events, AiFired).unit == "B"


def test_s5_2_the_hit_unit_comes_before_the_fresh_unit_and_firepower() -> None:
    """5.2: equal distance and equal total DV, then 'the hit Unit', then 'the fresh Unit',
    then 'the highest firepower': U1 (hit, spent, FP 3) is chosen over U2 (fresh, FP 8).
    Dice: 2D6 1+1 for the shot (a miss: needs 7)."""
    units = [_u("U1", "0508", hit=True, fresh=False, firepower=3), _u("U2", "0307", firepower=8)]
    s = state([A, *units], (card(1, "blue", 12, FIRE),))
    events, _ = ai_turn(s, 1, [1, 1])
    t = one(events, AiTargetSelected)
    assert t.target == "U1" and "hit Unit" in reasons(t.candidates)["U2"]
    assert not one(events, AiFired).hit


def test_s5_2_the_fresh_unit_comes_before_firepower() -> None:
    """5.2: neither hit; 'the fresh Unit' before 'the highest firepower': U2 (fresh, FP 3)
    over U1 (spent, FP 8). Dice: 2D6 3+4 = 7 hits (needs 12 - 5 = 7)."""
    units = [_u("U1", "0508", fresh=False, firepower=8), _u("U2", "0307", firepower=3)]
    s = state([A, *units], (card(1, "blue", 12, FIRE),))
    events, _ = ai_turn(s, 1, [3, 4])
    fired = one(events, AiFired)
    assert (fired.target, fired.needed, fired.hit) == ("U2", 7, True)


def test_s5_2_two_tied_units_a_roll_of_2_picks_the_second_and_5_is_rolled_again() -> None:
    """5.2: 'Randomly determine a Unit, by assigning each Unit a number and rolling 1D6':
    U1 is 1, U2 is 2. Rolls 5 (no Unit has that number: again), then 2: U2."""
    s = state([A, _u("U1", "0508"), _u("U2", "0307")], (card(1, "blue", 12, FIRE),))
    events, _ = ai_turn(s, 1, [5], [2], [6, 6])
    t = one(events, AiTargetSelected)
    assert t.target == "U2" and len(t.dice) == 2
    assert one(events, AiFired).target == "U2"


def test_s5_1_1_five_tied_ais_a_6_is_rolled_again() -> None:
    """'If more than one AI is still eligible to move, then randomly choose one' (5.1.1,
    'assigning each AI a number and rolling 1D6'): five un-hit AIs with equal move cost,
    all 3 hexes from the objective at 0508, numbered by id A..E. Rolls 6 (no AI has that
    number: again), then 5: E moves."""
    obj = [ObjectiveSpec(id="OBJ", hex="0508")]
    ais = [ai("A", "0505"), ai("B", "0306"), ai("C", "0706"), ai("D", "0207"), ai("E", "0807")]
    s = state(ais, (card(1, "blue", 12, "AI closest to Objective -> Move"),), objectives=obj)
    events, _ = ai_turn(s, 1, [6], [5])
    chosen = one(events, AiUnitSelected)
    assert chosen.unit == "E" and len(chosen.dice) == 2
    assert one(events, AiMoved).unit == "E"


def test_s4_0_mission_track_advances_when_the_count_equals_the_number() -> None:
    """4.0: 'The Mission Track advances if the number of AI plus Units in play are equal to
    or less than the specified number': A and U in play, requirement 2 -> advances;
    requirement 1 -> it does not. (The card drawn is the only one: draw face 1.)"""
    units = [A, _u("U", "0508")]
    events, s = ai_turn(state(units, (card(1, "green", 12, mission_requirement=2),)), 1)
    check = one(events, MissionTrackChecked)
    assert (check.count, check.advanced, s.mission_track) == (2, True, 1)
    events, s = ai_turn(state(units, (card(1, "green", 12, mission_requirement=1),)), 1)
    check = one(events, MissionTrackChecked)
    assert (check.count, check.advanced, s.mission_track) == (2, False, 0)


def test_s3_1_1_cap_supplement_brings_the_cost_below_the_spent_number() -> None:
    """3.1.1 / 3.2.1: a 4-AP action paid 3 AP + 1 CAP is checked at 3 against AP Spent
    Number 4: 3 < 4, the Unit stays fresh; paid 4 AP it is spent (4 >= 4)."""
    deck = (card(1, "blue", 4), card(2, "blue", 4))
    s = state([A, _u("U", "0508")], deck, player_caps=3)
    command = {"type": "UnitAction", "units": ["U"], "action": "move", "ap": 3, "caps": 1}
    events, s2 = run(s, command, [[1]])
    check = one(events, SpentCheckMade)
    assert (check.ap_cost, check.ap_spent_number, check.spent) == (3, 4, ())
    assert s2.unit("U").fresh  # type: ignore[union-attr]
    events, s3 = run(s, {**command, "ap": 4, "caps": 0}, [[1]])
    assert one(events, SpentCheckMade).spent == ("U",)
    assert not s3.unit("U").fresh  # type: ignore[union-attr]


# -- round 7 (fresh eyes): the cases below were worked from the seed text first ---------------


def test_s5_0_a_move_order_picks_among_equally_distant_units_by_1d6_not_by_5_2() -> None:
    """'If more than one Target is equal distant from the eligible AI, then Randomly choose
    one of the eligible Targets to move towards' (Executing an AI Order, Move): U1 (hit)
    and U2 are both 3 hexes from A. 5.2's list (which would take the hit U1) is for Fire
    orders only. 1D6: 1 = U1 (it moves to 0506, the one hex closer); 2 = U2 (two hexes are
    closer to 0307; a second 1D6, 1, picks the first)."""
    deck = (card(1, "blue", 12, "AI closest to Unit -> Move"),)
    s = state([A, _u("U1", "0508", hit=True), _u("U2", "0307")], deck)
    events, _ = ai_turn(s, 1, [1])
    assert one(events, AiTargetSelected).target == "U1" and one(events, AiMoved).to_hex == "0506"
    events, _ = ai_turn(s, 1, [2], [1])
    chosen = one(events, AiTargetSelected)
    assert chosen.target == "U2" and chosen.rule.endswith("5.0")
    assert "random roll" in reasons(chosen.candidates)["U1"]
    assert one(events, AiMoved).target == "U2"


def test_s5_1_1_two_hit_ais_then_the_highest_firepower() -> None:
    """5.1.1: 'If multiple eligible AIs are un-hit (or hit), then ... the highest
    Firepower': both AIs hit, 3 hexes from U; B (FP 6) fires, not A (FP 5). 2D6 6+6."""
    ais = [ai("A", "0505", turreted=True, hit=True), ai("B", "0306", turreted=True, hit=True,
                                                       firepower=6)]  # fmt: skip
    s = state([*ais, _u("U", "0508")], (card(1, "blue", 12, FIRE),))
    events, _ = ai_turn(s, 1, [6, 6])
    chosen = one(events, AiUnitSelected)
    assert chosen.unit == "B" and "highest Firepower" in reasons(chosen.candidates)["A"]
    assert one(events, AiFired).needed == 12 - 6


@pytest.mark.parametrize(
    ("spent_number", "remain_fresh", "spent"),
    [(2, False, True), (3, False, False), (1, True, False)],
)
def test_s3_1_1_an_ai_green_fire_order_checks_its_fire_cost(
    spent_number: int, remain_fresh: bool, spent: bool
) -> None:
    """4.0 / 3.1.1: after a Green Action Order the AI makes an AP Spent Check with the
    action's AP cost, here its fire cost 2: AP Spent Number 2 (2 >= 2) spent; 3 fresh;
    1 with the Remain Fresh symbol fresh ('Units drawing ... the symbol remain fresh',
    which the seed heads 'for Units and AIs'). Draws: card 1, the AI turn; then card 2,
    the check. 2D6 1+1 for the shot (a miss)."""
    deck = (card(1, "green", 9, FIRE), card(2, "blue", spent_number, remain_fresh=remain_fresh))
    s = state([A, _u("U", "0508")], deck)
    events, s = ai_turn(s, 1, [1, 1], [1])
    check = one(events, SpentCheckMade)
    assert (check.side, check.ap_cost, check.ap_spent_number) == ("ai", 2, spent_number)
    assert check.spent == (("A",) if spent else ())
    assert s.unit("A").fresh is not spent  # type: ignore[union-attr]


def test_s3_1_1_a_cost_greater_than_the_spent_number_marks_the_unit_spent() -> None:
    """3.1.1: 'equal to or greater than': 5 APs against AP Spent Number 3 -> spent; a stall
    (1 AP) against AP Spent Number 1 -> spent too (1 >= 1)."""
    deck = (card(1, "blue", 3), card(2, "blue", 1))
    s = state([A, _u("U", "0508")], deck)
    events, s2 = run(s, {"type": "UnitAction", "units": ["U"], "action": "move", "ap": 5}, [[1]])
    assert one(events, SpentCheckMade).spent == ("U",)
    events, s3 = run(s, {"type": "Stall", "unit": "U"}, [[2]])
    check = one(events, SpentCheckMade)
    assert (check.ap_cost, check.ap_spent_number, check.spent) == (1, 1, ("U",))
    assert not s2.unit("U").fresh and not s3.unit("U").fresh  # type: ignore[union-attr]


def test_s4_0_the_mission_track_is_checked_even_when_the_ai_then_passes() -> None:
    """4.0: the Mission Track advance is printed on top of the Green card and read when it
    is drawn, whether or not an order on it can then be executed: A and U in play (2)
    against requirement 2 -> advances; no order fits (no Objective), so the AI passes."""
    deck = (card(1, "green", 9, "AI closest to Objective -> Move", mission_requirement=2),)
    events, s = ai_turn(state([A, _u("U", "0508")], deck), 1)
    check = one(events, MissionTrackChecked)
    assert check.advanced and s.mission_track == 1
    assert check.explanation.startswith(
        "2 counted (2 AI and Units in play, 0 Rumored Enemy counters, 0 reinforcements "
        "still to arrive this round) against the requirement 2: the Mission Track advances "
        "to 1"
    )
    assert one(events, AiPassed).card == 1


def test_s4_0_destroyed_and_not_yet_arrived_counters_are_not_in_play() -> None:
    """4.0: 'the number of AI plus Units in play': a destroyed Unit (removed from the game,
    7.3) and an AI reinforcement not yet arrived (not reported this round) are not
    counted: A and U (2) against requirement 2 -> advances, with U2 destroyed and R out
    of play."""
    deck = (card(1, "green", 9, mission_requirement=2),)
    units = [A, _u("U", "0508"), _u("U2", "0307"), ai("R", "1201", in_play=False)]
    _, s = run(state(units, deck), {"type": "ReportDestroyed", "unit": "U2"})
    events, s = ai_turn(s, 1)
    check = one(events, MissionTrackChecked)
    assert (check.count, check.advanced, s.mission_track) == (2, True, 1)
    assert every(events, AiPassed)


def test_s5_0_a_control_marker_the_ai_holds_is_no_player_control_marker() -> None:
    """5.0: 'Player Control Markers are considered Mission Objectives'. A stands alone on
    CM's hex 0505: the AI has taken it (found playing the sample through the CLI, where
    the AI on CM-1 kept pivoting under 'Fresh AI closest to Control Marker -> Low Risk
    Move'). So 'AI closest to Control Marker -> Move' has no target and the card's next
    order runs: 'AI closest to Unit -> Move', A (3 hexes from U at 0508) before B (6)."""
    cm = [ObjectiveSpec(id="CM", hex="0505", control_marker=True)]
    deck = (card(1, "blue", 12, "AI closest to Control Marker -> Move",
                 tactical=("AI closest to Unit -> Move",)),)  # fmt: skip
    s = state([A, ai("B", "0502"), _u("U", "0508")], deck, objectives=cm)
    events, _ = ai_turn(s, 1)
    selected = one(events, AiOrderSelected)
    assert selected.order == "AI closest to Unit -> Move"
    why = reasons(selected.candidates)["priority 1: AI closest to Control Marker -> Move"]
    assert "no Player Control Marker to move towards: the AI holds CM" in why
    assert one(events, AiMoved).unit == "A"


def test_s5_0_a_control_marker_stays_the_ais_after_the_ai_leaves_its_hex() -> None:
    """5.0 'Player Control Markers' (README ledger): A, set up alone on CM's hex 0505,
    takes the marker; reported moved off to 0504 it leaves the marker the AI's (the base
    game's flipped marker), so 'AI closest to Control Marker -> Move' still has no target
    and the card's next order runs. U reported into 0505, alone there, takes it back: the
    order aims at CM again. Before v7 the marker was the player's again once A left."""
    cm = [ObjectiveSpec(id="CM", hex="0505", control_marker=True)]
    deck = (card(1, "blue", 12, "AI closest to Control Marker -> Move",
                 tactical=("AI closest to Unit -> Move",)),)  # fmt: skip
    s = state([A, _u("U", "0508")], deck, objectives=cm)
    assert s.ai_markers == ("CM",)
    _, s = run(s, {"type": "ReportPosition", "unit": "A", "hex": "0504", "facing": 0})
    assert s.ai_markers == ("CM",)
    events, _ = ai_turn(s, 1)
    selected = one(events, AiOrderSelected)
    assert selected.order == "AI closest to Unit -> Move"
    why = reasons(selected.candidates)["priority 1: AI closest to Control Marker -> Move"]
    assert "no Player Control Marker to move towards: the AI holds CM" in why
    _, s = run(s, {"type": "ReportPosition", "unit": "U", "hex": "0505", "facing": 3})
    assert s.ai_markers is UNSET
    order = parse_order("AI closest to Control Marker -> Move")
    a = s.unit("A")
    assert a is not None and [t.id for t in targets_for(s, a, order)] == ["CM"]


def test_s5_1_1_and_5_2_yes_no_criteria_are_said_in_words() -> None:
    """5.1.1 / 5.2 as the player reads them (found playing the sample through the CLI,
    where a hit AI 'lost on un-hit AI before a hit AI (1; best 0)'): the loser's reason
    says 'hit; best un-hit'; 5.2's 'the fresh Unit' says 'spent; best fresh'. Dice: 2D6
    6+6 for the first shot, 3+4 for the second."""
    ais = [ai("A", "0505", turreted=True, hit=True, firepower=8), ai("B", "0306", turreted=True)]
    s = state([*ais, _u("U", "0508")], (card(1, "blue", 12, FIRE),))
    events, _ = ai_turn(s, 1, [6, 6])
    why = reasons(one(events, AiUnitSelected).candidates)["A"]
    assert why == "lost on 'un-hit AI before a hit AI (5.1.1)' (hit; best un-hit)"
    units = [_u("U1", "0508", fresh=False, firepower=8), _u("U2", "0307", firepower=3)]
    events, _ = ai_turn(state([A, *units], (card(1, "blue", 12, FIRE),)), 1, [3, 4])
    why = reasons(one(events, AiTargetSelected).candidates)["U1"]
    assert why == "lost on 'the fresh Unit (5.2)' (spent; best fresh)"


def test_s5_1_1_farthest_tie_moves_the_unhit_ai_before_the_cheaper_one() -> None:
    """'If more than one eligible AI is closest to or farthest from a Target, for Move
    Orders, move the eligible AI that: 1. is Unhit, then 2. has the lowest movement cost':
    A (hit, move cost 1) at 0508 and B (un-hit, move cost 2) at 0307 are both 3 hexes from
    U at 0505, so both are 'farthest'; B moves, although A is cheaper. Two hexes bring B
    closer (0306, 0407): 1D6 1 picks the first."""
    ais = [ai("A", "0508", hit=True, move_cost=1), ai("B", "0307", move_cost=2)]
    s = state([*ais, _u("U", "0505")], (card(1, "blue", 12, "AI farthest from Unit -> Move"),))
    events, _ = ai_turn(s, 1, [1])
    chosen = one(events, AiUnitSelected)
    assert chosen.unit == "B" and "un-hit AI before a hit AI" in reasons(chosen.candidates)["A"]
    moved = one(events, AiMoved)
    assert (moved.unit, moved.from_hex, moved.to_hex) == ("B", "0307", "0306")


def test_s5_2_the_eligible_ai_is_chosen_first_then_its_target() -> None:
    """5.2: "If multiple AI are eligible to execute an order against multiple Units, first
    determine the Eligible AI Priority and then the Target Priority." A (FP 5) at 0505 has
    U1 (0508, DV 12) and U2 (0307, DV 11) both 3 hexes away; B (FP 6) at 0706 has U1 at 3
    and U2 at 4. 'AI closest to Unit -> Fire': both AIs are 3 from their closest Unit, so
    5.1.1 picks B (highest Firepower); B's closest target is U1 alone, so B fires at U1
    (needs 12 - 6 = 6; 2D6 3+3 = 6 hits), not A at the easier U2."""
    ais = [ai("A", "0505", turreted=True), ai("B", "0706", turreted=True, firepower=6)]
    units = [_u("U1", "0508"), _u("U2", "0307", front_dv=11, flank_dv=11)]
    events, _ = ai_turn(state([*ais, *units], (card(1, "blue", 12, FIRE),)), 1, [3, 3])
    assert one(events, AiUnitSelected).unit == "B"
    assert one(events, AiTargetSelected).target == "U1"
    fired = one(events, AiFired)
    assert (fired.unit, fired.target, fired.needed, fired.roll, fired.hit) == (
        "B",
        "U1",
        6,
        6,
        True,
    )


def test_a_facing_is_said_by_its_compass_point() -> None:
    """A facing as the player reads it on the map: A at 0505 moves one hex towards U at
    0508 (5.3: 0506, the only hex closer) and faces it, straight down the map: facing 3,
    said 'S' in the move's words, the map's note and the state's words; the listed
    ReportPosition field names what 0..5 mean."""
    s = state([A, _u("U", "0508")], (card(1, "blue", 12, "AI closest to Unit -> Move"),))
    events, s = ai_turn(s, 1)
    moved = one(events, AiMoved)
    assert moved.facing == 3 and "0505 -> 0506, facing S;" in moved.explanation
    (piece,) = [p for p in RULESET.board(view(s, Role.PLAYER)).pieces if p.id == "A"]
    assert piece.note == "facing S" and LABELS.words("facing", 3) == "S"
    (report,) = [a for a in legal_actions(RULESET, s, Role.PLAYER, ended=False)
                 if a.type == "ReportPosition"]  # fmt: skip
    line = next(x for x in render(report) if x.strip().startswith("facing:"))
    assert "0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW" in line, line


def test_the_ai_is_said_ai_in_the_states_words() -> None:
    """Whose turn it is, who passed last and a counter's side read "AI" as the seed writes
    it, where they read "Ai" (table walk 8: "Turn: Ai")."""
    for field in ("turn", "last_passed", "side"):
        assert LABELS.words(field, "ai") == "AI", field
        assert LABELS.words(field, "player") == "Player", field
