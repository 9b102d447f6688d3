"""A game round: every bot in the Combat Zone flies, in designation order.

001_989a2f850da69b66.txt Combat ("In each game round ... for each bot"). Retreat triggers
(General Rules) are checked before each bot flies; a retreating bot retreats, a mission
bot flies its mission, a fighter follows Steps I-III. Interpretation: bots fly one after
another in designation order, each seeing the earlier bots' new positions.
"""

from __future__ import annotations

from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.context import Context
from umpire.engine.rulesets.age_of_dogfights.events import RoundEnded, RoundStarted
from umpire.engine.rulesets.age_of_dogfights.fighter import fly_fighter
from umpire.engine.rulesets.age_of_dogfights.mission import fly_mission
from umpire.engine.rulesets.age_of_dogfights.retreat import check_triggers, fly_retreat
from umpire.engine.rulesets.age_of_dogfights.terms import Kind


def fly_round(ctx: Context) -> None:
    """Fly every bot once."""
    number = ctx.state.round + 1
    ctx.emit(RoundStarted(round=number, rule=c.COMBAT))
    for bot in ctx.state.bots():
        if ctx.state.plane(bot.id).out:
            continue
        check_triggers(ctx, bot.id)
        bot = ctx.state.plane(bot.id)
        if bot.retreating:
            fly_retreat(ctx, bot.id)
        elif ctx.state.kind_of(bot).kind is not Kind.FIGHTER:
            fly_mission(ctx, bot.id)
        else:
            fly_fighter(ctx, bot.id)
        check_triggers(ctx, bot.id)
    ctx.emit(RoundEnded(round=number))
