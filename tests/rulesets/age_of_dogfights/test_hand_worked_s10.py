"""Fresh cases worked by hand from 001_989a2f850da69b66.txt (rules session 10), each with
its dice stated and its result worked from the seed's text (cited by heading): modifiers
that stack at a band's edge, a safe-throttle count running down, the altitude stands'
ends in a Random maneuver, and Game Setup's bands in one roll sequence."""

from __future__ import annotations

import msgspec

from tests.rulesets.age_of_dogfights.setups import (
    arrange,
    combat_state,
    decide,
    of_type,
    run,
    run_until,
)
from umpire.engine.rulesets.age_of_dogfights import initial_state
from umpire.engine.rulesets.age_of_dogfights.commands import RollSetup
from umpire.engine.rulesets.age_of_dogfights.events import (
    AggressivenessRolled,
    AltitudeRolled,
    BotMoved,
    DieChosen,
    ResponseRolled,
    SkillRolled,
)
from umpire.engine.rulesets.age_of_dogfights.random_manoeuvre import random_manoeuvre
from umpire.engine.rulesets.age_of_dogfights.retreat import fly_retreat
from umpire.engine.rulesets.age_of_dogfights.setup import Setup
from umpire.engine.rulesets.age_of_dogfights.terms import (
    Aggressiveness,
    Attitude,
    DieColour,
    Manoeuvre,
    Skill,
)
from umpire.engine.rulesets.age_of_dogfights.throttle import choose_die


def test_retreating_aggressive_bot_at_an_a_position_attacks_on_a_one() -> None:
    """General Rules: a retreating bot that can reach a firing position rolls "1-3 = ignore
    | 4-6 = attack" with +1 for an aggressive pilot and +2 for an 'A' position: both apply,
    so even a 1 reads 4 and it attacks. Dice: blue die 1, the roll 1, then the burst."""
    s = combat_state({"P1": ("se5a", (14, 6), "E", 3)}, {"B1": ("albatros_dv", (9, 6), "E", 3)})
    s = arrange(s, "B1", retreating=True, full_throttle_available=False,
                aggressiveness="aggressive")  # fmt: skip
    events, _ = run_until(s, lambda ctx: fly_retreat(ctx, "B1"), [[1], [1], [1], [1]])
    (rolled,) = [e for e in of_type(events, ResponseRolled) if e.table.startswith("retreating")]
    assert (rolled.modified, rolled.result) == (4, "attack")
    assert of_type(events, BotMoved)[0].manoeuvre is Manoeuvre.ATTACK


def test_the_deduction_starts_when_the_safe_usages_run_down_to_two() -> None:
    """Combat: "1-4 = blue die | 5-6 = green die" and "if only one or two safe usages of
    full throttle are left, deduct 1". With 3 safe usages a 5 is green and spends one,
    leaving 2; the next round the same 5 reads 4: blue, and none is spent."""
    s = combat_state({"P1": ("se5a", (2, 6), "E", 3)}, {"B1": ("albatros_dv", (15, 6), "W", 3)})
    s = arrange(s, "B1", safe_throttle_left=3)
    ctx, events = run(s, lambda c: choose_die(c, c.state.plane("B1")), [[5]])
    assert of_type(events, DieChosen)[0].colour is DieColour.GREEN
    assert ctx.state.plane("B1").safe_throttle_left == 2
    ctx, events = run(ctx.state, lambda c: choose_die(c, c.state.plane("B1")), [[5]])
    assert of_type(events, DieChosen)[0].colour is DieColour.BLUE
    assert ctx.state.plane("B1").safe_throttle_left == 2


def _random(kind: str, level: int, attitude: str, steps: int, faces: list[list[int]]) -> BotMoved:
    s = combat_state({"P1": ("se5a", (2, 2), "E", 3)}, {"B1": (kind, (8, 6), "E", level)})
    s = arrange(s, "B1", attitude=attitude)
    _, events = run(s, lambda ctx: random_manoeuvre(ctx, "B1", steps, why="test"), faces)
    (moved,) = of_type(events, BotMoved)
    return moved


def test_random_maneuver_tilted_down_one_level_above_the_floor() -> None:
    """Random Maneuver: a tilted bot "must climb/descend", and rolls for one or two levels
    only "If it is possible to change two levels". A SPAD XIII nose-down at L2 can only
    reach L1: no level roll. The attitude roll 1 (nose-down) is not allowed at the lowest
    level, so it flies level. Dice: solo die 3, 3 (straight), attitude 1."""
    moved = _random("spad_xiii", 2, "nose-down", 2, [[3], [3], [1]])
    assert (moved.level, moved.attitude) == (1, Attitude.LEVEL)


def test_random_maneuver_tilted_up_to_the_ceiling() -> None:
    """Random Maneuver: an Albatros D.V (service ceiling L5) nose-up at L4 climbs its one
    level to L5; the attitude roll 6 (nose-up) is not allowed at its maximum altitude, so
    it flies level. Dice: solo die 3 (straight), attitude 6."""
    moved = _random("albatros_dv", 4, "nose-up", 1, [[3], [6]])
    assert (moved.level, moved.attitude) == (5, Attitude.LEVEL)


def test_game_setup_bands_in_one_sequence() -> None:
    """Game Setup for one bot Albatros D.V (service ceiling L5) against an ace player:
    pilot skill 5 (3-5 = average), aggressiveness 6 (5-6 = aggressive), altitude 3 (1-3:
    roll again), then 6, higher than its ceiling: L5."""
    player = {"id": "P1", "number": 1, "aircraft_type": "se5a", "position": [0, 5],
              "heading": "E", "level": 3, "skill": "ace"}  # fmt: skip
    bot = {"id": "B1", "number": 1, "aircraft_type": "albatros_dv", "position": [17, 4]}
    state = initial_state(msgspec.convert({"players": [player], "bots": [bot]}, Setup))
    state, events = decide(state, RollSetup(), [[5], [6], [3], [6]])
    assert [e.skill for e in of_type(events, SkillRolled)] == [Skill.AVERAGE]
    assert [e.aggressiveness for e in of_type(events, AggressivenessRolled)] == [
        Aggressiveness.AGGRESSIVE
    ]
    assert of_type(events, AltitudeRolled)[0].level == 5 and state.plane("B1").level == 5
