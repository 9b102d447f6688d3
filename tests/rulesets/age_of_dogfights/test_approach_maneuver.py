"""001_989a2f850da69b66.txt Approach Maneuver (and its Altitude rules)."""

from __future__ import annotations

import pytest

from tests.rulesets.age_of_dogfights.setups import (
    arrange,
    combat_state,
    of_type,
    run,
    run_until,
)
from umpire.engine.rulesets.age_of_dogfights.altitude import steer
from umpire.engine.rulesets.age_of_dogfights.approach import approach, choose_aircraft
from umpire.engine.rulesets.age_of_dogfights.events import BotMoved, EqualChoiceRolled
from umpire.engine.rulesets.age_of_dogfights.terms import Attitude, Manoeuvre


def moved(state, steps: int) -> BotMoved:  # type: ignore[no-untyped-def]
    events, _ = run_until(state, lambda ctx: approach(ctx, "B1", steps, why="test"), [[2]] * 2)
    (move,) = of_type(events, BotMoved)
    assert move.manoeuvre is Manoeuvre.APPROACH
    return move


def chosen_reason(move: BotMoved, prefix: str) -> str:
    return next(c.reason for c in move.candidates if c.chosen and c.option.startswith(prefix))


def test_destination_point_2d_behind_reached() -> None:
    s = combat_state({"P2": ("se5a", (10, 6), "E", 3)}, {"B1": ("albatros_dv", (4, 6), "E", 3)})
    move = moved(s, 4)
    assert move.position == (8, 6) and move.heading == "E" and move.target == "P2"
    assert chosen_reason(move, "2d behind") == "reached"


def test_longer_path_when_the_shortest_would_overshoot() -> None:
    """The straight path passes the point after 3 of 4 steps: a longer path ends on it
    (a rotary Camel, agility III, can zig-zag)."""
    s = combat_state({"P2": ("se5a", (9, 6), "E", 3)}, {"B1": ("sopwith_camel", (4, 6), "E", 3)})
    move = moved(s, 4)
    assert move.position == (7, 6) and move.turns != ("straight",) * 4
    assert "longer path" in chosen_reason(move, "2d behind")


def test_3d_or_4d_behind_when_agility_forbids_2d() -> None:
    s = combat_state({"P2": ("se5a", (11, 6), "E", 3)}, {"B1": ("albatros_dv", (8, 8), "NE", 3)})
    move = moved(s, 3)
    reasons = {c.option.split(" ")[0]: (c.chosen, c.reason) for c in move.candidates}
    assert reasons["2d"] == (False, "no path ends there (agility or distance)")
    assert reasons["3d"][0] is False
    assert reasons["4d"][0] is True and move.position == (7, 6)


def test_shortest_path_towards_it_when_nothing_works() -> None:
    """Too far for 2d: the path ending nearest the destination, as straight as possible."""
    s = combat_state({"P2": ("se5a", (16, 6), "E", 3)}, {"B1": ("albatros_dv", (4, 6), "E", 3)})
    move = moved(s, 3)
    assert move.turns == ("straight",) * 3 and move.position == (7, 6)
    assert "shortest path" in next(c.option for c in move.candidates if c.chosen and
                                   c.option.startswith("shortest"))  # fmt: skip


def test_chosen_aircraft_nearest_and_mission_first() -> None:
    bot = {"B1": ("albatros_dv", (4, 6), "E", 3)}
    s = combat_state({"P1": ("se5a", (7, 6), "E", 3), "P2": ("dh4", (14, 6), "E", 3)}, bot)
    out = []
    run(s, lambda ctx: out.append(choose_aircraft(ctx, ctx.state.plane("B1"))), [])
    assert out[0][0].id == "P2"  # the mission aircraft, though farther
    s = arrange(s, "P2", mission_done=True)
    out.clear()
    run(s, lambda ctx: out.append(choose_aircraft(ctx, ctx.state.plane("B1"))), [])
    assert out[0][0].id == "P1"


def test_equally_near_aircraft_are_chosen_by_a_die() -> None:
    s = combat_state({"P1": ("se5a", (8, 4), "E", 3), "P2": ("se5a", (8, 8), "E", 3)},
                     {"B1": ("albatros_dv", (4, 6), "E", 3)})  # fmt: skip
    out = []
    _, events = run(s, lambda ctx: out.append(choose_aircraft(ctx, ctx.state.plane("B1"))),
                    [[4]])  # fmt: skip
    assert out[0][0].id == "P2"
    assert of_type(events, EqualChoiceRolled)[0].rule.endswith("(equal choices not covered)")


def test_destination_above_ceiling_chooses_another_aircraft_or_climbs() -> None:
    """Nieuport ceiling L4: a player at L5 in level flight is out of reach."""
    bot = {"B1": ("nieuport_17", (4, 6), "E", 3)}
    s = combat_state({"P1": ("spad_xiii", (7, 6), "E", 5), "P2": ("se5a", (12, 6), "E", 3)}, bot)
    out = []
    run(s, lambda ctx: out.append(choose_aircraft(ctx, ctx.state.plane("B1"))), [])
    assert out[0][0].id == "P2"
    s = arrange(s, "P2", level=6)
    out.clear()
    run(s, lambda ctx: out.append(choose_aircraft(ctx, ctx.state.plane("B1"))), [])
    chosen, target, _, why = out[0]
    assert chosen.id == "P1" and target == 4 and "climbs" in why


@pytest.mark.parametrize(
    ("level", "attitude", "target", "hold", "expected"),
    [
        (3, "level", 5, False, (3, Attitude.NOSE_UP)),  # level: keeps level, tilts up
        (3, "level", 3, False, (3, Attitude.LEVEL)),  # same level: stays level
        (5, "level", 3, False, (5, Attitude.NOSE_DOWN)),
        (5, "nose-down", 2, False, (3, Attitude.NOSE_DOWN)),  # towards: dive 2, still tilted
        (4, "nose-down", 2, False, (2, Attitude.LEVEL)),  # reaches it: level flight
        (4, "nose-down", 5, False, (3, Attitude.NOSE_UP)),  # the seed example: L5 vs L4 down
        (2, "nose-up", 3, False, (3, Attitude.LEVEL)),
        (4, "level", 4, True, (4, Attitude.NOSE_DOWN)),  # height advantage: nose down
        (5, "nose-down", 4, True, (4, Attitude.NOSE_DOWN)),
        (4, "nose-down", 4, True, (3, Attitude.NOSE_UP)),  # tilted at its aim: must leave it
    ],
)
def test_altitude_rules(
    level: int, attitude: str, target: int, hold: bool, expected: tuple[int, Attitude]
) -> None:
    """Approach Maneuver: Altitude (SE5a placeholder ratings: climb 1, dive 2)."""
    s = combat_state({"P1": ("se5a", (7, 6), "E", 3)},
                     {"B1": ("se5a", (4, 6), "E", level)})  # fmt: skip
    s = arrange(s, "B1", attitude=attitude)
    result = steer(s, s.plane("B1"), target, hold_nose_down=hold)
    assert (result.level, result.attitude) == expected


def test_starting_higher_aims_one_level_above_the_destination() -> None:
    s = combat_state({"P2": ("se5a", (10, 6), "E", 2)}, {"B1": ("albatros_dv", (4, 6), "E", 5)})
    s = arrange(s, "B1", attitude="nose-down")
    move = moved(s, 4)
    assert move.level == 3 and move.attitude is Attitude.NOSE_DOWN  # L2 + 1, nose down


def test_destination_is_a_level_below_a_nose_down_target() -> None:
    s = combat_state({"P2": ("se5a", (10, 6), "E", 4)}, {"B1": ("albatros_dv", (4, 6), "E", 3)})
    s = arrange(s, "P2", attitude="nose-down")
    assert moved(s, 4).attitude is Attitude.LEVEL  # destination L3 = its own level
    s = arrange(s, "P2", attitude="nose-up")
    assert moved(s, 4).attitude is Attitude.NOSE_UP  # destination L5


def test_explanations_say_the_height_advantage_in_words() -> None:
    """Approach Maneuver: Altitude (round 7, from a CLI game): a bot one level above the
    destination 'tilt[s] its nose down (to maintain height advantage)'; the note says so
    rather than "tilts nose-down towards L4" at L4. Held nose-down at L4 the next round, it
    must change a level (base game: a tilted aircraft changes level), to L3, and climbs
    back: the note says it is tilted at the level it aims for, not "tilted away" (ledger)."""
    s = combat_state({"P1": ("se5a", (7, 6), "E", 3)}, {"B1": ("se5a", (4, 6), "E", 4)})
    held = steer(s, s.plane("B1"), 4, hold_nose_down=True)
    assert (held.level, held.attitude) == (4, Attitude.NOSE_DOWN)
    assert "keep the height advantage" in held.note and "towards L4" not in held.note
    s = arrange(s, "B1", attitude="nose-down")
    again = steer(s, s.plane("B1"), 4, hold_nose_down=True)
    assert (again.level, again.attitude) == (3, Attitude.NOSE_UP)
    assert "tilted away" not in again.note and "the level it aims for" in again.note
