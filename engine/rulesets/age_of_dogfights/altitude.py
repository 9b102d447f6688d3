"""Altitude and attitude: the Approach maneuver's altitude rules and their limits.

001_989a2f850da69b66.txt Approach Maneuver: Altitude. A bot in level flight keeps its
level and tilts its nose towards the target level (stays level if equal). Tilted towards
the target level, it changes as many levels as possible until it reaches it (level flight
once reached, else it stays tilted). Tilted away, it changes only one level and then tilts
towards the target level. Starting higher, it aims one level above the destination point
and then tilts its nose down (`hold_nose_down`). The retreat uses the same steering.
Base-game limits (placeholders): a tilted aircraft changes at most `climb` / `dive`
levels a round; no nose-up at the ceiling, no nose-down at L1, and after descending
`three_level_descent_levels_out` levels the aircraft ends level (Random Maneuver example).
"""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.rulesets.age_of_dogfights.state import Plane, State
from umpire.engine.rulesets.age_of_dogfights.terms import ApproachAltitudeReading, Attitude
from umpire.events.plurals import counted


class Altitude(Struct, frozen=True, kw_only=True):
    """Level and attitude at the end of a move, with the reason in words."""

    level: int
    attitude: Attitude
    note: str


def _towards(target: int, level: int, hold_nose_down: bool) -> Attitude:
    if target > level:
        return Attitude.NOSE_UP
    if target < level:
        return Attitude.NOSE_DOWN
    return Attitude.NOSE_DOWN if hold_nose_down else Attitude.LEVEL


def allowed_attitude(
    state: State, bot: Plane, level: int, attitude: Attitude, descended: int
) -> bool:
    """Whether an end attitude is allowed at `level` after descending `descended` levels."""
    if attitude is Attitude.NOSE_UP and level >= state.ceiling(bot):
        return False
    if attitude is Attitude.NOSE_DOWN and level <= 1:
        return False
    return not (
        attitude is not Attitude.LEVEL and descended >= state.model.three_level_descent_levels_out
    )


def steer(state: State, bot: Plane, target: int, *, hold_nose_down: bool = False) -> Altitude:
    """Approach Maneuver: Altitude: the bot's level and attitude after this round."""
    kind = state.kind_of(bot)
    ceiling = state.ceiling(bot)
    target = min(max(target, 1), ceiling)
    level, attitude = bot.level, bot.attitude
    if attitude is Attitude.LEVEL:
        new_level = level
        new_attitude = _towards(target, level, hold_nose_down)
        if target == level and new_attitude is Attitude.NOSE_DOWN:
            # Already one level above the destination: the nose goes down to hold the
            # height advantage, not "towards" a level it is at.
            turn_note = (
                "one level above the destination: tilts nose-down to keep the height advantage"
            )
        elif new_attitude is not Attitude.LEVEL:
            turn_note = f"tilts {new_attitude.value} towards L{target}"
        else:
            turn_note = "stays level"
        note = f"level flight keeps L{level}; {turn_note}"
    elif (attitude is Attitude.NOSE_UP and target > level) or (
        attitude is Attitude.NOSE_DOWN and target < level
    ):
        cap = kind.climb if attitude is Attitude.NOSE_UP else kind.dive
        change = min(cap, abs(target - level))
        new_level = level + change if attitude is Attitude.NOSE_UP else level - change
        if new_level == target:
            new_attitude = Attitude.NOSE_DOWN if hold_nose_down else Attitude.LEVEL
            note = (
                f"tilted towards L{target}: changes {counted(change, 'level')} and reaches it"
                + (
                    ", one level above the destination: nose down to keep the height advantage"
                    if hold_nose_down
                    else ""
                )
            )
        else:
            new_attitude = attitude
            note = f"tilted towards L{target}: changes {counted(change, 'level')}, stays tilted"
    else:
        step = 1 if attitude is Attitude.NOSE_UP else -1
        new_level = min(max(level + step, 1), ceiling)
        new_attitude = _towards(target, new_level, hold_nose_down)
        if target == level:
            # Tilted at the very level it aims for (a bot that held its nose down one level
            # above the destination last round): a tilted aircraft must change level (base
            # game), so it changes one level, as when tilted away (README ledger).
            note = (
                f"tilted {attitude.value} at L{target}, the level it aims for: must change one "
                f"level, to L{new_level}, then tilts back towards L{target}"
            )
        else:
            note = (
                f"tilted away from L{target}: changes one level to L{new_level}, "
                "then tilts towards it"
            )
    descended = max(level - new_level, 0)
    if not allowed_attitude(state, bot, new_level, new_attitude, descended):
        note += f"; {new_attitude.value} not allowed at L{new_level}, stays level"
        new_attitude = Attitude.LEVEL
    return Altitude(level=new_level, attitude=new_attitude, note=note)


def approach_target_level(state: State, bot: Plane, chosen: Plane) -> tuple[int, bool, str]:
    """The destination point's level (Approach Maneuver: Altitude), the level the bot aims
    for (one above it when starting higher), and whether to hold the nose down."""
    delta = {Attitude.LEVEL: 0, Attitude.NOSE_DOWN: -1, Attitude.NOSE_UP: 1}[chosen.attitude]
    dest = min(max(chosen.level + delta, 1), state.model.max_level)
    if bot.level > dest and state.approach_altitude_reading is ApproachAltitudeReading.ONE_ABOVE:
        return dest + 1, True, f"destination L{dest}; starting higher, aims for L{dest + 1}"
    return dest, False, f"destination L{dest}"


def destination_level(state: State, chosen: Plane) -> int:
    """The level of the destination point behind `chosen`."""
    delta = {Attitude.LEVEL: 0, Attitude.NOSE_DOWN: -1, Attitude.NOSE_UP: 1}[chosen.attitude]
    return min(max(chosen.level + delta, 1), state.model.max_level)
