"""S5.2-S5.5: a search over an area: locate the bomber, fix it in the area or fail.

Shared by AI radar (S19.0), searchlights (S14.0) and tallies (S10.0, S15.0): the search
area comprises the hexes in which the bomber can legitimately be tallied, fixed or
contacted (S5.2).
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec import Struct

from umpire.engine.decision import Candidate
from umpire.engine.rulesets.nightfighter.events import (
    LocalisationFailed,
    Localised,
    LocationRolled,
    MarkerPlaced,
)
from umpire.engine.rulesets.nightfighter.labels import LABELS
from umpire.engine.rulesets.nightfighter.location_roll import roll_location
from umpire.engine.rulesets.nightfighter.phantom_test import phantom_test
from umpire.engine.rulesets.nightfighter.state import Counter, State, counter_by_id
from umpire.engine.rulesets.nightfighter.terms import (
    Marker,
    PhantomResult,
    Status,
    Uncertainty,
    cite,
)
from umpire.engine.rulesets.nightfighter.turn import NightfighterTurn


class Outcome(Struct, frozen=True, kw_only=True):
    """What a search over an area found (its events are emitted through the turn)."""

    found: bool
    hex: str = ""
    text: str = ""


def search_in_area(
    turn: NightfighterTurn,
    state: State,
    counter: Counter,
    area: tuple[str, ...],
    marker: Marker,
    by: Callable[[str], str],
    rule: str,
    exclude_on_failure: bool = True,
) -> Outcome:
    """Locate `counter` and, if its hex falls inside `area`, shift it there with `marker`.

    `by(hex)` names who holds the marker for a hex (a fighter, or a searchlight zone).
    No uncertainty: the counter is where it is shown. High uncertainty: the phantom test
    follows a location inside the area, and a real bomber is fixed in the hex already
    determined (S5.4). A location outside the area fails, and that area is excluded for
    later location rolls against the bomber this turn (S5.5). Every event is emitted through
    `turn`; every check reads `state`, the state the search began in.
    """
    if counter.level is Uncertainty.NONE:
        if counter.hex in area:
            placed = MarkerPlaced(
                rule=rule,
                counter=counter.id,
                marker=marker,
                by=by(counter.hex),
                explanation=(
                    f"{counter.id} is at no uncertainty in {counter.hex}: "
                    + LABELS.words("marker", marker)
                ),
            )
            turn.emit(placed)
            return Outcome(found=True, hex=counter.hex, text="found")
        return Outcome(found=False, text=f"{counter.hex} is outside the search area")
    loc = roll_location(
        turn, state, counter, f"locate {counter.id} ({LABELS.words('marker', marker)})"
    )
    considered = tuple(
        Candidate(option=r.split(":")[0], chosen=False, reason="re-rolled: " + r.split(": ", 1)[1])
        for r in loc.rerolled
    )
    inside = bool(loc.hex) and loc.hex in area
    if not inside:
        where = loc.hex or "off the map"
        failed = LocalisationFailed(
            rule=cite("S5.5") if exclude_on_failure else cite("S5.2"),
            dice=loc.roll_numbers,
            candidates=(
                *considered,
                Candidate(option=loc.cell or "none", chosen=True, reason="outside the area"),
            ),
            explanation=(
                f"the location roll puts {counter.id} outside the search area: the search "
                "fails and the area is barred for later location rolls this turn"
            ),
            counter=counter.id,
            bomber=counter.bomber,
            search_area=area,
            excluded=area if exclude_on_failure else (),
        )
        secret = LocationRolled(
            rule=cite("S5.3") if "/" in loc.cell else cite("S5.2"),
            dice=loc.roll_numbers,
            explanation=f"the location roll pointed to {where} (cell {loc.cell or 'none'})",
            counter=counter.id,
            rolled_cell=loc.cell,
            rolled_hex=where,
        )
        turn.emit(secret)
        turn.emit(failed)
        return Outcome(found=False, text="location outside the area")
    if counter.level is Uncertainty.HIGH:
        # The test's removals must be read before the outcome: the turn folds them. Its
        # roll names no hex: a phantom was never fixed anywhere, so where the hidden
        # location pointed stays the umpire's (Localised publishes it for a real bomber).
        verdict = phantom_test(turn, counter, LABELS.words("marker", marker))
        now = counter_by_id(turn.state, counter.id)
        assert now is not None
        if now.status is Status.REMOVED or verdict.result is PhantomResult.PHANTOM:
            return Outcome(found=False, text="the counter was a phantom")
    localised = Localised(
        rule=rule,
        dice=loc.roll_numbers,
        candidates=(
            *considered,
            Candidate(option=loc.cell, chosen=True, reason=f"{loc.hex} is in the search area"),
        ),
        explanation=(
            f"{counter.id} located in {loc.hex} (cell {loc.cell}): "
            + LABELS.words("marker", marker)
        ),
        counter=counter.id,
        from_hex=counter.hex,
        to_hex=loc.hex,
        cell=loc.cell,
        marker=marker,
        by=by(loc.hex),
    )
    turn.emit(localised)
    return Outcome(found=True, hex=loc.hex, text=f"found in {loc.hex}")
