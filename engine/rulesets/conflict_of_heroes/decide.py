"""decide: from a command to the events it causes, procedure by procedure.

Seed 003_368c69a730e6e14a.txt: player turn (3.0), AI turn (4.0), reports (7.3). Raises
RuleError (nothing is written) for an illegal command.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec import Struct

from umpire.engine.errors import RuleError
from umpire.engine.kit.decider import decider
from umpire.engine.kit.dispatch import Dispatch
from umpire.engine.rulesets.conflict_of_heroes import commands as cmd
from umpire.engine.rulesets.conflict_of_heroes import player_turn, reports
from umpire.engine.rulesets.conflict_of_heroes.ai_turn import ai_turn
from umpire.engine.rulesets.conflict_of_heroes.terms import WhoseTurn, cite
from umpire.engine.rulesets.conflict_of_heroes.turn import ConflictOfHeroesTurn


def _ai_turn(turn: ConflictOfHeroesTurn, command: cmd.TakeAiTurn) -> None:
    if turn.state.turn is not WhoseTurn.AI:
        raise RuleError(
            # Commands in words, as the listing offers them (actions.py), not by code name.
            "it is the player's turn: take one player action (or pass) first (3.0)",
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


def _name_cards(turn: ConflictOfHeroesTurn, command: Struct) -> None:
    """Physical-deck mode: the Order Cards the command names, drawn in order (4.0)."""
    turn.name_cards(getattr(command, "cards", ()))


def _every_named_card_drawn(turn: ConflictOfHeroesTurn) -> None:
    """A command may not name more Order Cards than it draws (4.0)."""
    if turn.cards:
        raise RuleError(
            f"Order Cards {turn.cards} were named but this command drew only "
            f"{turn.named - len(turn.cards)}",
            rule=cite("4.0"),
        )


# The events `command` causes in `state`, rolling `dice` where the rules say.
decide = decider(DISPATCH, ConflictOfHeroesTurn, begin=_name_cards, end=_every_named_card_drawn)
