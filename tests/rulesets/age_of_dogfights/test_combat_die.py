"""001_989a2f850da69b66.txt Combat: the blue or green die, its -1, and the '?' roll."""

from __future__ import annotations

import pytest

from tests.rulesets.age_of_dogfights.setups import arrange, combat_state, of_type, run
from umpire.engine.rulesets.age_of_dogfights.events import DieChosen, MovementRolled
from umpire.engine.rulesets.age_of_dogfights.terms import DieColour
from umpire.engine.rulesets.age_of_dogfights.throttle import choose_die, retreat_die, roll_movement


def state(safe: int):  # type: ignore[no-untyped-def]
    s = combat_state({"P1": ("se5a", (2, 6), "E", 3)}, {"B1": ("albatros_dv", (15, 6), "W", 3)})
    return arrange(s, "B1", safe_throttle_left=safe)


@pytest.mark.parametrize(
    ("safe", "faces", "colour", "left"),
    [
        (4, [[4]], DieColour.BLUE, 4),  # 1-4 blue
        (4, [[5]], DieColour.GREEN, 3),  # 5-6 green, one safe usage spent
        (3, [[5]], DieColour.GREEN, 2),  # three left: no deduction
        (2, [[5]], DieColour.BLUE, 2),  # two left: 5 - 1 = 4, blue
        (1, [[6]], DieColour.GREEN, 0),  # one left: 6 - 1 = 5, green
        (1, [[5]], DieColour.BLUE, 1),
        (0, [[5], [3]], DieColour.BLUE, 0),  # '?': confirm 1-3 = no, blue
        (0, [[6], [4]], DieColour.GREEN, 0),  # '?': confirm 4-6 = yes, green
        (0, [[4]], DieColour.BLUE, 0),  # '?' but blue: no confirmation
    ],
)
def test_blue_or_green(safe: int, faces: list[list[int]], colour: DieColour, left: int) -> None:
    ctx, events = run(state(safe), lambda ctx: choose_die(ctx, ctx.state.plane("B1")), faces)
    (chosen,) = of_type(events, DieChosen)
    assert chosen.colour is colour
    assert ctx.state.plane("B1").safe_throttle_left == left


def test_no_full_throttle_means_blue_without_a_roll() -> None:
    s = arrange(state(3), "B1", full_throttle_available=False)
    _, events = run(s, lambda ctx: choose_die(ctx, ctx.state.plane("B1")), [])
    assert of_type(events, DieChosen)[0].colour is DieColour.BLUE


def test_movement_is_basic_speed_plus_the_face_modifier() -> None:
    """Placeholder model: blue faces (0,0,0,1,1,1), green (1,1,2,2,2,3); albatros speed 3."""
    for colour, face, steps in ((DieColour.BLUE, 1, 3), (DieColour.BLUE, 6, 4),
                                (DieColour.GREEN, 6, 6)):  # fmt: skip
        _, events = run(
            state(4), lambda ctx, c=colour: roll_movement(ctx, ctx.state.plane("B1"), c), [[face]]
        )
        assert of_type(events, MovementRolled)[0].steps == steps


def test_retreat_uses_full_throttle_and_rolls_at_question_mark() -> None:
    """General Rules: full throttle if available; at '?' 1-5 = blue die."""
    _, events = run(state(2), lambda ctx: retreat_die(ctx, ctx.state.plane("B1")), [])
    assert of_type(events, DieChosen)[0].colour is DieColour.GREEN
    _, events = run(state(0), lambda ctx: retreat_die(ctx, ctx.state.plane("B1")), [[5]])
    assert of_type(events, DieChosen)[0].colour is DieColour.BLUE
    _, events = run(state(0), lambda ctx: retreat_die(ctx, ctx.state.plane("B1")), [[6]])
    assert of_type(events, DieChosen)[0].colour is DieColour.GREEN
