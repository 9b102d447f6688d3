"""9.1.8-9.1.11: ace declarations, keen eyesight, and revealing pilot characteristics."""

from __future__ import annotations

from collections.abc import Callable
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
    ClaimVoided,
    KeenEyesightUsed,
    PilotRevealed,
    PositionSet,
)
from umpire.engine.rulesets.down_in_flames.state import (
    Plane,
    State,
    find_plane,
    pilot_known,
    position_key,
)
from umpire.engine.rulesets.down_in_flames.terms import PilotQuality, Position, Station, cite

if TYPE_CHECKING:  # turn.py imports evolve, which imports apply_revealed from here
    from umpire.engine.rulesets.down_in_flames.turn import DownInFlamesTurn

RULE_SECRET = cite("9.1.11")
QUALITY, CRACK_SHOT, KEEN_EYESIGHT = "quality", "crack shot", "keen eyesight"


def reveal(turn: DownInFlamesTurn, plane: Plane, characteristic: str) -> None:
    """9.1.11: reveal one characteristic of `plane` when combat requires it (once)."""
    if characteristic in turn.state.aircraft.get(plane.id, plane).revealed:
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


# What a pilot allows: a rule's check on one possible pilot of an aircraft.
Allows = Callable[[Plane], bool]


def possible_pilots(state: State, plane: Plane) -> list[Plane]:
    """9.1.11: `plane` with every pilot it may have as far as the player knows: each
    characteristic the player knows as it is, each other one at every value it may take
    (the true pilot is among them)."""
    qualities = [plane.pilot_quality] if pilot_known(state, plane, QUALITY) else list(PilotQuality)
    cracks = [plane.crack_shot] if pilot_known(state, plane, CRACK_SHOT) else [False, True]
    keens = [plane.keen_eyesight] if pilot_known(state, plane, KEEN_EYESIGHT) else [False, True]
    return [
        msgspec.structs.replace(plane, pilot_quality=q, crack_shot=c, keen_eyesight=k)
        for q in qualities
        for c in cracks
        for k in keens
    ]


def pilot_may(state: State, plane: Plane, allows: Allows) -> bool | None:
    """Whether `plane`'s pilot allows a command, judged on what the player knows: True when
    every pilot it may have allows it, False when none does, None when only the hidden
    pilot can tell (`settle`). A refusal on False says nothing of the pilot."""
    verdicts = {allows(p) for p in possible_pilots(state, plane)}
    return None if len(verdicts) == 2 else verdicts.pop()


def settle(
    turn: DownInFlamesTurn, plane: Plane, allows: Allows, command: str, explanation: str,
    rule: str,
) -> bool:  # fmt: skip
    """9.1.11: a command that only `plane`'s hidden pilot can allow (`pilot_may` None) is
    accepted whatever the pilot is, since a refusal would show it, and decided on the
    pilot as the sheet of paper says (README I25): where the pilot does not allow it,
    ClaimVoided records that it takes no effect (`explanation`: why, naming no number the
    pilot decides). That the command took effect or not is public, as at the table when an
    opponent objects; the characteristics themselves stay hidden. Whether it takes effect."""
    if allows(plane):
        return True
    turn.emit(ClaimVoided(aircraft=plane.id, command=command, rule=rule, explanation=explanation))
    return False


def check_pilot(
    turn: DownInFlamesTurn, plane: Plane, allows: Allows, command: str, refused: str,
    refused_hidden: str, rule: str,
) -> bool:  # fmt: skip
    """A command that `plane`'s pilot may forbid: refused (`refused`, or `refused_hidden`,
    which names no number a hidden pilot decides, when some characteristic is hidden) when
    no pilot it may have allows it, settled on the hidden pilot (`settle`) when only that
    can tell. Whether the command takes effect."""
    verdict = pilot_may(turn.state, plane, allows)
    if verdict is None:
        return settle(turn, plane, allows, command, refused_hidden, rule)
    if not verdict:
        hidden = len(possible_pilots(turn.state, plane)) > 1
        raise RuleError(refused_hidden if hidden else refused, rule=rule)
    return True


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
    """9.1.8: an Ace Leader may declare any card an ACE PILOT card once per game. Declared
    for a Leader whose quality the player does not know, it is accepted and the quality
    revealed (9.1.11, `settle`); a pilot who is no Ace makes it void (README I25)."""
    state = turn.state
    rule = cite("9.1.8")
    plane = find_plane(state, command.aircraft, rule)
    refused = (
        f"{plane.id} is not an Ace Leader; only Ace Leaders may declare a card an ACE PILOT card"
    )
    if plane.station is not Station.LEADER:
        raise RuleError(refused, rule=rule)
    if plane.ace_card_used:
        raise RuleError(f"{plane.id} has already declared its ACE PILOT card", rule=rule)
    ace = check_pilot(
        turn, plane, lambda p: p.pilot_quality is PilotQuality.ACE, "DeclareAcePilot",
        refused, refused, rule,
    )  # fmt: skip
    if ace:
        reveal(turn, plane, QUALITY)
        turn.emit(AcePilotDeclared(aircraft=plane.id, rule=rule))


def decide_keen_eyesight(turn: DownInFlamesTurn, command: UseKeenEyesight) -> None:
    """9.1.10: a regular or veteran Leader with keen eyesight starts its first turn as if it
    had just played a successful MANEUVERING card on the opposing aircraft of its choice
    (base game: one step better position, Neutral to Advantaged). The pilot's side of it
    is checked last, on the hidden pilot where the player does not know it (`check_pilot`)."""
    state = turn.state
    rule = cite("9.1.10")
    plane = find_plane(state, command.aircraft, rule)
    target = find_plane(state, command.target, rule)
    refused = f"{plane.id} is not a regular or veteran Leader with keen eyesight"
    if plane.station is not Station.LEADER:
        raise RuleError(refused, rule=rule)
    if plane.keen_eyesight_used or state.active_side is not plane.side:
        raise RuleError(
            f"{plane.id} may use keen eyesight only at the start of its first turn", rule=rule
        )
    if state.turns_taken.get(plane.side.value, 0) != 1:
        raise RuleError(f"{plane.id}'s side is past its first turn", rule=rule)
    if target.side is plane.side:
        raise RuleError(f"{target.id} is not an opposing aircraft", rule=rule)

    def keen(p: Plane) -> bool:
        return p.keen_eyesight and p.pilot_quality in (PilotQuality.REGULAR, PilotQuality.VETERAN)

    if not check_pilot(turn, plane, keen, "UseKeenEyesight", refused, refused, rule):
        return
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
