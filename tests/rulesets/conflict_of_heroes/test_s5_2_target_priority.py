"""5.2 AI Fire Order Target Priority and the 11+ fall-through ('Executing an AI Order',
5.1) (003_368c69a730e6e14a.txt).

The AI A sits at 0505 (turreted, FP 5). 0508 and 0307 are both 3 hexes from it; 0506 is 1.
Units have equal front and flank DV so their facing never matters here.
"""

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
from umpire.engine.rulesets.conflict_of_heroes.events import (
    AiFired,
    AiMoved,
    AiOrderSelected,
    AiTargetSelected,
)
from umpire.engine.rulesets.conflict_of_heroes.scenario import TerrainSpec

A = ai("A", "0505", turreted=True)


def _u(uid: str, hex: str, **kw):  # type: ignore[no-untyped-def]
    values = dict(front_dv=12, flank_dv=12)
    values.update(kw)
    return unit(uid, hex, **values)


def _target(units, *faces, order="AI closest to Unit -> Fire", terrain=(), tactical=()):  # type: ignore[no-untyped-def]
    s = state([A, *units], (card(1, "blue", 12, order, tactical=tactical),), terrain=terrain)
    events, _ = ai_turn(s, 1, *faces)
    return events


def _chosen(events) -> AiTargetSelected:  # type: ignore[no-untyped-def]
    return one(events, AiTargetSelected)


def test_lowest_total_dv_first() -> None:
    """5.2: 'the Unit that is easiest to hit (with the lowest total DV)': by DV, and by the
    hex's DM (total DV = DV + DM)."""
    t = _chosen(_target([_u("U1", "0508"), _u("U2", "0307", front_dv=11, flank_dv=11)], [1, 1]))
    assert t.target == "U2" and "lowest total DV" in reasons(t.candidates)["U1"]
    t = _chosen(
        _target(
            [_u("U1", "0508"), _u("U2", "0307")], [1, 1], terrain=[TerrainSpec(hex="0508", dm=1)]
        )
    )
    assert t.target == "U2" and t.needed == 7


def test_then_the_hit_unit() -> None:
    """5.2: then 'the hit Unit'."""
    t = _chosen(_target([_u("U1", "0508"), _u("U2", "0307", hit=True)], [1, 1]))
    assert t.target == "U2" and "hit Unit" in reasons(t.candidates)["U1"]


def test_then_the_fresh_unit() -> None:
    """5.2: then 'the fresh Unit'."""
    t = _chosen(_target([_u("U1", "0508", fresh=False), _u("U2", "0307")], [1, 1]))
    assert t.target == "U2" and "fresh Unit" in reasons(t.candidates)["U1"]


def test_then_the_highest_firepower() -> None:
    """5.2: then 'the Unit with the highest firepower'."""
    t = _chosen(_target([_u("U1", "0508"), _u("U2", "0307", firepower=6)], [1, 1]))
    assert t.target == "U2" and "highest firepower" in reasons(t.candidates)["U1"]


def test_then_the_lowest_cost_to_fire() -> None:
    """5.2: then 'the Unit with the lowest cost to fire'."""
    t = _chosen(_target([_u("U1", "0508"), _u("U2", "0307", fire_cost=1)], [1, 1]))
    assert t.target == "U2" and "cost to fire" in reasons(t.candidates)["U1"]


def test_then_the_lowest_cost_to_move() -> None:
    """5.2: then 'the Unit with the lowest cost to move'."""
    t = _chosen(_target([_u("U1", "0508", move_cost=2), _u("U2", "0307")], [1, 1]))
    assert t.target == "U2" and "cost to move" in reasons(t.candidates)["U1"]


def test_then_1d6_among_the_tied_units() -> None:
    """5.2: 'Randomly determine a Unit, by assigning each Unit a number and rolling 1D6'."""
    events = _target([_u("U1", "0508"), _u("U2", "0307")], [2], [1, 1])
    t = _chosen(events)
    assert t.target == "U2" and len(t.dice) == 1 and "random" in reasons(t.candidates)["U1"]
    assert one(events, AiFired).target == "U2"


def test_equal_distance_comes_before_the_dv() -> None:
    """5.2 applies among targets 'that are equal distance away': a closer harder target is
    fired at before a farther easier one."""
    t = _chosen(_target([_u("U1", "0508"), _u("U3", "0506", front_dv=14, flank_dv=14)], [1, 1]))
    assert t.target == "U3" and "farther" in reasons(t.candidates)["U1"] and t.needed == 9


def test_a_target_needing_11_or_more_is_excluded_and_selection_repeated() -> None:
    """'If the AI needs an 11 or higher to hit this Target, then repeat the Target selection
    process, excluding the current Target': U3 (1 hex, DV 16: needs 11) is passed over."""
    events = _target([_u("U1", "0508"), _u("U3", "0506", front_dv=16, flank_dv=16)], [6, 6])
    t = _chosen(events)
    why = reasons(t.candidates)
    assert t.target == "U1" and "11+" in why["U3"] and "needs 11" in why["U3"]
    fired = one(events, AiFired)
    assert (fired.target, fired.needed, fired.roll, fired.hit) == ("U1", 7, 12, True)


def test_when_every_target_needs_11_the_ai_is_not_eligible_and_the_next_order_runs() -> None:
    """5.1: 'An AI will not fire at a Target if it needs a modified 2D6 result of 11 or
    higher': no eligible AI, so the card's next order is executed."""
    events = _target(
        [_u("U3", "0506", front_dv=16, flank_dv=16)], tactical=("AI closest to Unit -> Move",)
    )
    chosen = one(events, AiOrderSelected)
    assert chosen.section == "tactical" and "11 or higher" in chosen.candidates[0].reason
    assert every(events, AiFired) == [] and one(events, AiMoved).to_hex == "0506"


def test_no_long_range_unless_ordered() -> None:
    """5.1: 'An AI will never fire long range, unless directed to do so by the order':
    U is 7 hexes away (range 5, long range 10)."""
    far = [ai("B", "0501", turreted=True), _u("U", "0508")]
    s = state(far, (card(1, "blue", 12, "AI closest to Unit -> Fire"),))
    events, _ = ai_turn(s, 1)
    assert every(events, AiFired) == []
    s = state(
        far,
        (card(1, "blue", 12, "AI closest to Unit -> Fire Long Range"),),
        long_range_fp_modifier=-2,
    )
    events, _ = ai_turn(s, 1, [5, 4])
    fired = one(events, AiFired)
    assert fired.long_range and fired.needed == 9 and fired.hit


def test_lowest_dv_unit_order_targets_the_lowest_dv_the_ai_can_hit() -> None:
    """'Lowest DV Unit specifies the Unit that has the lowest DV that can be the Target of
    the eligible AI': U2 (DV 11, 3 hexes) over U3 (DV 13, 1 hex)."""
    events = _target(
        [_u("U2", "0307", front_dv=11, flank_dv=11), _u("U3", "0506", front_dv=13, flank_dv=13)],
        [1, 1],
        order="AI closest to Lowest DV Unit -> Fire",
    )
    assert _chosen(events).target == "U2"
