"""README "Pace": a phase in which the player has nothing to decide is not a stop; the turn
runs on to the next point where the player must act (004_c3eb2ad371d7bb6a.txt, the turn
of the EXAMPLE OF PLAY). `pace: every_phase` stops in every phase."""

from __future__ import annotations

from tests.rulesets.nightfighter.setups import make_setup, run
from umpire.engine.rulesets.nightfighter.evolve import initial_state
from umpire.engine.rulesets.nightfighter.state import State
from umpire.engine.rulesets.nightfighter.terms import Phase


def _lone_bomber(pace: str, **fields: object) -> State:
    """One Lancaster due on turn 1 (three high counters in row 03, S8.0), the radar W,
    no searchlight zone, F1 at 0120 facing north: far from every counter. The game opens
    at turn 1's bomber movement."""
    setup = make_setup(bombers=[{"id": "B", "turn": 1}], pace=pace, **fields)
    state = initial_state(setup)
    assert (state.turn, state.phase) == (1, Phase.BOMBER_MOVEMENT)
    return state


def test_a_turn_with_nothing_to_decide_in_between_takes_three_commands() -> None:
    """MoveBombers (no dice: the counters enter), MoveFighter (the last fighter moved: the
    phase ends), PlaceRadarSearches (no search: no dice); the AI radar, searchlight, tally
    and combat phases offer nothing (no counter in F1's AI area or tally range, no zone),
    so the third command runs on to turn 2's bomber movement."""
    state = _lone_bomber("run_on")
    state, _ = run(state, "MoveBombers", [])
    assert state.phase is Phase.FIGHTER_MOVEMENT
    state, _ = run(state, "MoveFighter", [], fighter="F1", path=["0119"], facing=0)
    assert state.phase is Phase.RADAR_SEARCH
    state, events = run(state, "PlaceRadarSearches", [], searches=[])
    assert (state.turn, state.phase) == (2, Phase.BOMBER_MOVEMENT)
    began = [e.phase for e in events if type(e).__name__ == "PhaseBegan"]
    assert began == [Phase.AI_RADAR, Phase.SEARCHLIGHT, Phase.TALLY, Phase.COMBAT]
    assert type(events[-1]).__name__ == "TurnStarted"


def test_every_phase_stops_in_each_phase() -> None:
    """The same turn with `pace: every_phase` takes an EndPhase in each of the last four
    phases: seven commands."""
    state = _lone_bomber("every_phase")
    state, _ = run(state, "MoveBombers", [])
    state, _ = run(state, "MoveFighter", [], fighter="F1", path=["0119"], facing=0)
    assert state.phase is Phase.FIGHTER_MOVEMENT
    commands = 2
    while state.turn == 1:
        state, _ = run(state, "EndPhase", [])
        commands += 1
    assert commands == 2 + 6 and state.phase is Phase.BOMBER_MOVEMENT


def test_a_phase_with_a_choice_stops_the_run() -> None:
    """F1 set up at 0404 facing north, next to the counter entering at 0403: its AI radar
    (range 2, narrow arc) reaches it, so the AI radar phase waits for the player."""
    state = _lone_bomber("run_on", fighters=[{"id": "F1", "hex": "0405", "facing": 0}])
    state, _ = run(state, "MoveBombers", [])
    state, _ = run(state, "MoveFighter", [], fighter="F1", path=[], facing=0)
    state, _ = run(state, "PlaceRadarSearches", [], searches=[])
    assert (state.turn, state.phase) == (1, Phase.AI_RADAR)
