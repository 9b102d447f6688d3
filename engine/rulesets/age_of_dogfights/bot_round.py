"""A game round: every bot in the Combat Zone flies, in designation order.

001_989a2f850da69b66.txt Combat ("In each game round ... for each bot"). Retreat triggers
(General Rules) are checked before each bot flies; a retreating bot retreats, a mission
bot flies its mission, a fighter follows Steps I-III. Interpretation: bots fly one after
another in designation order, each seeing the earlier bots' new positions.
"""

from __future__ import annotations

from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.events import RoundEnded, RoundStarted
from umpire.engine.rulesets.age_of_dogfights.fighter import fly_fighter
from umpire.engine.rulesets.age_of_dogfights.mission import fly_mission
from umpire.engine.rulesets.age_of_dogfights.retreat import check_triggers, fly_retreat
from umpire.engine.rulesets.age_of_dogfights.terms import Kind
from umpire.engine.rulesets.age_of_dogfights.turn import AgeOfDogfightsTurn


def fly_round(turn: AgeOfDogfightsTurn) -> None:
    """Fly every bot once."""
    number = turn.state.round + 1
    turn.emit(RoundStarted(round=number, rule=c.COMBAT))
    for bot in turn.state.bots():
        if turn.state.plane(bot.id).out:
            continue
        check_triggers(turn, bot.id)
        bot = turn.state.plane(bot.id)
        if bot.retreating:
            fly_retreat(turn, bot.id)
        elif turn.state.kind_of(bot).kind is not Kind.FIGHTER:
            fly_mission(turn, bot.id)
        else:
            fly_fighter(turn, bot.id)
        check_triggers(turn, bot.id)
    turn.emit(RoundEnded(round=number))
