"""9.1.8-9.1.11: ace declarations, keen eyesight, and revealing pilot characteristics."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from umpire.engine.errors import RuleError
from umpire.engine.rulesets.down_in_flames.commands import (
    DeclareAcePilot,
    RevealPilot,
    UseKeenEyesight,
)
from umpire.engine.rulesets.down_in_flames.events import (
    AcePilotDeclared,
    KeenEyesightUsed,
    PilotRevealed,
    PositionSet,
)
from umpire.engine.rulesets.down_in_flames.state import Plane, find_plane, position_key
from umpire.engine.rulesets.down_in_flames.terms import PilotQuality, Position, Station, cite

if TYPE_CHECKING:  # turn.py imports evolve, which imports apply_revealed from here
    from umpire.engine.rulesets.down_in_flames.turn import DownInFlamesTurn

RULE_SECRET = cite("9.1.11")
QUALITY, CRACK_SHOT, KEEN_EYESIGHT = "quality", "crack shot", "keen eyesight"


def reveal(turn: DownInFlamesTurn, plane: Plane, characteristic: str) -> None:
    """9.1.11: reveal one characteristic of `plane` when combat requires it (once)."""
    if characteristic in plane.revealed:
        return
    value = {
        QUALITY: plane.pilot_quality.value,
        CRACK_SHOT: "yes" if plane.crack_shot else "no",
        KEEN_EYESIGHT: "yes" if plane.keen_eyesight else "no",
    }[characteristic]
    turn.emit(
        PilotRevealed(
            aircraft=plane.id, characteristic=characteristic, value=value, rule=RULE_SECRET
        )
    )


def decide_reveal(turn: DownInFlamesTurn, command: RevealPilot) -> None:
    """9.1.11: the owning player reveals all of a pilot's characteristics."""
    state = turn.state
    plane = find_plane(state, command.aircraft, RULE_SECRET)
    every = (QUALITY, CRACK_SHOT, KEEN_EYESIGHT)
    if all(characteristic in plane.revealed for characteristic in every):
        raise RuleError(f"{plane.id}'s pilot is already fully revealed", rule=RULE_SECRET)
    for characteristic in every:
        reveal(turn, plane, characteristic)


def decide_ace(turn: DownInFlamesTurn, command: DeclareAcePilot) -> None:
    """9.1.8: an Ace Leader may declare any card an ACE PILOT card once per game."""
    state = turn.state
    rule = cite("9.1.8")
    plane = find_plane(state, command.aircraft, rule)
    if plane.station is not Station.LEADER or plane.pilot_quality is not PilotQuality.ACE:
        raise RuleError(
            f"{plane.id} is not an Ace Leader; only Ace Leaders may declare a card an ACE "
            "PILOT card",
            rule=rule,
        )
    if plane.ace_card_used:
        raise RuleError(f"{plane.id} has already declared its ACE PILOT card", rule=rule)
    reveal(turn, plane, QUALITY)
    turn.emit(AcePilotDeclared(aircraft=plane.id, rule=rule))


def decide_keen_eyesight(turn: DownInFlamesTurn, command: UseKeenEyesight) -> None:
    """9.1.10: a regular or veteran Leader with keen eyesight starts its first turn as if it
    had just played a successful MANEUVERING card on the opposing aircraft of its choice
    (base game: one step better position, Neutral to Advantaged)."""
    state = turn.state
    rule = cite("9.1.10")
    plane = find_plane(state, command.aircraft, rule)
    target = find_plane(state, command.target, rule)
    eligible = (
        plane.station is Station.LEADER
        and plane.keen_eyesight
        and plane.pilot_quality in (PilotQuality.REGULAR, PilotQuality.VETERAN)
    )
    if not eligible:
        raise RuleError(
            f"{plane.id} is not a regular or veteran Leader with keen eyesight", rule=rule
        )
    if plane.keen_eyesight_used or state.active_side is not plane.side:
        raise RuleError(
            f"{plane.id} may use keen eyesight only at the start of its first turn", rule=rule
        )
    if state.turns_taken.get(plane.side.value, 0) != 1:
        raise RuleError(f"{plane.id}'s side is past its first turn", rule=rule)
    if target.side is plane.side:
        raise RuleError(f"{target.id} is not an opposing aircraft", rule=rule)
    now = state.positions.get(position_key(plane.id, target.id))
    better = Position.TAILING if now is Position.ADVANTAGED else Position.ADVANTAGED
    if now is Position.TAILING:
        better = Position.TAILING
    reveal(turn, plane, KEEN_EYESIGHT)
    reveal(turn, plane, QUALITY)
    turn.emit(KeenEyesightUsed(aircraft=plane.id, target=target.id, rule=rule))
    turn.emit(PositionSet(attacker=plane.id, target=target.id, position=better, rule=rule))


def apply_revealed(plane: Plane, event: PilotRevealed) -> Plane:
    """evolve: the characteristic is public from now on."""
    return msgspec.structs.replace(
        plane, revealed=tuple(sorted({*plane.revealed, event.characteristic}))
    )
