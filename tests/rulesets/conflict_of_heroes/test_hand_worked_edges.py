"""More cases worked by hand from the seed (003_368c69a730e6e14a.txt) with stated dice and
stated card order: the edges no earlier test pinned (a first choice that is impossible,
ties, the deck running out, reinforcements on the Mission Track). Each docstring gives the
rule, the dice or the card drawn, and the result the seed's text gives, worked without
reading the code.

A draw's face k is the k-th card still in the deck in card-number order (README "Card
draws"). The AI A sits at 0505 (FP 5); in one column the distance is the row difference.
"""

from __future__ import annotations

from tests.rulesets.conflict_of_heroes.setups import (
    ai,
    ai_turn,
    card,
    every,
    one,
    run,
    state,
    unit,
)
from umpire.engine.rulesets.conflict_of_heroes.events import (
    AiFired,
    AiPassed,
    AiUnitSelected,
    DeckReshuffled,
    MissionTrackChecked,
    OrderCardDrawn,
    SpentCheckMade,
)
from umpire.engine.rulesets.conflict_of_heroes.scenario import MissionInstruction


def _u(uid: str, hex: str, **kw):  # type: ignore[no-untyped-def]
    values = dict(front_dv=12, flank_dv=12)
    values.update(kw)
    return unit(uid, hex, **values)


# -- 4.0 Mission Track: reinforcements arriving this round ---------------------------------


def test_s4_0_a_reported_reinforcement_placed_on_the_map_counts_once() -> None:
    """4.0: 'Both Fresh / Spent Units and AI, … and Reinforcements arriving this round are
    included in the count.' A and U are in play; the player reports 1 reinforcement
    arriving this round (their Unit R2, out of play): 3 counted. R2 is then placed on the
    map: still 3 (A, U, R2), not 4, so a Green card with requirement 3 advances the
    track. (Before: R2 counted on the map and again in the report, 4, no advance.)"""
    deck = (card(1, "green", 12, mission_requirement=3),)
    units = [ai("A", "0505"), _u("U", "0508"), _u("R2", "0309", in_play=False)]
    _, s = run(state(units, deck), {"type": "ReportCounters", "rumored": 0, "reinforcements": 1})
    _, s = run(
        s, {"type": "ReportPosition", "unit": "R2", "hex": "0309", "facing": 0, "in_play": True}
    )
    assert s.reinforcements_this_round == 0
    events, s = ai_turn(s, 1)
    check = one(events, MissionTrackChecked)
    assert (check.count, check.advanced, s.mission_track) == (3, True, 1)
    assert "3 AI and Units in play, 0 Rumored Enemy counters, 0 reinforcements" in (
        check.explanation
    )


def test_s4_0_an_ai_reinforcement_the_mission_brings_in_counts_once() -> None:
    """4.0 with 7.0: the player reports 1 reinforcement arriving this round (the AI's R,
    which Counteraction 1 brings in); card 1 (Blue) carries Counteraction 1, R enters at
    1201. Next AI turn, Green card 2 (requirement 3) reads A, U and R in play: 3, and
    advances; before, R also stayed in the reported count (4, no advance)."""
    deck = (
        card(1, "blue", 12, "Counteraction 1"),
        card(2, "green", 12, mission_requirement=3),
    )
    units = [ai("A", "0505"), _u("U", "0508"), ai("R", "1201", in_play=False)]
    ca = MissionInstruction(number=1, text="R enters at 1201", reinforcements=("R",))
    s = state(units, deck, counteractions=[ca])
    _, s = run(s, {"type": "ReportCounters", "rumored": 0, "reinforcements": 1})
    _, s = ai_turn(s, 1)  # draws card 1 (faces: the 1st remaining card)
    assert s.unit("R").in_play and s.reinforcements_this_round == 0  # type: ignore[union-attr]
    events, s = ai_turn(s, 1)  # card 1 is discarded: the 1st remaining is card 2
    check = one(events, MissionTrackChecked)
    assert (check.card, check.count, check.advanced) == (2, 3, True)


def test_s4_0_an_unreported_arrival_leaves_the_other_reported_ones() -> None:
    """4.0: two reinforcements reported as arriving this round; one (R2) is placed. The
    other is still to arrive and still counts: A, U, R2 on the map + 1 = 4 against
    requirement 3: no advance."""
    deck = (card(1, "green", 12, mission_requirement=3),)
    units = [ai("A", "0505"), _u("U", "0508"), _u("R2", "0309", in_play=False)]
    _, s = run(state(units, deck), {"type": "ReportCounters", "rumored": 0, "reinforcements": 2})
    _, s = run(
        s, {"type": "ReportPosition", "unit": "R2", "hex": "0309", "facing": 0, "in_play": True}
    )
    events, _ = ai_turn(s, 1)
    check = one(events, MissionTrackChecked)
    assert (check.count, check.advanced) == (4, False)


# 3.1.1 / 4.0: card draws when the deck runs out -------------------------------------------


def test_s3_1_1_the_spent_check_of_the_last_card_reshuffles_the_discards() -> None:
    """3.1.1: after an AI acts on a Green card it must 'Draw an Order Card' for its AP
    Spent Check. The deck holds card 1 only (Green, AP Spent Number 2, 'AI closest to
    Unit -> Fire'): the AI turn draws it (draw 1 of 1), A fires at U (2D6 1+1, a miss),
    and the pile is empty for the check: the discards (card 1) are reshuffled in and card
    1 is drawn again: fire cost 2 (the default) >= 2, A is spent."""
    deck = (card(1, "green", 2, "AI closest to Unit -> Fire"),)
    s = state([ai("A", "0505"), _u("U", "0508")], deck)
    events, s = ai_turn(s, 1, [1, 1], [1])
    drawn = every(events, OrderCardDrawn)
    assert [d.card for d in drawn] == [1, 1]
    assert one(events, DeckReshuffled).cards == (1,)
    check = one(events, SpentCheckMade)
    assert (check.ap_spent_number, check.spent) == (2, ("A",))
    assert not s.unit("A").fresh  # type: ignore[union-attr]


def test_s3_1_1_a_players_check_on_an_empty_pile_takes_back_the_ais_card() -> None:
    """3.1.1 with 4.0: the AI turn drew the deck's last card (Blue 1, no order it can
    execute: the AI passes). The player's Unit U then moves for 3 APs: its AP Spent Check
    finds the pile empty, the discards are reshuffled, and card 1 (AP Spent Number 4) is
    drawn: 3 < 4, U stays fresh."""
    deck = (card(1, "blue", 4, "AI closest to Objective -> Move"),)
    s = state([ai("A", "0505"), _u("U", "0508")], deck)
    _, s = ai_turn(s, 1)
    assert s.deck == () and s.discards == (1,)
    events, s = run(s, {"type": "UnitAction", "units": ["U"], "action": "move", "ap": 3}, [[1]])
    assert one(events, DeckReshuffled).cards == (1,)
    check = one(events, SpentCheckMade)
    assert (check.card, check.ap_cost, check.spent) == (1, 3, ())
    assert s.unit("U").fresh  # type: ignore[union-attr]


def test_s3_1_1_an_ais_remain_fresh_card_keeps_it_fresh() -> None:
    """3.1.1 ('AP Spent Check' for Units and AIs): 'Units drawing an AP Spent Check card
    with the Symbol remain fresh'. A fires on Green card 1 (AP Spent Number 1); the check
    draws card 2 (AP Spent Number 1, Remain Fresh symbol): 2 APs >= 1, but A stays fresh."""
    deck = (
        card(1, "green", 1, "AI closest to Unit -> Fire"),
        card(2, "green", 1, remain_fresh=True),
    )
    s = state([ai("A", "0505"), _u("U", "0508")], deck)
    events, s = ai_turn(s, 1, [1, 1], [1])
    check = one(events, SpentCheckMade)
    assert (check.card, check.spent) == (2, ())
    assert s.unit("A").fresh  # type: ignore[union-attr]


# 4.0: the first choice impossible -----------------------------------------------------------


def test_s4_0_a_spent_ai_order_on_a_green_card_can_never_be_executed() -> None:
    """4.0: 'A Green Card designates an Action Order card where the Priority and Tactical
    orders can be executed only by Fresh AIs'. A 'Spent AI' order on a Green card names
    AIs the card excludes: it cannot be executed even with spent B in range, and the
    tactical order runs with fresh A."""
    deck = (
        card(1, "green", 12, "Spent AI closest to Unit -> Fire",
             tactical=("AI closest to Unit -> Fire",)),
    )  # fmt: skip
    s = state([ai("A", "0505"), ai("B", "0507", fresh=False), _u("U", "0508")], deck)
    events, _ = ai_turn(s, 1, [1, 1], [1])
    assert one(events, AiFired).unit == "A"
    assert one(events, AiUnitSelected).unit == "A"


def test_s4_0_a_rally_order_with_no_hit_ai_falls_to_the_next_order() -> None:
    """4.0: 'working down until one of these orders can be executed': 'Hit AI closest to
    Unit -> Rally' with no hit AI cannot be executed; 'AI closest to Unit -> Fire' runs."""
    deck = (card(1, "blue", 12, "Hit AI closest to Unit -> Rally", "AI closest to Unit -> Fire"),)
    events, _ = ai_turn(state([ai("A", "0505"), _u("U", "0508")], deck), 1, [1, 1])
    assert one(events, AiFired).unit == "A"


# 3.0: a stall is no pass --------------------------------------------------------------------


def test_s3_0_a_stall_between_two_ai_passes_does_not_end_the_round() -> None:
    """3.0 Stall: 'This keeps you from having to take a Pass Action' and the round ends
    only 'if you and the AI pass consecutively'. The AI passes (no executable order), the
    player stalls with 1 CAP, the AI passes again: still round 1; the player then passes
    right after the AI's pass: round 2."""
    deck = (card(1, "blue", 12, "AI closest to Objective -> Move"),)
    s = state([ai("A", "0505"), _u("U", "0508")], deck)
    _, s = ai_turn(s, 1)
    _, s = run(s, {"type": "Stall"})
    events, s = run(s, {"type": "TakeAiTurn"}, [[1]])
    assert one(events, AiPassed) and s.round == 1
    _, s = run(s, {"type": "Pass"})
    assert s.round == 2


# End conditions ------------------------------------------------------------------------------


def test_the_players_last_unit_destroyed_ends_the_mission_unless_one_is_to_come() -> None:
    """Mission end (README 'End of the mission': a side with no counter left in play or
    still to come loses, in the batch of the 7.3 report that removed its last): U, the
    player's only Unit, destroyed -> the AI wins. With the player's reinforcement R2 still
    out of play, the same report ends nothing."""
    events, _ = run(
        state([ai("A", "0505"), _u("U", "0508")]), {"type": "ReportDestroyed", "unit": "U"}
    )
    ended = [e for e in events if type(e).__name__ == "GameEnded"]
    assert len(ended) == 1 and "AI wins" in ended[0].result  # type: ignore[attr-defined]
    units = [ai("A", "0505"), _u("U", "0508"), _u("R2", "0309", in_play=False)]
    events, _ = run(state(units), {"type": "ReportDestroyed", "unit": "U"})
    assert not [e for e in events if type(e).__name__ == "GameEnded"]
