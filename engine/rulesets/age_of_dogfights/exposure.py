"""Step I: whether a bot's position is Exposed to a player aircraft.

001_989a2f850da69b66.txt Step I: a position is Exposed when one or more player aircraft
meet *all* five conditions: (1) it can attack at the bot's altitude level next round,
(2) the distance is not greater than its basic speed number, (3) it has ammunition, its
guns are not jammed and it may fire offensively, (4) it is in the 120-degree arc behind the
bot, (5) the bot is in its 120-degree front arc. The same test serves Step III (would a
firing position or Approach maneuver make the bot Exposed) and Jammed Machine Guns.
"""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.decision import Candidate
from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.events import ExposureChecked
from umpire.engine.rulesets.age_of_dogfights.geometry import (
    Heading,
    Point,
    behind,
    distance,
    in_front,
)
from umpire.engine.rulesets.age_of_dogfights.state import Plane, State
from umpire.engine.rulesets.age_of_dogfights.terms import Attitude
from umpire.engine.rulesets.age_of_dogfights.turn import AgeOfDogfightsTurn


class Pose(Struct, frozen=True, kw_only=True):
    """Where a bot is (or would be): point, heading and altitude level."""

    position: Point
    heading: Heading
    level: int


def reachable_levels(state: State, plane: Plane) -> tuple[int, ...]:
    """Levels an aircraft can be at next round (base game: level flight keeps its level;
    a tilted aircraft must change 1..climb/dive levels in its nose's direction)."""
    kind = state.kind_of(plane)
    if plane.attitude is Attitude.LEVEL:
        return (plane.level,)
    if plane.attitude is Attitude.NOSE_UP:
        top = min(plane.level + kind.climb, state.ceiling(plane))
        return tuple(range(plane.level + 1, top + 1)) or (plane.level,)
    bottom = max(plane.level - kind.dive, 1)
    return tuple(range(bottom, plane.level)) or (plane.level,)


def conditions(state: State, player: Plane, pose: Pose) -> tuple[bool, bool, bool, bool, bool]:
    """The five Step I conditions for one player aircraft against a bot pose."""
    kind = state.kind_of(player)
    return (
        pose.level in reachable_levels(state, player),
        distance(player.position, pose.position) <= kind.basic_speed,
        player.has_ammo and not player.jammed and player.can_fire and kind.offensive,
        behind(pose.position, pose.heading, player.position, 120),
        in_front(player.position, player.heading, pose.position, 120),
    )


_NAMES = (
    "1 can attack at the bot's level",
    "2 within its basic speed",
    "3 ammunition, guns clear, may fire offensively",
    "4 behind the bot (120 degrees)",
    "5 bot in its front arc (120 degrees)",
)


def threats(state: State, pose: Pose) -> list[tuple[Plane, tuple[bool, ...]]]:
    """Every player aircraft with its five conditions, in designation order."""
    return [(p, conditions(state, p, pose)) for p in state.players()]


def is_exposed(state: State, pose: Pose) -> bool:
    """Whether any player aircraft meets all five conditions."""
    return any(all(conds) for _, conds in threats(state, pose))


def check(
    turn: AgeOfDogfightsTurn, bot: Plane, pose: Pose, situation: str, rule: str = c.STEP_I
) -> bool:
    """Step I: decide and log whether `pose` is Exposed."""
    found = threats(turn.state, pose)
    exposing = tuple(p.id for p, conds in found if all(conds))
    candidates = tuple(
        Candidate(
            option=p.id,
            chosen=all(conds),
            reason="meets all five conditions"
            if all(conds)
            else "fails: " + "; ".join(n for n, ok in zip(_NAMES, conds, strict=True) if not ok),
        )
        for p, conds in found
    )
    turn.emit(
        ExposureChecked(
            aircraft=bot.id,
            rule=rule,
            candidates=candidates,
            explanation=f"{situation} at {list(pose.position)} {pose.heading.value} "
            f"L{pose.level}: "
            + (f"Exposed to {', '.join(exposing)}" if exposing else "not Exposed"),
            exposed=bool(exposing),
            threats=exposing,
            situation=situation,
        )
    )
    return bool(exposing)
