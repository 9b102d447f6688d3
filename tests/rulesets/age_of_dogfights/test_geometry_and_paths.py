"""The placeholder board model (geometry.py) and the exact path search (paths.py)."""

from __future__ import annotations

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from umpire.engine.rulesets.age_of_dogfights.aircraft import DEFAULT_TYPES
from umpire.engine.rulesets.age_of_dogfights.geometry import (
    Board,
    Heading,
    behind,
    distance,
    in_front,
    reverse,
    step,
    turn_left,
    turn_right,
)
from umpire.engine.rulesets.age_of_dogfights.paths import all_paths, apply_turn, distinct_ends
from umpire.engine.rulesets.age_of_dogfights.terms import Steer

BIG = Board(40, 40)


def test_six_headings_turn_and_reverse() -> None:
    assert turn_left(Heading.E) is Heading.NE and turn_right(Heading.E) is Heading.SE
    assert reverse(Heading.NE) is Heading.SW
    p = (10, 10)
    for h in Heading:
        assert distance(p, step(p, h)) == 1
        assert step(step(p, h), reverse(h)) == p
    assert distance((10, 10), step((10, 10), Heading.NE, 4)) == 4


def test_arcs_are_inclusive_at_the_edges() -> None:
    """Step I conditions 4 and 5: arcs of up to 120 degrees (edges included)."""
    o = (10, 10)
    ahead = step(o, Heading.E, 3)
    assert in_front(o, Heading.E, ahead, 60) and in_front(o, Heading.E, ahead, 120)
    side = step(o, Heading.NE, 2)  # 60 degrees off the nose: on the 120-degree edge
    assert in_front(o, Heading.E, side, 120) and not in_front(o, Heading.E, side, 60)
    abeam = step(step(o, Heading.NE, 1), Heading.NW, 1)  # 90 degrees
    assert not in_front(o, Heading.E, abeam, 120) and not behind(o, Heading.E, abeam, 120)
    assert behind(o, Heading.E, step(o, Heading.W, 2), 120)
    assert not in_front(o, Heading.E, o, 120)


def test_path_count_is_exact_on_an_open_board() -> None:
    """Three steps, three turns allowed: every one of 3^3 sequences is a path."""
    paths = all_paths((20, 20), Heading.E, 3, (3, 3, 3), BIG)
    assert len(paths) == 27
    assert paths[0].turns == (Steer.STRAIGHT,) * 3  # search order: straight, left, right
    assert paths[-1].turns == (Steer.RIGHT,) * 3


def test_agility_limits_turns_and_rotary_limits_the_unfavoured_side() -> None:
    """Random Maneuver example: rotary, agility III, two left turns, no third."""
    camel = DEFAULT_TYPES["sopwith_camel"]
    assert camel.turn_limits() == (3, 2, 3)
    paths = all_paths((20, 20), Heading.E, 4, camel.turn_limits(), BIG)
    assert all(p.turns.count(Steer.LEFT) <= 2 for p in paths)
    assert any(p.turns.count(Steer.RIGHT) == 3 for p in paths)
    assert all(p.turn_count() <= 3 for p in paths)
    one = all_paths((20, 20), Heading.E, 3, (1, 1, 1), BIG)
    assert len(one) == 1 + 3 * 2


def test_paths_leaving_the_board_are_dropped_unless_exiting_is_allowed() -> None:
    board = Board(10, 10)
    inside = all_paths((8, 4), Heading.E, 3, (2, 2, 2), board)
    assert all(board.contains(pt) for p in inside for pt in p.points)
    exiting = all_paths((8, 4), Heading.E, 3, (2, 2, 2), board, allow_exit=True)
    assert any(p.exited for p in exiting)


@settings(max_examples=40, deadline=None)
@given(
    steps=st.integers(1, 5),
    agility=st.integers(0, 3),
    heading=st.sampled_from(list(Heading)),
)
def test_search_equals_brute_force(steps: int, agility: int, heading: Heading) -> None:
    """The search is exact: it finds exactly the turn sequences within the limits."""
    limits = (agility, agility, agility)
    found = {p.turns for p in all_paths((20, 20), heading, steps, limits, BIG)}
    brute = {
        seq
        for seq in product(list(Steer), repeat=steps)
        if sum(t is not Steer.STRAIGHT for t in seq) <= agility
    }
    assert found == brute
    ends = distinct_ends(all_paths((20, 20), heading, steps, limits, BIG))
    assert len({(p.end, p.heading) for p in ends}) == len(ends)
    for p in ends:
        h, pos = heading, (20, 20)
        for t in p.turns:
            h = apply_turn(h, t)
            pos = step(pos, h)
        assert (pos, h) == (p.end, p.heading)
