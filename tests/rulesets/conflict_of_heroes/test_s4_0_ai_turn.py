"""4.0 AI Turn: Priority then Tactical Orders top down, the Mission Track, Counteractions
and Mission Orders (7.0, 7.1), rally orders, passing (003_368c69a730e6e14a.txt)."""

from __future__ import annotations

import msgspec
import pytest

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
from umpire.engine.actions import legal_actions
from umpire.engine.errors import NothingToDo
from umpire.engine.roles import Role
from umpire.engine.rulesets.conflict_of_heroes import RULESET
from umpire.engine.rulesets.conflict_of_heroes.events import (
    AiFired,
    AiMoved,
    AiOrderSelected,
    AiPassed,
    AiRallied,
    AiTurnEnded,
    MissionInstructionIssued,
    MissionTrackChecked,
)
from umpire.engine.rulesets.conflict_of_heroes.scenario import MissionInstruction, ObjectiveSpec

UNITS = [ai("A", "0505", turreted=True), unit("U", "0508")]
OBJ = [ObjectiveSpec(id="OBJ", hex="0305"), ObjectiveSpec(id="CM", hex="0705", control_marker=True)]


def test_priority_orders_before_tactical_orders_top_down() -> None:
    """4.0: 'attempt to execute a Priority Order first, then a Tactical Order, starting with
    the first order and working down until one of these orders can be executed'."""
    deck = (
        card(
            1,
            "blue",
            12,
            "Hit AI closest to Unit -> Fire",
            "AI closest to Unit -> Fire",
            tactical=("AI closest to Unit -> Move",),
        ),
    )
    events, _ = ai_turn(state(UNITS, deck), 1, [1, 1])
    chosen = one(events, AiOrderSelected)
    assert (chosen.section, chosen.index) == ("priority", 2)
    assert [c.chosen for c in chosen.candidates] == [False, True, False]
    assert "not hit" in chosen.candidates[0].reason and chosen.candidates[2].reason == "not reached"
    assert one(events, AiFired).unit == "A"


def test_tactical_order_when_no_priority_order_can_be_executed() -> None:
    """4.0: the Tactical Orders are tried after every Priority Order failed."""
    deck = (
        card(
            1,
            "blue",
            12,
            "Spent AI closest to Unit -> Fire",
            tactical=("AI closest to Control Marker -> Move",),
        ),
    )
    events, _ = ai_turn(state(UNITS, deck, objectives=OBJ), 1, [1])
    assert one(events, AiOrderSelected).section == "tactical"
    assert one(events, AiMoved).target == "CM"


def test_no_executable_order_means_the_ai_passes() -> None:
    """4.0 / 3.0: no order can be executed: the AI passes."""
    deck = (card(1, "blue", 12, "Hit AI closest to Unit -> Rally"),)
    events, s = ai_turn(state(UNITS, deck), 1)
    assert one(events, AiPassed).candidates[0].reason.startswith("no eligible AI")
    assert one(events, AiTurnEnded).passed and s.last_passed == "ai"


def test_rally_order_picks_a_hit_ai() -> None:
    """A Rally order is executed by a hit AI (the rally roll is the base game's)."""
    deck = (card(1, "green", 5, "Hit AI closest to Unit -> Rally"), card(2, "blue", 9))
    units = [ai("A", "0505"), ai("B", "0503", hit=True), unit("U", "0508")]
    events, s = ai_turn(state(units, deck), 1, [1])
    rallied = one(events, AiRallied)
    assert rallied.unit == "B" and rallied.ap_cost == 2
    assert s.unit("B").fresh  # type: ignore[union-attr]  # 2 AP < AP Spent Number 9


def test_mission_track_advances_when_count_is_at_most_the_requirement() -> None:
    """4.0 Mission Track Advance: AI plus Units in play, rumored counters and this round's
    reinforcements, non-combat units excluded, against the Green card's number."""
    deck = (card(1, "green", 12, mission_requirement=4),)
    units = [*UNITS, unit("TRUCK", "0101", non_combat=True), ai("B", "1010")]
    events, s = ai_turn(state(units, deck), 1)
    check = one(events, MissionTrackChecked)
    assert (check.count, check.advanced, check.track, s.mission_track) == (3, True, 1, 1)
    s2 = msgspec.structs.replace(
        state(units, deck), rumored_counters=1, reinforcements_this_round=1
    )
    events, s2 = ai_turn(s2, 1)
    check = one(events, MissionTrackChecked)
    assert (check.count, check.advanced, s2.mission_track) == (5, False, 0)


def test_blue_cards_do_not_check_the_mission_track() -> None:
    """4.0: the requirement is on 'some Green Cards' only."""
    events, _ = ai_turn(state(UNITS, (card(1, "blue", 12, mission_requirement=9),)), 1)
    assert every(events, MissionTrackChecked) == []


def test_reported_counters_count_toward_the_mission_track() -> None:
    """4.0: Rumored Enemy counters (6.0) and arriving reinforcements are reported."""
    _, s = run(state(UNITS), {"type": "ReportCounters", "rumored": 2, "reinforcements": 1})
    assert (s.rumored_counters, s.reinforcements_this_round) == (2, 1)
    # Issue 41 item 8: the same counts again change nothing: not listed, and refused.
    listed = legal_actions(RULESET, s, Role.PLAYER, ended=False)
    cases = next(a for a in listed if a.type == "ReportCounters").schema["anyOf"]
    rumored, arriving = (c["properties"] for c in cases)
    assert 2 not in rumored["rumored"]["enum"] and 1 not in arriving["reinforcements"]["enum"]
    with pytest.raises(NothingToDo, match="already"):
        run(s, {"type": "ReportCounters", "rumored": 2, "reinforcements": 1})


def test_counteraction_text_only_is_issued_to_the_player() -> None:
    """7.0: a Counteraction the mission describes in words is issued for the player to
    carry out."""
    deck = (card(1, "blue", 12, "Counteraction 1"),)
    s = state(UNITS, deck, counteractions=[MissionInstruction(number=1, text="Smoke at 0606")])
    events, _ = ai_turn(s, 1)
    issued = one(events, MissionInstructionIssued)
    assert (issued.kind, issued.number, issued.text) == ("counteraction", 1, "Smoke at 0606")


def test_mission_order_with_an_order_is_executed_and_missing_ones_fall_through() -> None:
    """7.1: a Mission Order's order is executed like a card order; a number the mission
    does not define cannot be executed, so the next order is tried."""
    deck = (card(1, "blue", 12, "Mission Order 9", "Mission Order 1"),)
    mo = MissionInstruction(
        number=1, text="Take the objective", order="AI closest to Objective OBJ -> Move"
    )
    s = state(UNITS, deck, objectives=OBJ, mission_orders=[mo])
    events, _ = ai_turn(s, 1, [1])
    chosen = one(events, AiOrderSelected)
    assert chosen.index == 2 and "no Mission Order 9" in chosen.candidates[0].reason
    assert one(events, MissionInstructionIssued).kind == "mission_order"
    assert one(events, AiMoved).target == "OBJ"
