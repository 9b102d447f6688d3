"""001_989a2f850da69b66.txt Random Maneuver, with General Rules' re-roll to avoid the board
edge and collisions. Placeholder solo die: 1 left, 2 left (rotary symbol), 3-4 straight,
5 right, 6 right (rotary symbol)."""

from __future__ import annotations

import pytest

from tests.rulesets.age_of_dogfights.setups import arrange, combat_state, of_type, run
from umpire.engine.rulesets.age_of_dogfights.events import (
    BotMoved,
    CardinalRuleApplied,
    ResponseRolled,
)
from umpire.engine.rulesets.age_of_dogfights.random_manoeuvre import random_manoeuvre
from umpire.engine.rulesets.age_of_dogfights.terms import Attitude, Steer

FAR = {"P1": ("se5a", (2, 2), "E", 3)}


def fly(state, steps: int, faces):  # type: ignore[no-untyped-def]
    ctx, events = run(state, lambda ctx: random_manoeuvre(ctx, "B1", steps, why="test"), faces)
    (moved,) = of_type(events, BotMoved)
    return ctx, events, moved


def bot(kind: str = "albatros_dv", level: int = 3, **fields):  # type: ignore[no-untyped-def]
    s = combat_state(FAR, {"B1": (kind, (8, 6), "E", level)})
    return arrange(s, "B1", **fields) if fields else s


def test_one_solo_die_per_step_and_level_flight_keeps_its_altitude() -> None:
    _, _events, moved = fly(bot(), 3, [[3], [5], [1], [3]])
    assert moved.turns == (Steer.STRAIGHT, Steer.RIGHT, Steer.LEFT)
    assert moved.level == 3 and moved.attitude is Attitude.LEVEL  # attitude roll 3
    assert len(moved.dice) == 3 and moved.rule.endswith("Random Maneuver")


def test_rotary_engine_turns_its_favoured_way_on_the_symbol() -> None:
    """Face 2 is a left arrow with the rotary symbol: a right-favouring rotary turns right;
    an in-line engine follows the arrow."""
    _, _, moved = fly(bot("sopwith_camel"), 1, [[2], [3]])
    assert moved.turns == (Steer.RIGHT,)
    _, _, moved = fly(bot("albatros_dv"), 1, [[2], [3]])
    assert moved.turns == (Steer.LEFT,)


def test_turns_used_up_means_straight_without_rolling() -> None:
    """Agility II: after two turns the remaining steps are straight (no solo die)."""
    _, _, moved = fly(bot(), 4, [[1], [5], [3]])
    assert moved.turns == (Steer.LEFT, Steer.RIGHT, Steer.STRAIGHT, Steer.STRAIGHT)
    assert len(moved.dice) == 2


def test_rotary_reroll_when_the_direction_is_not_allowed() -> None:
    """The seed's example: agility III rotary, two left turns, no third: re-roll until
    straight or the other direction."""
    _, _, moved = fly(bot("sopwith_camel"), 3, [[1], [1], [1], [1], [5], [3]])
    assert moved.turns == (Steer.LEFT, Steer.LEFT, Steer.RIGHT)
    rerolled = [c for c in moved.candidates if not c.chosen]
    assert len(rerolled) == 2 and all("not allowed" in c.reason for c in rerolled)


@pytest.mark.parametrize(
    ("kind", "level", "attitude", "faces", "end_level"),
    [
        ("albatros_dv", 3, "nose-up", [[3], [3], [3]], 4),  # climb 1: one level, no roll
        ("se5a", 5, "nose-down", [[4], [3], [3], [3]], 3),  # two possible: 4 = two levels
        ("se5a", 5, "nose-down", [[3], [3], [3], [3]], 4),  # 3 = one level
        ("spad_xiii", 5, "nose-down", [[5], [3], [3], [3]], 2),  # three possible: 5 = three
        ("spad_xiii", 5, "nose-down", [[3], [3], [3], [3]], 3),  # 3 = two
        ("spad_xiii", 3, "nose-down", [[4], [3], [3], [3]], 1),  # only two possible above L1
        ("spad_xiii", 5, "nose-down", [[2], [3], [3], [3]], 4),  # three possible: 2 = one
        ("spad_xiii", 5, "nose-down", [[6], [3], [3], [3]], 2),  # three possible: 6 = three
        ("se5a", 5, "nose-down", [[1], [3], [3], [3]], 4),  # two possible: 1 = one level
        ("se5a", 5, "nose-down", [[6], [3], [3], [3]], 3),  # two possible: 6 = two levels
    ],
)
def test_tilted_start_must_change_levels(
    kind: str, level: int, attitude: str, faces: list[list[int]], end_level: int
) -> None:
    _, _events, moved = fly(bot(kind, level, attitude=attitude), 2, faces)
    assert moved.level == end_level


def test_tilted_at_its_limit_stays_by_the_cardinal_rule() -> None:
    _, events, moved = fly(bot("albatros_dv", 5, attitude="nose-up"), 1, [[3], [3]])
    assert moved.level == 5
    assert of_type(events, CardinalRuleApplied)[0].rule.endswith("(cardinal rule)")


@pytest.mark.parametrize(
    ("level", "attitude", "faces", "expected"),
    [
        (3, "level", [[3], [1]], Attitude.NOSE_DOWN),
        (3, "level", [[3], [6]], Attitude.NOSE_UP),
        (5, "level", [[3], [6]], Attitude.LEVEL),  # nose-up at the ceiling: level instead
        (1, "level", [[3], [1]], Attitude.LEVEL),  # nose-down at L1: level instead
    ],
)
def test_attitude_roll_and_its_fallback(
    level: int, attitude: str, faces: list[list[int]], expected: Attitude
) -> None:
    _, events, moved = fly(bot("albatros_dv", level, attitude=attitude), 1, faces)
    assert moved.attitude is expected
    # The explanation says why a rolled attitude was not flown (round 7, from a CLI game).
    rolled = "nose-up" if faces[-1][0] >= 5 else "nose-down" if faces[-1][0] <= 2 else ""
    where = "at L1" if level == 1 else f"at its ceiling, L{level}"
    refused = f"({rolled} rolled, not allowed {where}: level instead)"
    assert (refused in moved.explanation) is (rolled != "" and expected is Attitude.LEVEL)
    assert of_type(events, ResponseRolled)[-1].rule.startswith(
        "001_989a2f850da69b66.txt Random Maneuver (attitude"
    )


def test_no_tilt_after_descending_three_levels() -> None:
    """'... or it has just descended three altitude levels' -> level flight."""
    _, _, moved = fly(bot("spad_xiii", 5, attitude="nose-down"), 1, [[5], [3], [1]])
    assert moved.level == 2 and moved.attitude is Attitude.LEVEL
    assert "(nose-down rolled, not allowed after descending 3 levels: level instead)" in (
        moved.explanation
    )


def test_reroll_when_straight_steps_after_the_turn_would_leave_the_board() -> None:
    """General Rules: re-roll 'even if the crash would occur several straight movement
    steps after the last turn'."""
    s = arrange(bot(), "B1", position=(15, 6))
    _, _, moved = fly(s, 3, [[3], [5], [3], [3], [3]])
    assert moved.turns[0] is Steer.RIGHT
    first = moved.candidates[0]
    assert not first.chosen and "collision and board edge" in first.reason


def test_reroll_to_avoid_a_collision() -> None:
    s = combat_state({"P1": ("se5a", (11, 6), "E", 3)}, {"B1": ("albatros_dv", (8, 6), "E", 3)})
    _, _, moved = fly(s, 3, [[3], [4], [1], [3], [3], [3]])
    assert moved.position != (11, 6) and moved.turns[0] is Steer.LEFT
    assert [c.chosen for c in moved.candidates[:3]] == [False, False, True]
