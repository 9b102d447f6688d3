"""decide: each command to the procedure of the rule it reports, in the seed's order; every
procedure emits through the kit's Turn."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from umpire.engine.kit.decider import decider
from umpire.engine.kit.dispatch import Dispatch
from umpire.engine.rulesets.down_in_flames import commands as cmd
from umpire.engine.rulesets.down_in_flames.altitude import (
    decide_bid_start,
    decide_climb,
    decide_dive,
    decide_roll_start,
    decide_vertical_roll,
)
from umpire.engine.rulesets.down_in_flames.attack import (
    decide_attack,
    decide_defensive_fire,
    decide_negate,
)
from umpire.engine.rulesets.down_in_flames.card_play import (
    decide_begin_turn,
    decide_discard,
    decide_end_turn,
    decide_play_card,
    decide_report_hand,
    decide_set_position,
    decide_thach_weave,
)
from umpire.engine.rulesets.down_in_flames.end import engagement_end
from umpire.engine.rulesets.down_in_flames.pilot import (
    decide_ace,
    decide_keen_eyesight,
    decide_reveal,
)
from umpire.engine.rulesets.down_in_flames.terms import cite
from umpire.engine.rulesets.down_in_flames.turn import DownInFlamesTurn

# Command type -> the procedure that decides it with a Turn, in the order the commands are
# listed.
DISPATCH: Dispatch[Callable[[DownInFlamesTurn, Any], None]] = Dispatch(
    {
        cmd.RollStartingAltitude: decide_roll_start,
        cmd.BidStartingAltitude: decide_bid_start,
        cmd.BeginTurn: decide_begin_turn,
        cmd.EndTurn: decide_end_turn,
        cmd.ReportHand: decide_report_hand,
        cmd.Discard: decide_discard,
        cmd.SetPosition: decide_set_position,
        cmd.PlayCard: decide_play_card,
        cmd.Dive: decide_dive,
        cmd.Climb: decide_climb,
        cmd.PlayVerticalRoll: decide_vertical_roll,
        cmd.Attack: decide_attack,
        cmd.NegateAttack: decide_negate,
        cmd.ResolveDefensiveFire: decide_defensive_fire,
        cmd.DeclareAcePilot: decide_ace,
        cmd.UseKeenEyesight: decide_keen_eyesight,
        cmd.RevealPilot: decide_reveal,
        cmd.BidThachWeave: decide_thach_weave,
    },
    rule=cite("1"),
)


def _engagement_end(turn: DownInFlamesTurn) -> None:
    """The engagement ends when a side has no aircraft left (end.engagement_end)."""
    ended = engagement_end(turn.started, turn.state, turn.events)
    if ended is not None:
        turn.emit(ended)


# The events `command` causes, or RuleError naming the rule it breaks.
decide = decider(DISPATCH, DownInFlamesTurn, end=_engagement_end)
