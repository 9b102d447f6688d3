"""S19.0 AI RADAR (with S24.0 jammed AI radars): one search per nightfighter a phase."""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.decision import Candidate
from umpire.engine.dice import nd6
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.nightfighter.commands import SearchAI
from umpire.engine.rulesets.nightfighter.events import AISearched
from umpire.engine.rulesets.nightfighter.geometry import ai_search_area, area
from umpire.engine.rulesets.nightfighter.labels import LABELS
from umpire.engine.rulesets.nightfighter.search_area import search_in_area
from umpire.engine.rulesets.nightfighter.setup import Fighter
from umpire.engine.rulesets.nightfighter.state import State, counter_at, fighter_by_id
from umpire.engine.rulesets.nightfighter.terms import Jamming, Marker, Phase, cite
from umpire.engine.rulesets.nightfighter.turn import NightfighterTurn
from umpire.events.types import Owner

RULE = cite("S19.0")
RULE_JAM = cite("S24.0")


def fighter_setup(state: State, fighter_id: str) -> Fighter:
    """The scenario data of a nightfighter (RuleError naming the fighters if unknown)."""
    found = next((f for f in state.setup.fighters if f.id == fighter_id), None)
    if found is None:
        names = [f.id for f in state.setup.fighters]
        raise RuleError(f"no nightfighter {fighter_id!r} (fighters: {names})", rule=RULE)
    return found


def search(turn: NightfighterTurn, command: SearchAI) -> None:
    """S19.0: the fighter searches one counter whose uncertainty area lies partly within its
    radar range and arc; the fix is automatic if the location roll falls in the search
    area. S24.0: a jammed AI radar first needs a 6 on its dice; without one no location
    is rolled and the hexes are not barred."""
    state = turn.state
    if state.phase is not Phase.AI_RADAR:
        raise RuleError(
            f"AI searches are made in the AI radar phase "
            f"(now {LABELS.words('phase', state.phase)})",
            rule=RULE,
        )
    spec = fighter_setup(state, command.fighter)
    fighter = fighter_by_id(state, command.fighter)
    assert fighter is not None
    if fighter.ai_searched:
        raise RuleError(
            f"{fighter.id} has already made its AI search this phase; a nightfighter may not "
            "search for another counter that phase",
            rule=RULE,
        )
    counter = counter_at(state, command.hex)
    if counter is None:
        raise RuleError(f"no bomber counter in {command.hex} to search", rule=RULE)
    searched = ai_search_area(state.setup, fighter, spec.ai_range, spec.ai_arc)
    overlap = sorted(set(searched) & set(area(state.setup, counter)))
    if not overlap:
        raise RuleError(
            f"the uncertainty area of {counter.id} lies nowhere within {fighter.id}'s AI "
            f"radar range and arc ({', '.join(searched) or 'no AI radar'})",
            rule=RULE,
        )
    out: list[Struct] = []
    nums: tuple[int, ...] = ()
    jam = spec.ai_jamming  # scenario 4G: the Y-guided fighters are set up lightly jammed
    if jam is not Jamming.NONE:
        roll = turn.roll(
            nd6(command.dice),
            purpose=f"jammed AI fix by {fighter.id}",
            rule=RULE_JAM,
            owner=Owner.PLAYER,
        )
        nums = (roll.roll,)
        if 6 not in roll.faces:
            turn.emit_all(
                [
                    *out,
                    _searched(fighter.id, counter.id, searched, "jammed: no 6", nums, RULE_JAM),
                ]
            )
            return
    turn.emit_all(out)
    found = search_in_area(
        turn, state, counter, searched, Marker.AI_FIX, lambda _h: fighter.id, RULE
    )
    turn.emit(_searched(fighter.id, counter.id, searched, found.text, nums, RULE))


def _searched(
    fighter: str,
    counter: str,
    searched: tuple[str, ...],
    outcome: str,
    nums: tuple[int, ...],
    rule: str,
) -> AISearched:
    return AISearched(
        rule=rule,
        dice=nums,
        candidates=(Candidate(option=counter, chosen=True, reason="selected by the player"),),
        explanation=f"{fighter} AI search of {counter} over {', '.join(searched)}: {outcome}",
        fighter=fighter,
        counter=counter,
        search_area=searched,
        outcome=outcome,
    )
