"""decide: check a command against the rules and the state, and return its events."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from umpire.engine.errors import NothingToDo, RuleError
from umpire.engine.kit.decider import decider
from umpire.engine.kit.dispatch import Dispatch
from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.bot_round import fly_round
from umpire.engine.rulesets.age_of_dogfights.commands import (
    FlyBots,
    ReportAircraft,
    ReportBotDamage,
    RollSetup,
    changes_nothing,
    restated,
)
from umpire.engine.rulesets.age_of_dogfights.ending import end_result
from umpire.engine.rulesets.age_of_dogfights.events import BotDamageReported, PlayerAircraftReported
from umpire.engine.rulesets.age_of_dogfights.geometry import Board
from umpire.engine.rulesets.age_of_dogfights.retreat import check_triggers, damage_roll
from umpire.engine.rulesets.age_of_dogfights.setup_rolls import roll_setup
from umpire.engine.rulesets.age_of_dogfights.state import Phase, Plane, Side, State
from umpire.engine.rulesets.age_of_dogfights.terms import Damage
from umpire.engine.rulesets.age_of_dogfights.turn import AgeOfDogfightsTurn
from umpire.events.types import GameEnded, Winner


def _in_combat(state: State, what: str) -> None:
    if state.phase is not Phase.COMBAT:
        raise RuleError(
            f"{what} needs the Game Setup rolls first: send RollSetup", rule=c.GAME_SETUP
        )


def _aircraft(state: State, ident: str, side: Side, rule: str) -> Plane:
    try:
        plane = state.plane(ident)
    except KeyError:
        known = ", ".join(p.id for p in state.planes if p.side is side)
        raise RuleError(
            f"no {side.value} aircraft {ident!r}; {side.value} aircraft: {known}", rule=rule
        ) from None
    if plane.side is not side:
        raise RuleError(f"{ident} is not a {side.value} aircraft", rule=rule)
    if plane.out:
        raise RuleError(f"{ident} has left the Combat Zone ({plane.out})", rule=rule)
    return plane


def _report(state: State, cmd: ReportAircraft) -> PlayerAircraftReported:
    plane = _aircraft(state, cmd.aircraft, Side.PLAYER, c.INTRODUCTION)
    board = Board(state.model.width, state.model.height)
    if not cmd.lost and not board.contains(cmd.position):
        raise RuleError(
            f"{cmd.aircraft}: position {list(cmd.position)} is off the board (columns 0-"
            f"{board.width - 1}, rows 0-{board.height - 1}); an aircraft leaving the board "
            "is reported with lost=true",
            rule=c.BASE_GAME + ": board",
        )
    ceiling = state.ceiling(plane)
    if cmd.level > ceiling:
        raise RuleError(
            f"{cmd.aircraft}: level L{cmd.level} is above its service ceiling L{ceiling}",
            rule=c.SETUP_ALTITUDE,
        )
    if cmd == restated(plane):
        raise NothingToDo(
            f"ReportAircraft changes nothing: {cmd.aircraft} is at {list(cmd.position)}, "
            f"heading {cmd.heading.value}, L{cmd.level}, {cmd.attitude.value}, with every "
            "status as reported already; report what the base game changed",
            rule=c.INTRODUCTION,
        )
    return PlayerAircraftReported(
        aircraft=cmd.aircraft,
        position=cmd.position,
        heading=cmd.heading,
        level=cmd.level,
        attitude=cmd.attitude,
        has_ammo=cmd.has_ammo,
        jammed=cmd.jammed,
        damaged=cmd.damaged,
        can_fire=cmd.can_fire,
        mission_done=cmd.mission_done,
        lost=cmd.lost,
    )


def roll_setup_command(turn: AgeOfDogfightsTurn, command: RollSetup) -> None:
    """Game Setup: the pilot, aggressiveness and altitude rolls, once."""
    if turn.state.phase is not Phase.SETUP:
        raise RuleError("the Game Setup rolls are already made", rule=c.GAME_SETUP)
    roll_setup(turn)


def fly_bots(turn: AgeOfDogfightsTurn, command: FlyBots) -> None:
    """Combat: one game round of every bot."""
    _in_combat(turn.state, "a game round")
    if not turn.state.bots():
        raise RuleError("no bot is left in the Combat Zone", rule=c.COMBAT)
    fly_round(turn)


def report_aircraft(turn: AgeOfDogfightsTurn, command: ReportAircraft) -> None:
    """Introduction: the player reports one of the player's aircraft as it stands."""
    _in_combat(turn.state, "reporting an aircraft")
    turn.emit(_report(turn.state, command))


def report_bot_damage(turn: AgeOfDogfightsTurn, command: ReportBotDamage) -> None:
    """General rules: damage the player's fire did to a bot, and what it triggers."""
    _in_combat(turn.state, "reporting damage")
    bot = _aircraft(turn.state, command.aircraft, Side.BOT, c.GENERAL)
    if changes_nothing(bot, command.damage):
        others = ", ".join(d.value for d in Damage if not changes_nothing(bot, d))
        raise NothingToDo(
            f"ReportBotDamage changes nothing: {bot.id}'s guns are jammed already; "
            f"a result that changes it: {others}",
            rule=c.JAMMED,
        )
    turn.emit(BotDamageReported(aircraft=command.aircraft, damage=command.damage))
    if command.damage in (Damage.WINGS, Damage.TAIL, Damage.ENGINE):
        damage_roll(turn, command.aircraft, command.damage.value)
    elif command.damage is Damage.GUNS:
        check_triggers(turn, command.aircraft)


DISPATCH: Dispatch[Callable[[AgeOfDogfightsTurn, Any], None]] = Dispatch(
    {
        RollSetup: roll_setup_command,
        FlyBots: fly_bots,
        ReportAircraft: report_aircraft,
        ReportBotDamage: report_bot_damage,
    },
    rule=c.INTRODUCTION,
)


def _game_end(turn: AgeOfDogfightsTurn) -> None:
    """General Rules (a bot retreats "until it leaves the Combat Zone"): the game ends when
    no bot or no player aircraft is left in it; the seed states no victory condition, so
    the result says what ended it and each aircraft's fate (ending.py, README ledger)."""
    state = turn.state
    if state.phase is Phase.COMBAT and (not state.bots() or not state.players()):
        # The seed states no victory condition (ending.py): said so, never guessed.
        turn.emit(GameEnded(result=end_result(state), rule=c.GENERAL, winner=Winner.NONE_STATED))


# The events `command` causes, or RuleError naming the rule it breaks.
decide = decider(DISPATCH, AgeOfDogfightsTurn, end=_game_end)
