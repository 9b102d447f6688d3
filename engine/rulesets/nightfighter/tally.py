"""S10.0 BASIC TALLYING and S15.0 ADVANCED TALLYING (range per S3.0)."""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.decision import Candidate
from umpire.engine.dice import nd6
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.nightfighter.ai_search import fighter_setup
from umpire.engine.rulesets.nightfighter.commands import AttemptTally
from umpire.engine.rulesets.nightfighter.events import MarkerPlaced, TallyAttempted
from umpire.engine.rulesets.nightfighter.geometry import area, tally_range
from umpire.engine.rulesets.nightfighter.labels import LABELS
from umpire.engine.rulesets.nightfighter.search_area import search_in_area
from umpire.engine.rulesets.nightfighter.state import counter_at, fighter_by_id
from umpire.engine.rulesets.nightfighter.terms import Marker, Phase, TallyKind, Uncertainty, cite
from umpire.engine.rulesets.nightfighter.turn import NightfighterTurn
from umpire.events.types import Owner

RULE_BASIC = cite("S10.0")
RULE_FIXED = cite("S15.0")
RULE_RANGE = cite("S3.0")


def attempt(turn: NightfighterTurn, command: AttemptTally) -> None:
    """S10.0: a fighter not maintaining a tally rolls its own tally dice against one counter
    whose uncertainty area lies partly within its visibility range; any 6 succeeds, then the
    location roll must fall within that range. S15.0: after a failed basic attempt, one more
    roll (any 6) against a counter fixed by its own AI or by searchlights."""
    state = turn.state
    rule = RULE_BASIC if command.kind is TallyKind.BASIC else RULE_FIXED
    if state.phase is not Phase.TALLY:
        raise RuleError(
            f"tallies are rolled in the tally phase (now {LABELS.words('phase', state.phase)})",
            rule=rule,
        )
    fighter_setup(state, command.fighter)
    fighter = fighter_by_id(state, command.fighter)
    assert fighter is not None
    if any(fighter.id in c.tallied_by for c in state.counters):
        raise RuleError(f"{fighter.id} is already maintaining a tally", rule=RULE_BASIC)
    counter = counter_at(state, command.hex)
    if counter is None:
        raise RuleError(f"no bomber counter in {command.hex}", rule=rule)
    if command.kind is TallyKind.BASIC:
        if fighter.tally_attempts:
            raise RuleError(
                f"{fighter.id} has already tried to tally this turn; each fighter tries one "
                "bomber counter (S15.0 allows one fixed-target attempt after a failure)",
                rule=RULE_BASIC,
            )
        illuminated = command.illuminated or bool(counter.searchlight)
        reach = tally_range(state.setup, fighter, illuminated)
        if not set(reach) & set(area(state.setup, counter)):
            raise RuleError(
                f"the uncertainty area of {counter.id} lies nowhere within {fighter.id}'s "
                f"visibility range ({', '.join(reach)})",
                rule=RULE_RANGE,
            )
    else:
        if not fighter.basic_tally_failed or fighter.tally_attempts != 1:
            raise RuleError(
                "an advanced tally follows only a failed basic tally attempt, once a turn",
                rule=RULE_FIXED,
            )
        if not (counter.searchlight or fighter.id in counter.ai_fixed_by):
            raise RuleError(
                f"{counter.id} is not fixed by {fighter.id}'s AI radar or by searchlights",
                rule=RULE_FIXED,
            )
        reach = (counter.hex,)
    roll = turn.roll(
        nd6(command.dice),
        purpose=f"{command.kind.value} tally by {fighter.id}",
        rule=rule,
        owner=Owner.PLAYER,
    )
    out: list[Struct] = []  # the roll is emitted; what follows from it
    if 6 not in roll.faces:
        turn.emit_all([*out, _attempted(command, counter.id, False, "no 6 rolled", (roll.roll,))])
        return
    if command.kind is TallyKind.FIXED or counter.level is Uncertainty.NONE:
        if counter.hex not in reach:
            turn.emit_all(
                [*out, _attempted(command, counter.id, False, "out of range", (roll.roll,))]
            )
            return
        out.append(
            MarkerPlaced(
                rule=rule,
                dice=(roll.roll,),
                counter=counter.id,
                marker=Marker.TALLY,
                by=fighter.id,
                explanation=f"a 6 rolled: {fighter.id} tallies {counter.id} in {counter.hex}",
            )
        )
        turn.emit_all([*out, _attempted(command, counter.id, True, "tallied", (roll.roll,))])
        return
    turn.emit_all(out)
    found = search_in_area(turn, state, counter, reach, Marker.TALLY, lambda _h: fighter.id, rule)
    turn.emit(
        _attempted(command, counter.id, found.found, f"a 6 rolled; {found.text}", (roll.roll,))
    )


def _attempted(
    command: AttemptTally, counter: str, ok: bool, text: str, nums: tuple[int, ...]
) -> TallyAttempted:
    rule = RULE_BASIC if command.kind is TallyKind.BASIC else RULE_FIXED
    return TallyAttempted(
        rule=rule,
        dice=nums,
        candidates=(Candidate(option=counter, chosen=True, reason="selected by the player"),),
        explanation=f"{command.kind.value} tally by {command.fighter} on {counter}: {text}",
        fighter=command.fighter,
        counter=counter,
        kind=command.kind,
        dice_count=command.dice,
        succeeded=ok,
    )
