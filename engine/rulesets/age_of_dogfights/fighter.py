"""A bot fighter's round: Steps I, II and III (with Jammed Machine Guns), on the die rolled
at the start of the round (bot_round.py).

001_989a2f850da69b66.txt Combat, Step I, Step II, Step III: with the blue or green die
already rolled; if the pilot's guns are jammed, try to unjam them; check whether the initial
position is Exposed (1 = Random maneuver, +1 aggressive, -1 cautious); else look for
firing positions, go down the priority list (Step III), and fly the Approach maneuver when
no attack is made.
"""

from __future__ import annotations

from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.approach import approach
from umpire.engine.rulesets.age_of_dogfights.attack import find_opportunities, fly_attack, step_iii
from umpire.engine.rulesets.age_of_dogfights.exposure import Pose, check
from umpire.engine.rulesets.age_of_dogfights.firing import usable_guns
from umpire.engine.rulesets.age_of_dogfights.jammed_guns import unjam
from umpire.engine.rulesets.age_of_dogfights.random_manoeuvre import random_manoeuvre
from umpire.engine.rulesets.age_of_dogfights.tables.seed_tables import (
    AGGRESSIVENESS_MODIFIER,
    EXPOSED_RESPONSE,
)
from umpire.engine.rulesets.age_of_dogfights.throttle import choose_die, roll_movement
from umpire.engine.rulesets.age_of_dogfights.turn import AgeOfDogfightsTurn


def fly_fighter(turn: AgeOfDogfightsTurn, bot_id: str, steps: int | None = None) -> None:
    """One round of a bot fighter, with the movement `steps` its die gave at the start of
    the round (Combat; bot_round.fly_round); without them, it rolls them first (Combat's
    blue/green roll and the die it chose), as a round of one bot does."""
    if steps is None:
        colour = choose_die(turn, turn.state.plane(bot_id))
        steps = roll_movement(turn, turn.state.plane(bot_id), colour)
    bot = turn.state.plane(bot_id)
    if bot.pilot_guns_jammed:
        unjam(turn, bot_id, steps)
        return
    # Step I
    pose = Pose(position=bot.position, heading=bot.heading, level=bot.level)
    if check(turn, bot, pose, "initial position", rule=c.STEP_I):
        result = turn.table(
            bot.id,
            EXPOSED_RESPONSE,
            modifier=AGGRESSIVENESS_MODIFIER[bot.aggressiveness],
            why_modifier=f"{bot.aggressiveness} pilot",
            purpose="Exposed initial position",
        )
        if result == "random maneuver":
            random_manoeuvre(turn, bot_id, steps, why="Exposed initial position")
            return
    # Step II
    if usable_guns(turn.state, bot):
        opps = find_opportunities(turn, bot, steps)
        # Step III
        chosen = step_iii(turn, bot, opps) if opps else None
        if chosen is not None:
            opp, option = chosen
            fly_attack(turn, bot_id, opp, option, rule=c.STEP_III)
            return
        why = "all opportunities skipped" if opps else "no target reachable this round"
    else:
        why = "no usable guns"
    approach(turn, bot_id, steps, why=why)
