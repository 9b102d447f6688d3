"""S17.0 ADVANCED COMBAT and S28.0 following the corkscrew (optional rule 28.1)."""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.decision import Candidate
from umpire.engine.dice import d6, nd6
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.nightfighter.commands import (
    BreakContact,
    Corkscrew,
    RollBomberResponse,
    ShootDown,
)
from umpire.engine.rulesets.nightfighter.events import (
    BomberResponseRolled,
    BomberShotDown,
    Corkscrewed,
    MarkersLost,
)
from umpire.engine.rulesets.nightfighter.labels import LABELS
from umpire.engine.rulesets.nightfighter.state import Counter, State, counter_at
from umpire.engine.rulesets.nightfighter.terms import Marker, Phase, Track, cite
from umpire.engine.rulesets.nightfighter.turn import NightfighterTurn
from umpire.events.types import Owner

RULE = cite("S17.0")
RULE_FOLLOW = cite("S28.0")
RULE_SHOT_DOWN = cite("S17.0 (base-game combat: the tallied bomber destroyed)")


def _tallied(state: State, fighter: str, hex_label: str, rule: str) -> Counter:
    if state.phase is not Phase.COMBAT:
        raise RuleError(
            f"combat happens in the combat phase (now {LABELS.words('phase', state.phase)})",
            rule=rule,
        )
    counter = counter_at(state, hex_label)
    if counter is None:
        raise RuleError(f"no bomber counter in {hex_label}", rule=rule)
    if fighter not in counter.tallied_by:
        raise RuleError(
            f"bombers roll for response only if the nightfighter has tallied them "
            f"({fighter} has no tally on {counter.id})",
            rule=RULE,
        )
    return counter


def response(turn: NightfighterTurn, command: RollBomberResponse) -> None:
    """S17.0: a bomber rolls for response only when the nightfighter has tallied it."""
    state = turn.state
    counter = _tallied(state, command.fighter, command.hex, RULE)
    roll = turn.roll(
        d6(), purpose=f"bomber response of {counter.id}", rule=RULE, owner=Owner.OPPONENT
    )
    turn.emit_all(
        [
            BomberResponseRolled(
                rule=RULE,
                dice=(roll.roll,),
                explanation=(
                    f"{counter.id}, tallied by {command.fighter}, rolls {roll.total} for response"
                ),
                counter=counter.id,
                fighter=command.fighter,
                value=roll.total,
            ),
        ]
    )


def corkscrew(turn: NightfighterTurn, command: Corkscrew) -> None:
    """S17.0: a corkscrewing bomber loses every tally, track contact and AI and searchlight
    fix and reverts to low uncertainty; firepower 0 this turn; never displaced. S28.0: if
    the fighter follows (rule 28.1, a 6 on its dice) its tally and AI fix are kept."""
    state = turn.state
    counter = _tallied(state, command.fighter, command.hex, RULE)
    out: list[Struct] = []
    followed = False
    nums: tuple[int, ...] = ()
    if command.follow_dice:
        if not state.setup.optional_rules:
            raise RuleError(
                "following the corkscrew is optional rule 28.1 (not in use)", rule=RULE_FOLLOW
            )
        roll = turn.roll(
            nd6(command.follow_dice),
            purpose=f"{command.fighter} follows the corkscrew (rule 28.1)",
            rule=RULE_FOLLOW,
            owner=Owner.PLAYER,
        )
        nums = (roll.roll,)
        followed = 6 in roll.faces
    lost: list[Marker] = []
    if counter.searchlight:
        lost.append(Marker.SEARCHLIGHT_FIX)
    if counter.track is Track.ON_TOP:
        lost.append(Marker.TRACK_CONTACT)
    if not followed:
        if counter.tallied_by:
            lost.append(Marker.TALLY)
        if counter.ai_fixed_by:
            lost.append(Marker.AI_FIX)
    kept = "tally and AI fix kept (28.1)" if followed else "reverts to low uncertainty"
    out.append(
        Corkscrewed(
            rule=RULE_FOLLOW if followed else RULE,
            dice=nums,
            candidates=(
                Candidate(
                    option="follow",
                    chosen=followed,
                    reason="a 6 on the follow dice" if followed else "no 6 / not tried",
                ),
                Candidate(
                    option="lose contact",
                    chosen=not followed,
                    reason="no 6 / not tried" if not followed else "followed",
                ),
            ),
            explanation=(
                f"{counter.id} corkscrews: loses {', '.join(m.value for m in lost) or 'nothing'}; "
                f"{kept}; firepower 0 this turn; not displaced"
            ),
            counter=counter.id,
            fighter=command.fighter,
            followed=followed,
            lost=tuple(lost),
        )
    )
    turn.emit_all(out)


def shoot_down(turn: NightfighterTurn, command: ShootDown) -> None:
    """S17.0: the player reports that the base-game combat destroyed the bomber its fighter
    has tallied (umpire does not keep the published damage tables); the counter leaves play
    with every marker, so it is neither moved nor searched again, and the game's end names
    it among the bombers shot down (the example of play's victory condition)."""
    counter = _tallied(turn.state, command.fighter, command.hex, RULE)
    turn.emit(
        BomberShotDown(
            rule=RULE_SHOT_DOWN,
            explanation=(
                f"{command.fighter} shoots down {counter.id} (bomber {counter.bomber}) in "
                f"{counter.hex}: its counter leaves play"
            ),
            counter=counter.id,
            bomber=counter.bomber,
            fighter=command.fighter,
        )
    )


def break_contact(turn: NightfighterTurn, command: BreakContact) -> None:
    """The player gives up a tally or AI fix (base game); S16.0 reversion follows."""
    state = turn.state
    counter = counter_at(state, command.hex)
    if counter is None or not (
        command.fighter in counter.tallied_by or command.fighter in counter.ai_fixed_by
    ):
        raise RuleError(
            f"{command.fighter} holds no tally or AI fix on a counter in {command.hex}",
            rule=cite("S16.0"),
        )
    lost = tuple(
        m
        for m, held in (
            (Marker.TALLY, command.fighter in counter.tallied_by),
            (Marker.AI_FIX, command.fighter in counter.ai_fixed_by),
        )
        if held
    )
    turn.emit_all(
        [
            MarkersLost(
                rule=cite("S16.0"),
                counter=counter.id,
                lost=lost,
                fighters=(command.fighter,),
                explanation=f"{command.fighter} breaks contact with {counter.id}",
            )
        ]
    )
