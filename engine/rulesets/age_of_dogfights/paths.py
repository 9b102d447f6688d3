"""Exact path search: every path an aircraft can fly with a given number of steps.

Base game (placeholder model, model.py): each step may first turn 60 degrees left or right,
then moves one point forward; turns are limited per round by agility (a rotary engine
limits the unfavoured direction, aircraft.py). `all_paths` enumerates every such path,
depth first in the order straight, left, right, so the result is complete (no heuristic)
and its order deterministic.
"""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.rulesets.age_of_dogfights.geometry import Board, Heading, Point, step
from umpire.engine.rulesets.age_of_dogfights.geometry import turn_left as _left
from umpire.engine.rulesets.age_of_dogfights.geometry import turn_right as _right
from umpire.engine.rulesets.age_of_dogfights.terms import Steer

TURN_ORDER: tuple[Steer, ...] = (Steer.STRAIGHT, Steer.LEFT, Steer.RIGHT)


class Path(Struct, frozen=True, kw_only=True):
    """A flown path: the turn before each step, the point after each step, the final
    heading, and whether (with exits allowed) it left the board on its last step."""

    turns: tuple[Steer, ...]
    points: tuple[Point, ...]
    heading: Heading
    exited: bool = False

    @property
    def end(self) -> Point:
        """Where the path ends (the last point on the board if it exited)."""
        return self.points[-1]

    def turn_count(self) -> int:
        """How many turns it makes."""
        return sum(1 for t in self.turns if t is not Steer.STRAIGHT)

    def describe(self) -> str:
        """Compact text, e.g. 'S L S R -> (4, 5) NE'."""
        letters = "".join(t.value[0].upper() for t in self.turns)
        return f"{letters} -> {list(self.end)} {self.heading.value}" + (
            " (exits)" if self.exited else ""
        )


def apply_turn(heading: Heading, turn: Steer) -> Heading:
    """The heading after a turn."""
    if turn is Steer.LEFT:
        return _left(heading)
    if turn is Steer.RIGHT:
        return _right(heading)
    return heading


def all_paths(
    start: Point,
    heading: Heading,
    steps: int,
    limits: tuple[int, int, int],
    board: Board,
    *,
    allow_exit: bool = False,
) -> list[Path]:
    """Every path of `steps` steps within `limits` (total, left, right turns).

    Paths that leave the board are dropped, unless `allow_exit` (a retreating bot may exit):
    then a path ends at the step that leaves, with `exited` set and its last point the one
    outside the board.
    """
    total, max_left, max_right = limits
    found: list[Path] = []

    def walk(
        pos: Point,
        head: Heading,
        turns: tuple[Steer, ...],
        points: tuple[Point, ...],
        left: int,
        right: int,
    ) -> None:
        if len(turns) == steps:
            found.append(Path(turns=turns, points=points, heading=head))
            return
        for turn in TURN_ORDER:
            if turn is Steer.LEFT and (left >= max_left or left + right >= total):
                continue
            if turn is Steer.RIGHT and (right >= max_right or left + right >= total):
                continue
            new_head = apply_turn(head, turn)
            nxt = step(pos, new_head)
            if not board.contains(nxt):
                if allow_exit:
                    found.append(
                        Path(
                            turns=(*turns, turn),
                            points=(*points, nxt),
                            heading=new_head,
                            exited=True,
                        )
                    )
                continue
            walk(
                nxt,
                new_head,
                (*turns, turn),
                (*points, nxt),
                left + (turn is Steer.LEFT),
                right + (turn is Steer.RIGHT),
            )

    if steps <= 0:
        return [Path(turns=(), points=(start,), heading=heading)]
    walk(start, heading, (), (), 0, 0)
    return found


def straight_path(start: Point, heading: Heading, steps: int) -> Path:
    """Flying straight for `steps` steps (no board check)."""
    return Path(
        turns=(Steer.STRAIGHT,) * steps,
        points=tuple(step(start, heading, i) for i in range(1, steps + 1)) or (start,),
        heading=heading,
    )


def distinct_ends(paths: list[Path]) -> list[Path]:
    """The first path (in search order) to each distinct end point and heading."""
    seen: set[tuple[Point, Heading]] = set()
    out: list[Path] = []
    for p in paths:
        key = (p.end, p.heading)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out
