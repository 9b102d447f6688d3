"""Jammed Machine Guns: unjamming by flying straight throughout the round.

001_989a2f850da69b66.txt Jammed Machine Guns: "If a bot aircraft has jammed machine guns
which are operated by the pilot, it can unjam them by flying straight throughout the round.
If this straight movement would make the bot Exposed, roll a standard die (+1 for
aggressive pilots, -1 for cautious pilots): 1-4 = Random maneuver | 5-6 = continue
unjamming". Interpretation: a bot with jammed pilot guns always tries to unjam (it cannot
attack with them); a tilted bot changes one level in its nose's direction and levels out.
"""

from __future__ import annotations

from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.events import GunsUnjammed
from umpire.engine.rulesets.age_of_dogfights.exposure import Pose, check
from umpire.engine.rulesets.age_of_dogfights.geometry import Board
from umpire.engine.rulesets.age_of_dogfights.movement import collides, move
from umpire.engine.rulesets.age_of_dogfights.paths import straight_path
from umpire.engine.rulesets.age_of_dogfights.random_manoeuvre import random_manoeuvre
from umpire.engine.rulesets.age_of_dogfights.tables.seed_tables import (
    AGGRESSIVENESS_MODIFIER,
    UNJAM,
)
from umpire.engine.rulesets.age_of_dogfights.terms import Attitude, Manoeuvre
from umpire.engine.rulesets.age_of_dogfights.turn import AgeOfDogfightsTurn


def unjam(turn: AgeOfDogfightsTurn, bot_id: str, steps: int) -> None:
    """Fly straight to unjam, or a Random maneuver when the roll says so."""
    bot = turn.state.plane(bot_id)
    model = turn.state.model
    board = Board(model.width, model.height)
    level = bot.level
    if bot.attitude is Attitude.NOSE_UP:
        level = min(level + 1, turn.state.ceiling(bot))
    elif bot.attitude is Attitude.NOSE_DOWN:
        level = max(level - 1, 1)
    path = straight_path(bot.position, bot.heading, steps)
    if not all(board.contains(p) for p in path.points) or collides(turn.state, bot, path, level):
        turn.cardinal(
            bot.id,
            "flying straight to unjam would leave the board or collide",
            [("fly straight and unjam", "leaves the board or collides"), ("Random maneuver", "")],
            "Random maneuver",
            "the Random maneuver re-rolls away from the edge and other aircraft",
        )
        random_manoeuvre(turn, bot_id, steps, why="cannot fly straight to unjam")
        return
    pose = Pose(position=path.end, heading=path.heading, level=level)
    if check(turn, bot, pose, "straight flight to unjam", rule=c.JAMMED):
        result = turn.table(
            bot.id,
            UNJAM,
            modifier=AGGRESSIVENESS_MODIFIER[bot.aggressiveness],
            why_modifier=f"{bot.aggressiveness} pilot",
            purpose="unjam while Exposed",
        )
        if result == "random maneuver":
            random_manoeuvre(turn, bot_id, steps, why="unjamming would be Exposed")
            return
    move(
        turn,
        bot,
        Manoeuvre.UNJAM,
        path,
        level,
        Attitude.LEVEL,
        rule=c.JAMMED,
        explanation=f"flies straight to unjam its guns: {path.describe()}",
    )
    turn.emit(
        GunsUnjammed(
            aircraft=bot.id,
            rule=c.JAMMED,
            explanation="flew straight all round: pilot's guns unjammed",
        )
    )
