"""General Rules: retreat.

001_989a2f850da69b66.txt General Rules: a bot that uses all its ammunition or whose guns
are damaged retreats at once; damage to wings, tail or engine calls for a die (+1
aggressive, -1 cautious): 1-2 retreat | 3-6 continue fighting. The decision is noted and
kept until the bot leaves the Combat Zone; only a firing position can delay it (1-3 ignore
| 4-6 attack, +1 aggressive, -1 cautious, +2 for an 'A' position). A retreating bot flies
straight towards the side it started from and exits there, descends to the lowest level
(climbs to its highest when more than half of the remaining player fighters have a lower
service ceiling), and uses full throttle if available (throttle.retreat_die).
"""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.altitude import steer
from umpire.engine.rulesets.age_of_dogfights.attack import attack_top, find_opportunities
from umpire.engine.rulesets.age_of_dogfights.burst import fire_if_in_position
from umpire.engine.rulesets.age_of_dogfights.choice import equal_choice
from umpire.engine.rulesets.age_of_dogfights.events import RetreatDecided
from umpire.engine.rulesets.age_of_dogfights.firing import can_fire_offensively
from umpire.engine.rulesets.age_of_dogfights.geometry import Board
from umpire.engine.rulesets.age_of_dogfights.movement import collides, move
from umpire.engine.rulesets.age_of_dogfights.paths import Path, all_paths, distinct_ends
from umpire.engine.rulesets.age_of_dogfights.state import Plane
from umpire.engine.rulesets.age_of_dogfights.tables.seed_tables import (
    AGGRESSIVENESS_MODIFIER,
    DAMAGE_RETREAT,
    RETREAT_A_MODIFIER,
    RETREAT_ATTACK,
)
from umpire.engine.rulesets.age_of_dogfights.terms import Column, Kind, Manoeuvre
from umpire.engine.rulesets.age_of_dogfights.throttle import retreat_die, roll_movement
from umpire.engine.rulesets.age_of_dogfights.turn import AgeOfDogfightsTurn


def decide_retreat(
    turn: AgeOfDogfightsTurn, bot: Plane, reason: str, rule: str = c.RETREAT
) -> None:
    """Note down that the bot retreats (it keeps doing so until it leaves)."""
    turn.emit(
        RetreatDecided(
            aircraft=bot.id,
            rule=rule,
            retreating=True,
            reason=reason,
            explanation=f"{bot.id} must retreat: {reason}; noted, it retreats "
            "until it leaves the Combat Zone",
        )
    )


def check_triggers(turn: AgeOfDogfightsTurn, bot_id: str) -> None:
    """General Rules: all ammunition used, or damaged guns, means retreat at once."""
    bot = turn.state.plane(bot_id)
    if bot.retreating or bot.out:
        return
    kind = turn.state.kind_of(bot)
    if bot.guns_damaged:
        decide_retreat(turn, bot, "its machine guns are damaged")
        return
    left = (bot.ammo_nose if kind.nose_guns else 0) + (bot.ammo_dorsal if kind.dorsal_guns else 0)
    if (kind.nose_guns or kind.dorsal_guns) and left == 0:
        decide_retreat(turn, bot, "it has used all of its ammunition")


def damage_roll(turn: AgeOfDogfightsTurn, bot_id: str, part: str) -> None:
    """General Rules: damage to wings, tail or engine: 1-2 retreat | 3-6 fight on."""
    bot = turn.state.plane(bot_id)
    if bot.retreating:
        return
    result = turn.table(
        bot.id,
        DAMAGE_RETREAT,
        modifier=AGGRESSIVENESS_MODIFIER[bot.aggressiveness],
        why_modifier=f"{bot.aggressiveness} pilot",
        purpose=f"damage to its {part}",
    )
    if result == "retreat":
        decide_retreat(turn, bot, f"damage to its {part}", rule=DAMAGE_RETREAT.citation)
    else:
        turn.emit(
            RetreatDecided(
                aircraft=bot.id,
                rule=DAMAGE_RETREAT.citation,
                retreating=False,
                reason=f"damage to its {part}",
                explanation="continues fighting",
            )
        )


def retreat_level(turn: AgeOfDogfightsTurn, bot: Plane) -> tuple[int, str]:
    """Lowest level, or the ceiling when more than half of the remaining player fighters
    have a lower service ceiling than the bot."""
    state = turn.state
    fighters = [p for p in state.players() if state.kind_of(p).kind is Kind.FIGHTER]
    lower = [p for p in fighters if state.ceiling(p) < state.ceiling(bot)]
    if fighters and 2 * len(lower) > len(fighters):
        return state.ceiling(bot), (
            f"{len(lower)} of {len(fighters)} player fighters have a lower ceiling: climbs"
        )
    return 1, "descends to the lowest level to gain speed"


def retreat_path(turn: AgeOfDogfightsTurn, bot: Plane, paths: list[Path]) -> Path:
    """Straight towards its starting side: the path that exits soonest, else ends nearest
    that edge, with the fewest turns; a die among equal ones."""
    board = Board(turn.state.model.width, turn.state.model.height)
    edge = bot.start_edge.value

    def key(p: Path) -> tuple[int, int, int]:
        if (
            p.exited
            and board.distance_to_edge(p.points[-2] if len(p.points) > 1 else bot.position, edge)
            == 0
        ):
            return (0, len(p.points), p.turn_count())
        return (1, board.distance_to_edge(p.end, edge), p.turn_count())

    ranked = sorted(
        distinct_ends([p for p in paths if not p.exited or key(p)[0] == 0]) or paths, key=key
    )
    best = [p for p in ranked if key(p) == key(ranked[0])]
    return best[equal_choice(turn, bot.id, "equal retreat paths", [p.describe() for p in best])]


def fly_retreat(turn: AgeOfDogfightsTurn, bot_id: str) -> None:
    """One round of a retreating bot."""
    bot = turn.state.plane(bot_id)
    colour = retreat_die(turn, bot)
    steps = roll_movement(turn, turn.state.plane(bot_id), colour)
    bot = turn.state.plane(bot_id)
    if can_fire_offensively(turn.state, bot):
        opps = find_opportunities(turn, bot, steps, rule=c.RETREAT_ATTACK)
        if opps:
            has_a = any(o.column is Column.A for o in opps)
            modifier = AGGRESSIVENESS_MODIFIER[bot.aggressiveness] + (
                RETREAT_A_MODIFIER if has_a else 0
            )
            result = turn.table(
                bot.id,
                RETREAT_ATTACK,
                modifier=modifier,
                why_modifier=f"{bot.aggressiveness} pilot" + (", 'A' position" if has_a else ""),
                purpose="retreating: attack or ignore",
            )
            if result == "attack":
                attack_top(turn, bot_id, opps, rule=c.RETREAT_ATTACK)
                return
    target_level, why_level = retreat_level(turn, bot)
    alt = steer(turn.state, bot, target_level)
    board = Board(turn.state.model.width, turn.state.model.height)
    paths = [
        p
        for p in all_paths(
            bot.position,
            bot.heading,
            steps,
            turn.state.kind_of(bot).turn_limits(),
            board,
            allow_exit=True,
        )
        if not collides(turn.state, bot, p, alt.level)
    ]
    path = retreat_path(turn, bot, paths)
    move(
        turn,
        bot,
        Manoeuvre.RETREAT,
        path,
        alt.level,
        alt.attitude,
        rule=c.RETREAT_PATH,
        candidates=[
            Candidate(
                option=f"towards the {bot.start_edge.value} edge",
                chosen=True,
                reason=bot.retreat_reason or "retreating",
            )
        ],
        explanation=f"retreats towards the {bot.start_edge.value} edge: {path.describe()}; "
        f"{why_level}; {alt.note}",
        used_green=colour.value == "green",
    )
    fire_if_in_position(turn, bot_id)
