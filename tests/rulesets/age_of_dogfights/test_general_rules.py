"""001_989a2f850da69b66.txt General Rules: a die for equal choices, the cardinal rule as
a logged decision, and collision avoidance outside the Random maneuver."""

from __future__ import annotations

import pytest

from tests.rulesets.age_of_dogfights.setups import arrange, combat_state, of_type, run, run_until
from umpire.engine.rulesets.age_of_dogfights.approach import approach
from umpire.engine.rulesets.age_of_dogfights.choice import equal_choice
from umpire.engine.rulesets.age_of_dogfights.events import (
    BotMoved,
    CardinalRuleApplied,
    EqualChoiceRolled,
)
from umpire.engine.rulesets.age_of_dogfights.random_manoeuvre import random_manoeuvre
from umpire.events.types import DiceRolled

STATE = combat_state({"P1": ("se5a", (2, 2), "E", 3)}, {"B1": ("albatros_dv", (8, 6), "E", 3)})


@pytest.mark.parametrize(
    ("n", "faces", "index"),
    [
        (2, [[3]], 0),
        (2, [[4]], 1),
        (3, [[2]], 0),
        (3, [[4]], 1),
        (3, [[5]], 2),
        (4, [[6], [5], [4]], 3),  # four options: 5 and 6 are re-rolled
        (5, [[6], [5]], 4),
        (6, [[6]], 5),
        (8, [[7]], 6),  # more than six options: one die with that many sides
    ],
)
def test_equal_choice_die(n: int, faces: list[list[int]], index: int) -> None:
    out: list[int] = []
    _, events = run(STATE, lambda ctx: out.append(
        equal_choice(ctx, "B1", "test", [f"o{i}" for i in range(n)])), faces)  # fmt: skip
    assert out == [index]
    (logged,) = of_type(events, EqualChoiceRolled)
    assert logged.chosen == f"o{index}" and logged.rule.endswith("(equal choices not covered)")
    assert len(logged.dice) == len(faces)
    assert [c.chosen for c in logged.candidates].count(True) == 1
    if n > 6:
        assert of_type(events, DiceRolled)[0].sides == (n,)


def test_one_option_needs_no_die() -> None:
    out: list[int] = []
    _, events = run(STATE, lambda ctx: out.append(equal_choice(ctx, "B1", "t", ["only"])), [])
    assert out == [0] and not events


def test_cardinal_rule_is_a_logged_decision() -> None:
    """Nowhere safe to go (turns used up, the edge ahead): the best alternative, logged
    with the rule, the alternatives and why."""
    s = arrange(STATE, "B1", position=(16, 6))
    s = arrange(s, "B1", aircraft_type="albatros_dv")
    s_types = dict(s.types)
    from msgspec.structs import replace

    s_types["albatros_dv"] = replace(s_types["albatros_dv"], agility=0)
    s = replace(s, types=s_types)
    events, _ = run_until(
        s, lambda ctx: random_manoeuvre(ctx, "B1", 3, why="t"), [[1], [5], [3]] * 6
    )
    cardinal = of_type(events, CardinalRuleApplied)
    assert cardinal and cardinal[0].rule == "001_989a2f850da69b66.txt General Rules (cardinal rule)"
    assert cardinal[0].candidates and cardinal[0].chosen == "straight"
    assert "benefits the bot most" in cardinal[0].explanation
    assert of_type(events, BotMoved)[0].exited


def test_approach_avoids_ending_on_another_aircraft() -> None:
    """An aircraft on the destination point at the same level: the bot does not end
    there (General Rules: movement corrected to avoid a collision)."""
    s = combat_state({"P2": ("se5a", (10, 6), "E", 3)},
                     {"B1": ("albatros_dv", (4, 6), "E", 3),
                      "B2": ("albatros_dv", (8, 6), "E", 3)})  # fmt: skip
    events, _ = run_until(s, lambda ctx: approach(ctx, "B1", 4, why="t"), [[2]] * 4)
    (moved,) = of_type(events, BotMoved)
    assert moved.position != (8, 6) and moved.target == "P2"
    assert any(c.option.startswith("2d") and not c.chosen for c in moved.candidates)
    s = arrange(s, "B2", level=4)  # a different level: no collision, 2d is reached
    events, _ = run_until(s, lambda ctx: approach(ctx, "B1", 4, why="t"), [[2]] * 4)
    assert of_type(events, BotMoved)[0].position == (8, 6)


def test_looking_ahead_a_trap_at_the_edge_has_no_room() -> None:
    """Interpretation (README): paths that leave no way to stay on the board next round
    are avoided while others exist."""
    from umpire.engine.rulesets.age_of_dogfights.geometry import Heading
    from umpire.engine.rulesets.age_of_dogfights.movement import has_room, keep_room
    from umpire.engine.rulesets.age_of_dogfights.paths import Path

    bot = STATE.plane("B1")
    trapped = Path(turns=(), points=((0, 6),), heading=Heading.W)
    open_sky = Path(turns=(), points=((8, 6),), heading=Heading.W)
    assert not has_room(STATE, bot, trapped) and has_room(STATE, bot, open_sky)
    assert keep_room(STATE, bot, [trapped, open_sky]) == [open_sky]
    assert keep_room(STATE, bot, [trapped]) == [trapped]  # nothing better: kept


def test_cardinal_rule_turns_away_from_the_edge_when_the_die_cannot_help() -> None:
    """Flying straight on after any die result would leave the board; the cardinal rule
    takes a turn from which the bot can still turn again and stay on the board."""
    s = arrange(STATE, "B1", position=(1, 6), heading="W")
    events, _ = run_until(
        s, lambda ctx: random_manoeuvre(ctx, "B1", 3, why="t"), [[1], [5], [3]] * 6
    )
    cardinal = of_type(events, CardinalRuleApplied)
    assert cardinal and cardinal[0].chosen in ("left", "right")
    (moved,) = of_type(events, BotMoved)
    assert not moved.exited
