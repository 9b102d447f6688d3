"""5.1 AI Fire Order Eligibility: close-combat penalties, and the hit formula behind the
11+ rule (003_368c69a730e6e14a.txt 5.1, 5.2; README 'Hit formula')."""

from __future__ import annotations

from tests.rulesets.conflict_of_heroes.setups import (
    ai,
    ai_turn,
    card,
    every,
    one,
    reasons,
    state,
    unit,
)
from umpire.engine.rulesets.conflict_of_heroes.events import AiMoved, AiPassed, AiUnitSelected
from umpire.engine.rulesets.conflict_of_heroes.hit_chance import RangeBand, shot
from umpire.engine.rulesets.conflict_of_heroes.scenario import TerrainSpec

MOVE = (card(1, "blue", 12, "AI closest to Unit -> Move"),)


def test_cc_penalty_ai_will_not_move_into_close_combat() -> None:
    """5.1: 'An AI with CC penalties (such as MGs and Mortars) will not move into CC':
    the MG next to U steps sideways (with `sideways_moves`; by default it cannot carry
    the order out, README ledger 5.3); a rifle squad would move in."""
    s = state([ai("MG", "0507", cc_penalty=True), unit("U", "0508")], MOVE)
    events, _ = ai_turn(s, 1)
    assert "MG: cannot move closer" in str(one(events, AiPassed).candidates)
    s = state([ai("MG", "0507", cc_penalty=True), unit("U", "0508")], MOVE, sideways_moves=True)
    events, _ = ai_turn(s, 1, [1])
    moved = one(events, AiMoved)
    assert moved.to_hex in {"0408", "0608"} and "CC penalties" in reasons(moved.candidates)["0508"]
    s = state([ai("R", "0507"), unit("U", "0508")], MOVE)
    events, _ = ai_turn(s, 1)
    assert one(events, AiMoved).to_hex == "0508"


def test_cc_penalty_ai_in_close_combat_disengages() -> None:
    """5.1: it 'will attempt to disengage if in CC': in U's hex, a Move order takes it out
    (every hex is in U's Fire Zone, so the highest DM hex wins)."""
    s = state(
        [ai("MG", "0508", cc_penalty=True), unit("U", "0508", turreted=True)],
        MOVE,
        terrain=[TerrainSpec(hex="0507", dm=2)],
    )
    events, s = ai_turn(s, 1)
    moved = one(events, AiMoved)
    assert moved.to_hex == "0507" and "5.1" in moved.rule and s.unit("MG").hex == "0507"  # type: ignore[union-attr]


def test_ai_without_cc_penalty_in_close_combat_takes_no_orders() -> None:
    """Close combat is the base game's: an AI in it is not eligible for fire or move."""
    s = state([ai("R", "0508"), unit("U", "0508")], MOVE)
    events, _ = ai_turn(s, 1)
    assert "close combat" in one(events, AiPassed).candidates[0].reason
    assert every(events, AiUnitSelected) == []


def test_hit_formula_front_and_flank_dv_dm_and_range_modifiers() -> None:
    """Hit formula: needed = (front DV if in the target's front arc else flank DV) + DM
    - (FP + range modifier + attack modifier)."""
    s = state(
        [ai("A", "0505"), unit("U", "0508", facing=0), unit("V", "0506", facing=3)],
        terrain=[TerrainSpec(hex="0508", dm=1)],
        short_range_fp_modifier=1,
        attack_modifier=-1,
    )
    a, u, v = (s.unit(x) for x in ("A", "U", "V"))
    assert a is not None and u is not None and v is not None
    front = shot(s, a, u)  # A is in U's front arc (U faces N, A is north of it)
    assert (front.band, front.total_dv, front.attack, front.needed) == (
        RangeBand.NORMAL,
        12 + 1,
        5 - 1,
        9,
    )
    flank = shot(s, a, v)  # V faces S, A is behind it: flank DV; adjacent: short range
    assert (flank.band, flank.total_dv, flank.attack, flank.needed) == (
        RangeBand.SHORT,
        10,
        5 + 1 - 1,
        5,
    )
