"""decide: from a command to the events it causes, procedure by procedure.

Seed 003_368c69a730e6e14a.txt: player turn (3.0), AI turn (4.0), reports (7.3). Raises
RuleError (nothing is written) for an illegal command.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec import Struct

from umpire.engine.dice import Dice
from umpire.engine.errors import RuleError
from umpire.engine.kit.dispatch import Dispatch
from umpire.engine.rulesets.conflict_of_heroes import commands as cmd
from umpire.engine.rulesets.conflict_of_heroes import player_turn, reports
from umpire.engine.rulesets.conflict_of_heroes.ai_turn import ai_turn
from umpire.engine.rulesets.conflict_of_heroes.state import State
from umpire.engine.rulesets.conflict_of_heroes.terms import WhoseTurn, cite
from umpire.engine.rulesets.conflict_of_heroes.turn import ConflictOfHeroesTurn


def _ai_turn(turn: ConflictOfHeroesTurn, command: cmd.TakeAiTurn) -> None:
    if turn.state.turn is not WhoseTurn.AI:
        raise RuleError(
            "it is the player's turn: take one player action (or Pass) first (3.0)",
            rule=cite("4.0"),
        )
    ai_turn(turn)


DISPATCH: Dispatch[Callable[[ConflictOfHeroesTurn, Any], None]] = Dispatch(
    {
        cmd.UnitAction: player_turn.unit_action,
        cmd.CommandAction: player_turn.command_action,
        cmd.CardAction: player_turn.card_action,
        cmd.Stall: player_turn.stall,
        cmd.Pass: player_turn.pass_turn,
        cmd.TakeAiTurn: _ai_turn,
        cmd.ReportHit: reports.report_hit,
        cmd.ReportDestroyed: reports.report_destroyed,
        cmd.ReportPosition: reports.report_position,
        cmd.ReportCounters: reports.report_counters,
    },
    rule=cite("3.0"),
)


def decide(state: State, command: Struct, dice: Dice) -> list[Struct]:
    """The events `command` causes in `state`, rolling `dice` where the rules say."""
    handler = DISPATCH.handler(command)
    j = ConflictOfHeroesTurn(state, dice, getattr(command, "cards", ()))
    handler(j, command)
    if j.cards:
        raise RuleError(
            f"Order Cards {j.cards} were named but this command drew only "
            f"{len(getattr(command, 'cards', ())) - len(j.cards)}",
            rule=cite("4.0"),
        )
    return j.events
