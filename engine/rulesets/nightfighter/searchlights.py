"""S14.0 SEARCHLIGHTS (with S21.0 high altitude): one search per active zone a phase."""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.dice import nd6
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.nightfighter.commands import SearchSearchlight
from umpire.engine.rulesets.nightfighter.events import SearchlightSearched
from umpire.engine.rulesets.nightfighter.labels import LABELS
from umpire.engine.rulesets.nightfighter.phantom_test import phantom_test
from umpire.engine.rulesets.nightfighter.search_area import search_in_area
from umpire.engine.rulesets.nightfighter.setup import SearchlightZone, Setup
from umpire.engine.rulesets.nightfighter.state import State, counter_at, counter_by_id
from umpire.engine.rulesets.nightfighter.terms import Marker, Phase, Status, Uncertainty, cite
from umpire.engine.rulesets.nightfighter.turn import NightfighterTurn
from umpire.events.types import Owner

RULE = cite("S14.0")


def zone_of(setup: Setup, hex_label: str) -> SearchlightZone | None:
    """The active, cloud-free searchlight zone holding a hex, if any."""
    return next((z for z in setup.zones if z.active and not z.cloud and hex_label in z.hexes), None)


def zone_has_fix(state: State, zone: str) -> bool:
    """Whether a zone already has a fixed target."""
    return any(c.searchlight == zone and c.status is Status.ON_MAP for c in state.counters)


def search(turn: NightfighterTurn, command: SearchSearchlight) -> None:
    """S14.0: a high uncertainty counter first takes the phantom test; then the zone's
    standard dice, and on any 6 the bomber is located within its uncertainty area (re-rolled
    into a hex with another counter or one of a fruitless AI search, S5.5). A hex outside
    the zone fixes nothing unless it lies in another active zone without a fix (whether or
    not that zone has searched this phase), which then fixes it and may search no more
    this phase. At high altitude (S21.0) searchlights only force the phantom test."""
    state = turn.state
    if state.phase is not Phase.SEARCHLIGHT:
        raise RuleError(
            f"searchlights search in the searchlight phase "
            f"(now {LABELS.words('phase', state.phase)})",
            rule=RULE,
        )
    zone = next((z for z in state.setup.zones if z.name == command.zone), None)
    if zone is None or not zone.active:
        raise RuleError(f"{command.zone!r} is not an active searchlight zone", rule=RULE)
    if zone.cloud:
        raise RuleError(f"zone {zone.name} is obscured by cloud", rule=RULE)
    if zone.name in state.zones_done:
        raise RuleError(
            f"zone {zone.name} has already searched (or may not search) this phase", rule=RULE
        )
    if zone_has_fix(state, zone.name):
        raise RuleError(f"zone {zone.name} already has a fixed target", rule=RULE)
    counter = counter_at(state, command.hex)
    if counter is None or command.hex not in zone.hexes:
        raise RuleError(
            f"zone {zone.name} may search only a bomber counter inside it ({command.hex})",
            rule=RULE,
        )
    if counter.searchlight:
        raise RuleError(f"{counter.id} is already fixed by searchlights", rule=RULE)
    if counter.level is Uncertainty.HIGH:
        phantom_test(turn, counter, f"searchlights of zone {zone.name}")
        now = counter_by_id(turn.state, counter.id)
        assert now is not None
        if now.status is Status.REMOVED:
            turn.emit(_searched(zone.name, counter.id, 0, "phantom removed", ()))
            return
        counter = now
    work = turn.state  # after the phantom test: the fixes and zones the search may use
    if state.setup.high_altitude:
        turn.emit(_searched(zone.name, counter.id, 0, "high altitude: no precise fix", ()))
        return
    count = command.dice or zone.dice
    roll = turn.roll(
        nd6(count),
        purpose=f"searchlight zone {zone.name} on {counter.id}",
        rule=RULE,
        owner=Owner.OPPONENT,
    )
    if 6 not in roll.faces:
        turn.emit(_searched(zone.name, counter.id, count, "no 6: no fix", (roll.roll,)))
        return
    area = set(zone.hexes)
    # S14.0: the only bar on fixing the bomber in another zone is that zone "already" having
    # a fix; a zone that has searched this phase without one still takes it.
    others = {
        h: z.name
        for z in state.setup.zones
        if z.active and not z.cloud and z.name != zone.name and not zone_has_fix(work, z.name)
        for h in z.hexes
    }
    area.update(others)

    def holder(hex_label: str) -> str:
        return zone.name if hex_label in zone.hexes else others[hex_label]

    found = search_in_area(
        turn,
        work,
        counter,
        tuple(sorted(area)),
        Marker.SEARCHLIGHT_FIX,
        holder,
        RULE,
        exclude_on_failure=True,
    )
    also = holder(found.hex) if found.found and found.hex not in zone.hexes else ""
    text = f"a 6 rolled; {found.text}" + (f" (in zone {also})" if also else "")
    turn.emit(_searched(zone.name, counter.id, count, text, (roll.roll,), also))


def _searched(
    zone: str, counter: str, count: int, outcome: str, nums: tuple[int, ...], also: str = ""
) -> SearchlightSearched:
    # The zone and its counter are the player's choice (S14.0: "dice in any order for any
    # one selected bomber counter"); only the dice and the location are the umpire's. So
    # the words say whose choice it was, and a search that rolled no dice says none.
    dice = f" with {count} dice" if count else ", no searchlight dice rolled"
    return SearchlightSearched(
        rule=RULE,
        dice=nums,
        candidates=(
            Candidate(
                option=counter,
                chosen=True,
                reason=f"the player's choice: zone {zone} searches this counter",
            ),
        ),
        explanation=f"the player chose zone {zone} to search {counter}{dice}: {outcome}",
        zone=zone,
        counter=counter,
        dice_count=count,
        outcome=outcome,
        also_zone=also,
    )
