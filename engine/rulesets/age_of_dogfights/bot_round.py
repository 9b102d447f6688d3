"""A game round: every bot's blue-or-green roll first, then every bot flies, in designation
order.

001_989a2f850da69b66.txt Combat: "In each game round, first roll a standard die for each bot
fighter plane to determine whether to use a blue or green die ... Movement is then
determined using the following steps", and Step II reads "the number already rolled on the
blue/green die". So the round opens with each bot fighter's blue/green roll (with its '?'
confirmation) and the roll of the die it chose, bot by bot in designation order; then the
bots fly one after another, each seeing the earlier bots' new positions. Retreat triggers
(General Rules: "must start retreating immediately") are checked before the rolls, so a
bot that must retreat flies by the retreat rule's throttle instead, and again after each
bot flies; a mission bot takes its die in its own move ('Mission' Aircraft: not a
fighter, no blue/green roll).
"""

from __future__ import annotations

from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.events import RoundEnded, RoundStarted
from umpire.engine.rulesets.age_of_dogfights.fighter import fly_fighter
from umpire.engine.rulesets.age_of_dogfights.mission import fly_mission
from umpire.engine.rulesets.age_of_dogfights.retreat import check_triggers, fly_retreat
from umpire.engine.rulesets.age_of_dogfights.terms import Kind
from umpire.engine.rulesets.age_of_dogfights.throttle import choose_die, roll_movement
from umpire.engine.rulesets.age_of_dogfights.turn import AgeOfDogfightsTurn


def fly_round(turn: AgeOfDogfightsTurn) -> None:
    """Fly every bot once: the fighters' dice first (Combat), then each bot's steps."""
    number = turn.state.round + 1
    turn.emit(RoundStarted(round=number, rule=c.COMBAT))
    for bot in turn.state.bots():
        check_triggers(turn, bot.id)
    steps: dict[str, int] = {}
    for bot in turn.state.bots():
        if bot.retreating or turn.state.kind_of(bot).kind is not Kind.FIGHTER:
            continue
        colour = choose_die(turn, bot)
        steps[bot.id] = roll_movement(turn, turn.state.plane(bot.id), colour)
    for bot in turn.state.bots():
        if turn.state.plane(bot.id).out:
            continue
        bot = turn.state.plane(bot.id)
        if bot.id in steps:
            fly_fighter(turn, bot.id, steps[bot.id])
        elif bot.retreating:
            fly_retreat(turn, bot.id)
        else:
            fly_mission(turn, bot.id)
        check_triggers(turn, bot.id)
    turn.emit(RoundEnded(round=number))
