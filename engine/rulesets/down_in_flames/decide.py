"""decide: each command to the procedure of the rule it reports, in the seed's order."""

from __future__ import annotations

from msgspec import Struct

from engine.dice import Dice
from engine.errors import RuleError
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


def decide(state: State, command: Struct, dice: Dice) -> list[Struct]:
    """The events `command` causes, or RuleError naming the rule it breaks."""
    match command:
        case cmd.RollStartingAltitude():
            return decide_roll_start(state, command, dice)
        case cmd.BidStartingAltitude():
            return decide_bid_start(state, command, dice)
        case cmd.Dive():
            return decide_dive(state, command)
        case cmd.Climb():
            return decide_climb(state, command)
        case cmd.PlayVerticalRoll():
            return decide_vertical_roll(state, command)
        case cmd.Attack():
            return decide_attack(state, command, dice)
        case cmd.NegateAttack():
            return decide_negate(state, command)
        case cmd.ResolveDefensiveFire():
            return decide_defensive_fire(state, command, dice)
        case cmd.BeginTurn():
            return decide_begin_turn(state, command)
        case cmd.EndTurn():
            return decide_end_turn(state, command)
        case cmd.ReportHand():
            return decide_report_hand(state, command)
        case cmd.Discard():
            return decide_discard(state, command)
        case cmd.SetPosition():
            return decide_set_position(state, command)
        case cmd.PlayCard():
            return decide_play_card(state, command)
        case cmd.DeclareAcePilot():
            return decide_ace(state, command)
        case cmd.UseKeenEyesight():
            return decide_keen_eyesight(state, command)
        case cmd.RevealPilot():
            return decide_reveal(state, command)
        case cmd.BidThachWeave():
            return decide_thach_weave(state, command)
    raise RuleError(f"unknown command {type(command).__name__}", rule=cite("1"))
