"""The pace of a turn: a phase in which the player has nothing to decide is not a stop.

Seed 004_c3eb2ad371d7bb6a.txt runs a turn as the EXAMPLE OF PLAY does: bomber movement,
nightfighter movement, radar search (S13.0), AI radar (S19.0), searchlights (S14.0), tally
(S10.0, S15.0), combat (S17.0). With `Setup.pace` `run_on` (the default) every command
that leaves the game in a phase where the player has no choice goes on ending phases
(the same events `EndPhase` appends) until a phase where the player must act: the bomber
movement (MoveBombers reports the base game's alerted bombers, 28.2), or a phase below
that offers a choice. `every_phase` stops in every phase, as the example of play does.

A choice, phase by phase (the conditions `decide` checks for that command):

- nightfighter movement: a fighter on the map that has not moved (S3.0);
- radar search: the phase's searches not yet placed, a radar and a bomber counter on the
  map (S13.0), or scenario 7's Serrate not yet used with a fighter on the map;
- AI radar: a fighter that has not searched whose AI search area (S19.0) meets a bomber
  counter's area (S5.0);
- searchlights: an active zone, clear of cloud, that has not searched this phase and has
  no fixed target, holding an unfixed bomber counter (S14.0);
- tally: a fighter not maintaining a tally with a basic attempt left and a counter's area
  within its tally range, illuminated or not (S10.0), or an advanced tally open to it
  (S15.0);
- combat: a bomber counter tallied by a fighter on the map (S17.0).

Giving up a tally or AI fix (S16.0) may be done in any phase, so it alone keeps no phase
open.
"""

from __future__ import annotations

from umpire.engine.rulesets.nightfighter.geometry import ai_search_area, area, tally_range
from umpire.engine.rulesets.nightfighter.searchlights import zone_has_fix
from umpire.engine.rulesets.nightfighter.setup import modification
from umpire.engine.rulesets.nightfighter.state import Counter, FighterState, State
from umpire.engine.rulesets.nightfighter.terms import Pace, Phase, Status

# More phases than a turn holds: ending them all comes back to bomber movement, a stop.
MOST_PHASES = len(Phase) + 1


def _counters(state: State) -> list[Counter]:
    return [c for c in state.counters if c.status is Status.ON_MAP and c.hex]


def _fighters(state: State) -> list[FighterState]:
    return [f for f in state.fighters if f.hex]


def _ai_search_open(state: State, fighter: FighterState, counters: list[Counter]) -> bool:
    spec = next((s for s in state.setup.fighters if s.id == fighter.id), None)
    if spec is None or fighter.ai_searched:
        return False
    searched = set(ai_search_area(state.setup, fighter, spec.ai_range, spec.ai_arc))
    return any(searched & set(area(state.setup, c)) for c in counters)


def _tally_open(state: State, fighter: FighterState, counters: list[Counter]) -> bool:
    if any(fighter.id in c.tallied_by for c in state.counters):
        return False
    if fighter.tally_attempts == 0:
        reach = set(tally_range(state.setup, fighter, True))
        return any(reach & set(area(state.setup, c)) for c in counters)
    if fighter.basic_tally_failed and fighter.tally_attempts == 1:
        return any(c.searchlight or fighter.id in c.ai_fixed_by for c in counters)
    return False


def has_choice(state: State) -> bool:
    """Whether the player has something to decide in the current phase."""
    counters, fighters = _counters(state), _fighters(state)
    match state.phase:
        case Phase.BOMBER_MOVEMENT:
            return True
        case Phase.FIGHTER_MOVEMENT:
            return any(not f.moved for f in fighters)
        case Phase.RADAR_SEARCH:
            radar = not state.radar_placed and bool(state.setup.radars) and bool(counters)
            serrate = modification(state.setup, "7") and not state.serrate_used and fighters
            return radar or bool(serrate)
        case Phase.AI_RADAR:
            return any(_ai_search_open(state, f, counters) for f in fighters)
        case Phase.SEARCHLIGHT:
            return any(
                z.active
                and not z.cloud
                and z.name not in state.zones_done
                and not zone_has_fix(state, z.name)
                and any(c.hex in z.hexes and not c.searchlight for c in counters)
                for z in state.setup.zones
            )
        case Phase.TALLY:
            return any(_tally_open(state, f, counters) for f in fighters)
        case Phase.COMBAT:
            on_map = {f.id for f in fighters}
            return any(on_map & set(c.tallied_by) for c in counters)
    return True


def runs_on(state: State) -> bool:
    """Whether the game's pace ends the current phase by itself now."""
    return state.setup.pace is Pace.RUN_ON and state.turn > 0 and not has_choice(state)
