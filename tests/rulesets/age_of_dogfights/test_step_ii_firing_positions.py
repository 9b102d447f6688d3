"""001_989a2f850da69b66.txt Step II: firing positions reachable with the rolled die, nose
and dorsal guns, and the target priorities 1-4."""

from __future__ import annotations

import pytest

from tests.rulesets.age_of_dogfights.setups import arrange, combat_state, of_type, run
from umpire.engine.rulesets.age_of_dogfights.attack import find_opportunities, walk
from umpire.engine.rulesets.age_of_dogfights.events import EqualChoiceRolled, FiringPositionsFound
from umpire.engine.rulesets.age_of_dogfights.terms import Column, Gun

BOT = {"B1": ("albatros_dv", (4, 6), "E", 3)}


def opportunities(state, steps=3, faces=()):  # type: ignore[no-untyped-def]
    out = []
    _ctx, events = run(
        state, lambda ctx: out.extend(find_opportunities(ctx, ctx.state.plane("B1"), steps)),
        faces,
    )  # fmt: skip
    return out, events


def walked(state, opps, faces):  # type: ignore[no-untyped-def]
    """The targets in the order Step II/III would consider them, with the events."""
    order: list[str] = []
    _, events = run(
        state,
        lambda ctx: order.extend(o.target for o in walk(ctx, ctx.state.plane("B1"), opps)),
        faces,
    )
    return order, events


def test_a_position_is_found_and_comes_first() -> None:
    """Priority 1: 'A' (behind the target, placeholder chart) before 'B' (head-on)."""
    s = combat_state({"P1": ("se5a", (9, 4), "W", 3), "P2": ("se5a", (9, 6), "E", 3)}, BOT)
    opps, events = opportunities(s)
    assert next((o.target, o.column) for o in opps) == ("P2", Column.A)
    assert ("P1", Column.B) in [(o.target, o.column) for o in opps]
    assert ("P1", Column.A) not in [(o.target, o.column) for o in opps]  # 6 steps away
    found = of_type(events, FiringPositionsFound)[0]
    assert found.opportunities[0] == "P2:A" and found.rule.endswith("Step II")
    a = next(o for o in opps if o.column is Column.A)
    assert any(opt.path.end == (7, 6) and opt.shot.range == 2 for opt in a.options)


def test_only_the_rolled_number_of_steps_counts() -> None:
    """'with the number already rolled': one step short, no 'A' position."""
    s = combat_state({"P2": ("se5a", (10, 6), "E", 3)}, BOT)
    opps, _ = opportunities(s, steps=3)
    assert not any(o.column is Column.A for o in opps)
    opps, _ = opportunities(s, steps=4)
    assert any(o.column is Column.A for o in opps)


def test_other_levels_are_not_firing_positions() -> None:
    s = combat_state({"P2": ("se5a", (9, 6), "E", 4)}, BOT)
    assert opportunities(s)[0] == []
    s = arrange(s, "B1", attitude="nose-up")  # tilted up: must climb one level, to L4
    assert [o.target for o in opportunities(s)[0]][:1] == ["P2"]


def test_dorsal_guns_count() -> None:
    """'Take into account opportunities for both nose and dorsal machine guns.'"""
    s = combat_state({"P1": ("se5a", (12, 6), "W", 3)},
                     {"B1": ("bristol_f2b", (10, 6), "E", 3)})  # fmt: skip
    opps, _ = opportunities(s)
    guns = {opt.shot.gun for o in opps for opt in o.options}
    assert guns == {Gun.DORSAL}  # it flies past P1; its nose cannot come round in 3 steps
    s = combat_state({"P1": ("se5a", (12, 6), "W", 3)},
                     {"B1": ("albatros_dv", (10, 6), "E", 3)})  # fmt: skip
    assert opportunities(s)[0] == []  # no dorsal gun, no opportunity


SYMMETRIC = {"P1": ("se5a", (9, 4), "W", 3), "P2": ("se5a", (9, 8), "W", 3)}


def test_mission_aircraft_before_fighters() -> None:
    """Priority 2: 'Mission' aircraft (that have not yet fulfilled their task)."""
    s = combat_state({"P1": ("se5a", (9, 4), "W", 3), "P2": ("dh4", (9, 8), "W", 3)}, BOT)
    opps, _ = opportunities(s)
    assert opps[0].target == "P2"
    s = arrange(s, "P2", mission_done=True)
    opps, _ = opportunities(s)
    assert {o.target for o in opps} == {"P1", "P2"}
    order, _ = walked(s, opps, [[1]])  # now equal: the die decides
    assert order == ["P1", "P2"]


def test_damaged_aircraft_before_undamaged() -> None:
    """Priority 3: damaged aircraft."""
    s = arrange(combat_state(SYMMETRIC, BOT), "P2", damaged=True)
    opps, _ = opportunities(s)
    assert [o.target for o in opps] == ["P2", "P1"]


def test_two_equal_targets_roll_lower_or_higher() -> None:
    """Priority 4: two targets, 1-3 = lower designation number, 4-6 = higher."""
    s = combat_state(SYMMETRIC, BOT)
    opps, _ = opportunities(s)
    for face, first in ((3, "P1"), (4, "P2")):
        order, events = walked(s, opps, [[face]])
        assert order[0] == first
        (tie,) = of_type(events, EqualChoiceRolled)
        assert "Step II (priority 4" in tie.rule and tie.chosen.startswith(first)


def test_three_equal_targets_roll_lower_medium_higher() -> None:
    """Priority 4: 1-2 = lower, 3-4 = medium, 5-6 = higher; after a skip the two left
    are rolled for again when needed."""
    s = combat_state({**SYMMETRIC, "P3": ("se5a", (8, 6), "W", 3)}, BOT)
    opps, _ = opportunities(s)
    assert len({o.target for o in opps}) == 3 and all(o.column is Column.B for o in opps)
    order, events = walked(s, opps, [[3], [4]])
    assert order == ["P2", "P3", "P1"]  # medium of three, then higher of the two left
    assert len(of_type(events, EqualChoiceRolled)) == 2


def test_lower_designation_number_is_the_number_not_the_name() -> None:
    """Priority 4 (hand-worked, round 7): 'For two targets: 1-3 = lower designation number,
    4-6 = higher number'. Here P2 carries designation number 1 and P1 number 2, so a 3
    picks P2 and a 4 picks P1: the die reads the numbers, not the aircraft names."""
    s = combat_state({"P2": ("se5a", (9, 4), "W", 3), "P1": ("se5a", (9, 8), "W", 3)}, BOT)
    assert (s.plane("P2").number, s.plane("P1").number) == (1, 2)
    opps, _ = opportunities(s)
    for face, first in ((3, "P2"), (4, "P1")):
        order, events = walked(s, opps, [[face]])
        assert order == [first, "P1" if first == "P2" else "P2"]
        (tie,) = of_type(events, EqualChoiceRolled)
        assert tie.chosen == f"{first} (#{s.plane(first).number})"
        assert "lower designation number" in tie.question or "higher designation" in tie.question


@pytest.mark.parametrize(
    ("faces", "order"),
    [
        ([[2], [1]], ["P1", "P2", "P3"]),  # 2 is the top of 1-2: lower; then 1: lower of two
        ([[5], [4]], ["P3", "P2", "P1"]),  # 5 is the bottom of 5-6: higher; 4 of two: higher
    ],
)
def test_three_equal_targets_at_the_band_edges(faces: list[list[int]], order: list[str]) -> None:
    """Priority 4 (hand-worked, round 7): three targets, '1-2 = lower, 3-4 = medium, 5-6 =
    higher number': the edge faces 2 and 5; the two left are then 1-3 lower, 4-6 higher."""
    s = combat_state({**SYMMETRIC, "P3": ("se5a", (8, 6), "W", 3)}, BOT)
    opps, _ = opportunities(s)
    walked_order, events = walked(s, opps, faces)
    assert walked_order == order
    first, _ = of_type(events, EqualChoiceRolled)
    assert first.rule.endswith("row 1-2 = lower" if faces[0][0] == 2 else "row 5-6 = higher")
