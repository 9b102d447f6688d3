"""'Mission' Aircraft: bots on bombing and photography missions.

001_989a2f850da69b66.txt 'Mission' Aircraft: they always fly towards the nearest Task Zone
by the shortest path; if it is already bombed/photographed, towards the next nearest; once
all zones are bombed at least once, bombers again fly towards the nearest. An aircraft that
can do both bombs first. A mission bot that can fire offensively and can reach an offensive
firing position on the way rolls each time: 1-5 ignore | 6 attack (+1 for an 'A' position).
Interpretations (README): mission bots use the blue die; they keep their altitude
(levelling out if tilted); a bot ending its move over a zone (within its radius) performs
its task there; a mission bot with no task left heads home (the retreat procedure).
"""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.altitude import steer
from umpire.engine.rulesets.age_of_dogfights.attack import attack_top, find_opportunities
from umpire.engine.rulesets.age_of_dogfights.burst import fire_if_in_position
from umpire.engine.rulesets.age_of_dogfights.choice import equal_choice
from umpire.engine.rulesets.age_of_dogfights.events import TaskPerformed
from umpire.engine.rulesets.age_of_dogfights.firing import can_fire_offensively
from umpire.engine.rulesets.age_of_dogfights.geometry import Board, distance
from umpire.engine.rulesets.age_of_dogfights.movement import collides, keep_room, move
from umpire.engine.rulesets.age_of_dogfights.paths import all_paths, distinct_ends
from umpire.engine.rulesets.age_of_dogfights.random_manoeuvre import random_manoeuvre
from umpire.engine.rulesets.age_of_dogfights.retreat import decide_retreat, fly_retreat
from umpire.engine.rulesets.age_of_dogfights.setup import TaskZone
from umpire.engine.rulesets.age_of_dogfights.state import Plane
from umpire.engine.rulesets.age_of_dogfights.tables.seed_tables import (
    MISSION_A_MODIFIER,
    MISSION_ATTACK,
)
from umpire.engine.rulesets.age_of_dogfights.terms import Column, Gun, Manoeuvre, Task
from umpire.engine.rulesets.age_of_dogfights.throttle import mission_die, roll_movement
from umpire.engine.rulesets.age_of_dogfights.turn import AgeOfDogfightsTurn


def next_task(turn: AgeOfDogfightsTurn, bot: Plane) -> Task | None:
    """Bombing before reconnaissance; None when no task is left."""
    kind = turn.state.kind_of(bot)
    if kind.bombs and not bot.bombs_dropped:
        return Task.BOMBING
    if kind.camera and not bot.photographed:
        return Task.RECON
    return None


def choose_zone(
    turn: AgeOfDogfightsTurn, bot: Plane, task: Task
) -> tuple[TaskZone, list[Candidate]]:
    """The nearest Task Zone not yet done for `task` (all zones once every one is done)."""
    state = turn.state
    done = state.bombed if task is Task.BOMBING else state.photographed
    zones = sorted(state.zones, key=lambda z: (distance(bot.position, z.position), z.name))
    open_zones = [z for z in zones if z.name not in done] or zones
    notes = [
        Candidate(
            option=z.name,
            chosen=False,
            reason=f"{distance(bot.position, z.position)}d; "
            + (
                "already " + ("bombed" if task is Task.BOMBING else "photographed")
                if z not in open_zones
                else "farther"
            ),
        )
        for z in zones
    ]
    nearest = distance(bot.position, open_zones[0].position)
    tied = [z for z in open_zones if distance(bot.position, z.position) == nearest]
    zone = tied[equal_choice(turn, bot.id, "equally near Task Zones", [z.name for z in tied])]
    notes = [
        Candidate(
            option=n.option,
            chosen=n.option == zone.name,
            reason=f"nearest open zone at {nearest}d" if n.option == zone.name else n.reason,
        )
        for n in notes
    ]
    return zone, notes


def fly_mission(turn: AgeOfDogfightsTurn, bot_id: str) -> None:
    """One round of a mission bot."""

    bot = turn.state.plane(bot_id)
    task = next_task(turn, bot)
    if task is None or not turn.state.zones:
        decide_retreat(turn, bot, "no mission task left: heads home", rule=c.MISSION)
        fly_retreat(turn, bot_id)
        return
    colour = mission_die(turn, bot)
    steps = roll_movement(turn, turn.state.plane(bot_id), colour)
    bot = turn.state.plane(bot_id)
    if can_fire_offensively(turn.state, bot):
        opps = find_opportunities(turn, bot, steps, rule=c.MISSION_ATTACK, guns=(Gun.NOSE,))
        if opps:
            has_a = any(o.column is Column.A for o in opps)
            result = turn.table(
                bot.id,
                MISSION_ATTACK,
                modifier=MISSION_A_MODIFIER if has_a else 0,
                why_modifier="can come to an 'A' position",
                purpose="attack on the way",
            )
            if result == "attack":
                attack_top(turn, bot_id, opps, rule=c.MISSION_ATTACK)
                return
    zone, notes = choose_zone(turn, bot, task)
    alt = steer(turn.state, bot, bot.level)
    board = Board(turn.state.model.width, turn.state.model.height)
    paths = [
        p
        for p in all_paths(
            bot.position, bot.heading, steps, turn.state.kind_of(bot).turn_limits(), board
        )
        if not collides(turn.state, bot, p, alt.level)
    ]
    paths = keep_room(turn.state, bot, paths)
    if not paths:
        turn.cardinal(
            bot.id,
            "no path towards the Task Zone stays on the board",
            [("path to the zone", "none legal"), ("Random maneuver", "")],
            "Random maneuver",
            "its re-rolls keep the bot on the board",
        )
        random_manoeuvre(turn, bot_id, steps, why="no legal path to the Task Zone")
        return
    best = min(distance(p.end, zone.position) for p in paths)
    nearest = [p for p in paths if distance(p.end, zone.position) == best]
    fewest = min(p.turn_count() for p in nearest)
    ends = distinct_ends([p for p in nearest if p.turn_count() == fewest])
    path = ends[
        equal_choice(
            turn, bot.id, f"equal shortest paths to {zone.name}", [p.describe() for p in ends]
        )
    ]
    move(
        turn,
        bot,
        Manoeuvre.MISSION,
        path,
        alt.level,
        alt.attitude,
        rule=c.MISSION,
        candidates=notes,
        explanation=f"{task.value} mission: shortest path towards Task Zone {zone.name}: "
        f"{path.describe()}, {best}d from its centre",
    )
    if best <= zone.radius:
        turn.emit(
            TaskPerformed(
                aircraft=bot.id,
                rule=c.MISSION,
                zone=zone.name,
                task=task,
                explanation=f"over Task Zone {zone.name}: {task.value}",
            )
        )
    fire_if_in_position(turn, bot_id)
