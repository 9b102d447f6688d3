"""Approach Maneuver: fly towards the point 2d behind the chosen player aircraft.

001_989a2f850da69b66.txt Approach Maneuver: the chosen aircraft is the nearest player
aircraft, 'mission' aircraft first. The bot takes the shortest path to the destination
point 2d directly behind it; if it could reach and overshoot the point it must reach it by a
longer path (this search keeps only paths that *end* on it); if agility forbids, a point 3d
or 4d behind; if that fails too, the shortest path until its turns are spent, then straight
(the path ending nearest the destination point). Altitude: altitude.py. A destination
above the service ceiling makes it choose another aircraft; if all are above, it approaches
one and climbs as high as possible.
Step III: an Approach maneuver that would be Exposed is flown only on 4-6 (+1 aggressive,
-1 cautious), else a Random maneuver; one that would not be Exposed still turns into a
Random maneuver on a 1.
"""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.altitude import (
    approach_target_level,
    destination_level,
    steer,
)
from umpire.engine.rulesets.age_of_dogfights.burst import fire_if_in_position
from umpire.engine.rulesets.age_of_dogfights.choice import equal_choice
from umpire.engine.rulesets.age_of_dogfights.exposure import Pose, check
from umpire.engine.rulesets.age_of_dogfights.geometry import (
    Board,
    distance,
    in_front,
    reverse,
    step,
)
from umpire.engine.rulesets.age_of_dogfights.movement import collides, keep_room, move
from umpire.engine.rulesets.age_of_dogfights.paths import Path, all_paths, distinct_ends
from umpire.engine.rulesets.age_of_dogfights.random_manoeuvre import random_manoeuvre
from umpire.engine.rulesets.age_of_dogfights.state import Plane, is_mission
from umpire.engine.rulesets.age_of_dogfights.tables.seed_tables import (
    AGGRESSIVENESS_MODIFIER,
    APPROACH_RANDOM,
    SKIP_OR_ATTACK,
)
from umpire.engine.rulesets.age_of_dogfights.terms import Manoeuvre
from umpire.engine.rulesets.age_of_dogfights.turn import AgeOfDogfightsTurn


def choose_aircraft(turn: AgeOfDogfightsTurn, bot: Plane) -> tuple[Plane, int, bool, str]:
    """The chosen aircraft, the level the bot aims for, whether to hold the nose down,
    and the reason in words."""
    state = turn.state
    players = list(state.players())
    ceiling = state.ceiling(bot)
    eligible = [p for p in players if destination_level(state, p) <= ceiling]
    pool = eligible or players
    missions = [p for p in pool if is_mission(state, p)]
    pool = missions or pool
    nearest = min(distance(bot.position, p.position) for p in pool)
    closest = [p for p in pool if distance(bot.position, p.position) == nearest]
    index = equal_choice(
        turn,
        bot.id,
        "equally near player aircraft to approach",
        [p.id for p in closest],
        rule=c.EQUAL_CHOICE,
    )
    chosen = closest[index]
    why = ("nearest mission aircraft" if missions else "nearest player aircraft") + (
        f" at {nearest}d"
    )
    if not eligible:
        return chosen, ceiling, False, why + "; every destination is above its ceiling: climbs"
    target, hold, note = approach_target_level(state, bot, chosen)
    return chosen, target, hold, f"{why}; {note}"


def _pick(turn: AgeOfDogfightsTurn, bot: Plane, paths: list[Path], question: str) -> Path:
    ends = distinct_ends(paths)
    return ends[equal_choice(turn, bot.id, question, [p.describe() for p in ends])]


def approach_path(
    turn: AgeOfDogfightsTurn, bot: Plane, chosen: Plane, paths: list[Path], steps: int
) -> tuple[Path, list[Candidate]]:
    """Approach Maneuver: the path to the destination point (see module doc)."""
    board = Board(turn.state.model.width, turn.state.model.height)
    behind = reverse(chosen.heading)
    points = {k: step(chosen.position, behind, k) for k in (2, 3, 4)}
    notes: list[Candidate] = []
    d2 = points[2]
    reachable_by_distance = distance(bot.position, d2) <= steps
    for k in (2, 3, 4):
        if k > 2 and not reachable_by_distance:
            notes.append(
                Candidate(
                    option=f"{k}d behind",
                    chosen=False,
                    reason="not tried: 2d is out of reach by distance, not agility",
                )
            )
            continue
        point = points[k]
        if not board.contains(point):
            notes.append(
                Candidate(option=f"{k}d behind {list(point)}", chosen=False, reason="off the board")
            )
            continue
        ending = [p for p in paths if p.end == point]
        if not ending:
            notes.append(
                Candidate(
                    option=f"{k}d behind {list(point)}",
                    chosen=False,
                    reason="no path ends there (agility or distance)",
                )
            )
            continue
        overshoot = any(point in p.points[:-1] for p in paths)
        aligned = [p for p in ending if p.heading == chosen.heading] or ending
        path = _pick(turn, bot, aligned, f"equal paths to {k}d behind {chosen.id}")
        notes.append(
            Candidate(
                option=f"{k}d behind {list(point)}",
                chosen=True,
                reason="reached"
                + (" by a longer path (the shortest would overshoot)" if overshoot else ""),
            )
        )
        return path, notes
    aim = d2
    if not board.contains(d2):
        on_board = [q for q in (step(chosen.position, behind, 1), chosen.position)
                    if board.contains(q)]  # fmt: skip
        aim = on_board[0]
        turn.cardinal(
            bot.id,
            f"the destination point 2d behind {chosen.id} is off the board",
            [(f"fly towards {list(d2)} off the board", "would fly the bot off the board"),
             (f"fly towards {list(aim)}", "")],
            f"fly towards {list(aim)}",
            "the nearest point behind it on the board keeps the approach and the bot on it",
        )  # fmt: skip
    best = min(distance(p.end, aim) for p in paths)
    nearest = [p for p in paths if distance(p.end, aim) == best]
    facing = [
        p for p in nearest if p.end == aim or in_front(p.end, p.heading, chosen.position, 60)
    ] or nearest
    fewest = min(p.turn_count() for p in facing)
    path = _pick(
        turn, bot, [p for p in facing if p.turn_count() == fewest],
        f"equal paths towards {chosen.id}",
    )  # fmt: skip
    notes.append(
        Candidate(
            option=f"shortest path towards {list(aim)}",
            chosen=True,
            reason=f"ends {best}d from it, facing {chosen.id} where possible",
        )
    )
    return path, notes


def approach(turn: AgeOfDogfightsTurn, bot_id: str, steps: int, *, why: str) -> None:
    """Fly an Approach maneuver (with Step III's rolls), or the Random maneuver they call."""
    bot = turn.state.plane(bot_id)
    state = turn.state
    if not state.players():
        random_manoeuvre(turn, bot_id, steps, why="no player aircraft left to approach")
        return
    chosen, target_level, hold, chose_why = choose_aircraft(turn, bot)
    alt = steer(state, bot, target_level, hold_nose_down=hold)
    board = Board(state.model.width, state.model.height)
    paths = [
        p
        for p in all_paths(
            bot.position, bot.heading, steps, state.kind_of(bot).turn_limits(), board
        )
        if not collides(state, bot, p, alt.level)
    ]
    paths = keep_room(turn.state, bot, paths)
    if not paths:
        turn.cardinal(
            bot.id,
            "no Approach path stays on the board without a collision",
            [("Approach maneuver", "no legal path"), ("Random maneuver", "")],
            "Random maneuver",
            "its re-rolls keep the bot on the board",
        )
        random_manoeuvre(turn, bot_id, steps, why="no legal Approach path")
        return
    path, notes = approach_path(turn, bot, chosen, paths, steps)
    pose = Pose(position=path.end, heading=path.heading, level=alt.level)
    modifier = AGGRESSIVENESS_MODIFIER[bot.aggressiveness]
    if check(turn, bot, pose, "Approach maneuver", rule=c.STEP_III_APPROACH_EXPOSED):
        result = turn.table(
            bot.id,
            SKIP_OR_ATTACK,
            modifier=modifier,
            why_modifier=f"{bot.aggressiveness} pilot",
            purpose="Exposed Approach maneuver: skip or go",
        )
        if result == "skip":
            random_manoeuvre(turn, bot_id, steps, why="skipped an Exposed Approach maneuver")
            return
    else:
        result = turn.table(bot.id, APPROACH_RANDOM, purpose="Approach maneuver, 1 = Random")
        if result == "random maneuver":
            random_manoeuvre(turn, bot_id, steps, why="rolled 1 before an Approach maneuver")
            return
    move(
        turn,
        bot,
        Manoeuvre.APPROACH,
        path,
        alt.level,
        alt.attitude,
        rule=c.APPROACH,
        candidates=[Candidate(option=chosen.id, chosen=True, reason=chose_why), *notes],
        explanation=f"Approach maneuver ({why}) towards {chosen.id} ({chose_why}): "
        f"{path.describe()}; {alt.note}",
        target=chosen.id,
    )
    fire_if_in_position(turn, bot_id)
