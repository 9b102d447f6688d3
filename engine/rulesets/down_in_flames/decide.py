"""decide: each command to the procedure of the rule it reports, in the seed's order."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec import Struct

from engine.dice import Dice
from engine.kit.dispatch import Dispatch, without_dice
from engine.rulesets.down_in_flames import commands as cmd
from engine.rulesets.down_in_flames.altitude import (
    decide_bid_start,
    decide_climb,
    decide_dive,
    decide_roll_start,
    decide_vertical_roll,
)
from engine.rulesets.down_in_flames.attack import (
    decide_attack,
    decide_defensive_fire,
    decide_negate,
)
from engine.rulesets.down_in_flames.card_play import (
    decide_begin_turn,
    decide_discard,
    decide_end_turn,
    decide_play_card,
    decide_report_hand,
    decide_set_position,
    decide_thach_weave,
)
from engine.rulesets.down_in_flames.pilot import decide_ace, decide_keen_eyesight, decide_reveal
from engine.rulesets.down_in_flames.state import State
from engine.rulesets.down_in_flames.terms import cite

# Command type -> (state, command, dice) -> events, in the order the commands are listed.
DISPATCH: Dispatch[Callable[[State, Any, Dice], list[Struct]]] = Dispatch(
    {
        cmd.RollStartingAltitude: decide_roll_start,
        cmd.BidStartingAltitude: decide_bid_start,
        cmd.BeginTurn: without_dice(decide_begin_turn),
        cmd.EndTurn: without_dice(decide_end_turn),
        cmd.ReportHand: without_dice(decide_report_hand),
        cmd.Discard: without_dice(decide_discard),
        cmd.SetPosition: without_dice(decide_set_position),
        cmd.PlayCard: without_dice(decide_play_card),
        cmd.Dive: without_dice(decide_dive),
        cmd.Climb: without_dice(decide_climb),
        cmd.PlayVerticalRoll: without_dice(decide_vertical_roll),
        cmd.Attack: decide_attack,
        cmd.NegateAttack: without_dice(decide_negate),
        cmd.ResolveDefensiveFire: decide_defensive_fire,
        cmd.DeclareAcePilot: without_dice(decide_ace),
        cmd.UseKeenEyesight: without_dice(decide_keen_eyesight),
        cmd.RevealPilot: without_dice(decide_reveal),
        cmd.BidThachWeave: without_dice(decide_thach_weave),
    },
    rule=cite("1"),
)


def decide(state: State, command: Struct, dice: Dice) -> list[Struct]:
    """The events `command` causes, or RuleError naming the rule it breaks."""
    return DISPATCH.handler(command)(state, command, dice)
