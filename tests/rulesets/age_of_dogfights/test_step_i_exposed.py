"""001_989a2f850da69b66.txt Step I: the Exposed check (all five conditions) and the roll."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.age_of_dogfights.setups import (
    arrange,
    combat_state,
    of_type,
    run_until,
)
from umpire.engine.rulesets.age_of_dogfights.events import (
    ExposureChecked,
    FiringPositionsFound,
    ResponseRolled,
)
from umpire.engine.rulesets.age_of_dogfights.exposure import Pose, conditions, is_exposed
from umpire.engine.rulesets.age_of_dogfights.fighter import fly_fighter
from umpire.engine.rulesets.age_of_dogfights.geometry import Heading

BOT = Pose(position=(10, 6), heading=Heading.E, level=3)


def exposed_state(**player: Any):  # type: ignore[no-untyped-def]
    s = combat_state({"P1": ("se5a", (8, 6), "E", 3)}, {"B1": ("albatros_dv", (10, 6), "E", 3)})
    return arrange(s, "P1", **player) if player else s


def test_all_five_conditions_met_is_exposed() -> None:
    s = exposed_state()
    assert conditions(s, s.plane("P1"), BOT) == (True, True, True, True, True)
    assert is_exposed(s, BOT)


@pytest.mark.parametrize(
    ("player", "failing"),
    [
        ({"level": 5}, 0),  # 1: level flight at L5 cannot attack at L3 next round
        ({"position": (5, 6)}, 1),  # 2: 5 steps away, basic speed 4
        ({"jammed": True}, 2),  # 3: guns jammed
        ({"has_ammo": False}, 2),  # 3: no ammunition
        ({"can_fire": False}, 2),  # 3: not allowed to fire offensively
        ({"position": (12, 6), "heading": "W"}, 3),  # 4: in front of the bot, not behind
        ({"heading": "W"}, 4),  # 5: the bot is behind the player aircraft
    ],
)
def test_each_condition_can_fail_alone(player: dict[str, Any], failing: int) -> None:
    s = exposed_state(**player)
    met = conditions(s, s.plane("P1"), BOT)
    assert [i for i, ok in enumerate(met) if not ok] == [failing]
    assert not is_exposed(s, BOT)


def test_seed_example_nose_down_l4_can_attack_l2() -> None:
    """Step I condition 1 example: 'a player aircraft on L4 in a nosedown position can
    attack a bot on L2' (placeholder dive of 2 levels)."""
    s = exposed_state(level=4, attitude="nose-down")
    low = Pose(position=(10, 6), heading=Heading.E, level=2)
    assert conditions(s, s.plane("P1"), low)[0]
    assert not conditions(s, s.plane("P1"), Pose(position=(10, 6), heading=Heading.E, level=4))[0]


@pytest.mark.parametrize(
    ("aggressiveness", "roll", "result"),
    [
        ("average", 1, "random maneuver"),
        ("average", 2, "ignored"),
        ("cautious", 2, "random maneuver"),  # 2 - 1 = 1
        ("aggressive", 1, "ignored"),  # 1 + 1 = 2
    ],
)
def test_exposed_response_roll_with_modifiers(aggressiveness: str, roll: int, result: str) -> None:
    s = arrange(exposed_state(), "B1", aggressiveness=aggressiveness)
    events, asked = run_until(s, lambda ctx: fly_fighter(ctx, "B1"), [[1], [1], [roll]])
    (check,) = of_type(events, ExposureChecked)[:1]
    assert check.exposed and check.threats == ("P1",) and check.rule.endswith("Step I")
    response = of_type(events, ResponseRolled)[-1]
    assert response.result == result and response.rule.endswith(
        "(Exposed response roll), row 1 = random maneuver" if result != "ignored"
        else "(Exposed response roll), row 2-6 = ignored"
    )  # fmt: skip
    if result == "random maneuver":
        assert "solo die, step 1" in asked
        assert not of_type(events, FiringPositionsFound)
    else:
        assert of_type(events, FiringPositionsFound)  # on to Step II


def test_not_exposed_goes_straight_to_step_ii() -> None:
    s = exposed_state(heading="W")
    events, _ = run_until(s, lambda ctx: fly_fighter(ctx, "B1"), [[1], [1]])
    assert not of_type(events, ExposureChecked)[0].exposed
    assert of_type(events, FiringPositionsFound)
    assert all(e.table != "Exposed initial position" for e in of_type(events, ResponseRolled))
