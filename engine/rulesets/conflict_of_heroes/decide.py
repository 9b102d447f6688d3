"""decide: from a command to the events it causes, procedure by procedure.

Seed 003_368c69a730e6e14a.txt: player turn (3.0), AI turn (4.0), reports (7.3). Raises
RuleError (nothing is written) for an illegal command.
"""

from __future__ import annotations

from msgspec import Struct

from engine.dice import Dice
from engine.errors import RuleError
from engine.rulesets.conflict_of_heroes import player_turn, reports
from engine.rulesets.conflict_of_heroes.ai_turn import ai_turn
from engine.rulesets.conflict_of_heroes.commands import (
    CardAction,
    CommandAction,
    Pass,
    ReportCounters,
    ReportDestroyed,
    ReportHit,
    ReportPosition,
    Stall,
    TakeAiTurn,
    UnitAction,
)
from engine.rulesets.conflict_of_heroes.journal import Journal
from engine.rulesets.conflict_of_heroes.state import State
from engine.rulesets.conflict_of_heroes.terms import Turn, cite


def _ai_turn(j: Journal, cmd: TakeAiTurn) -> None:
    if j.state.turn is not Turn.AI:
        raise RuleError(
            "it is the player's turn: take one player action (or Pass) first (3.0)",
            rule=cite("4.0"),
        )
    ai_turn(j)


def decide(state: State, command: Struct, dice: Dice) -> list[Struct]:
    """The events `command` causes in `state`, rolling `dice` where the rules say."""
    j = Journal(state, dice, getattr(command, "cards", ()))
    match command:
        case UnitAction():
            player_turn.unit_action(j, command)
        case CommandAction():
            player_turn.command_action(j, command)
        case CardAction():
            player_turn.card_action(j, command)
        case Stall():
            player_turn.stall(j, command)
        case Pass():
            player_turn.pass_turn(j, command)
        case TakeAiTurn():
            _ai_turn(j, command)
        case ReportHit():
            reports.report_hit(j, command)
        case ReportDestroyed():
            reports.report_destroyed(j, command)
        case ReportPosition():
            reports.report_position(j, command)
        case ReportCounters():
            reports.report_counters(j, command)
        case _:  # pragma: no cover - the engine parses only the command types above
            raise RuleError(f"unknown command {command!r}", rule=cite("3.0"))
    if j.cards:
        raise RuleError(
            f"Order Cards {j.cards} were named but this command drew only "
            f"{len(getattr(command, 'cards', ())) - len(j.cards)}",
            rule=cite("4.0"),
        )
    return j.events
