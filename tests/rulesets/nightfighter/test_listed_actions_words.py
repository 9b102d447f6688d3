"""What the listed actions say (seed 004_c3eb2ad371d7bb6a.txt), found playing scenario 4B
through the CLI: the rule a listed command cites must be the one that allows it now, and
its words must say what sending it does."""

from __future__ import annotations

from tests.rulesets.nightfighter.setups import counter, make_setup, make_state, run
from umpire.engine.actions import legal_actions
from umpire.engine.roles import Role
from umpire.engine.rulesets.nightfighter import RULESET
from umpire.engine.rulesets.nightfighter.evolve import initial_state
from umpire.engine.rulesets.nightfighter.labels import LABELS
from umpire.engine.rulesets.nightfighter.state import State
from umpire.engine.rulesets.nightfighter.terms import Phase
from umpire.engine.rulesets.nightfighter.view import view
from umpire.events.action_text import render


def _listed(state: State) -> dict[str, tuple[str, str]]:
    return {
        a.type: (a.rule, a.description)
        for a in legal_actions(RULESET, state, Role.PLAYER, ended=False)
    }


def test_after_a_failed_basic_tally_the_fixed_attempt_cites_s15() -> None:
    """S15.0: once the basic attempt (S10.0) has failed, the only tally left is the advanced
    one on a fixed counter: the listing cites S15.0 and says so, not S10.0 Basic
    Tallying."""
    setup = make_setup(visibility="moderate")
    fixed = counter("B-1", "1010", "none", ai_fixed_by=("F1",))
    state = make_state(setup, [fixed], Phase.TALLY, ("1010", 3))
    rule, text = _listed(state)["AttemptTally"]
    assert rule.endswith("S10.0")
    state, _ = run(state, "AttemptTally", [[1, 2, 3]], fighter="F1", hex="1010", dice=3)
    rule, text = _listed(state)["AttemptTally"]
    assert rule.endswith("S15.0") and "advanced (fixed-target) tally" in text


def test_ending_the_combat_phase_says_the_next_turn_begins() -> None:
    """A game opens at its first real step, turn 1's bomber movement (EXAMPLE OF PLAY,
    turn 1: the first counters enter): MoveBombers is listed first (v7 listed only
    EndPhase, 'Begin turn 1'; v8 opened before turn 1); ending a turn's combat phase begins
    the next turn."""
    state = initial_state(make_setup())
    listed = _listed(state)
    assert next(iter(listed)) == "MoveBombers"
    assert listed["MoveBombers"][1].startswith("Move and enter the bomber counters")
    state, _ = run(state, "MoveBombers", [])
    assert (state.turn, state.phase) == (1, Phase.FIGHTER_MOVEMENT)
    for _ in range(5):
        state, _ = run(state, "EndPhase", [])
    assert state.phase is Phase.COMBAT
    assert _listed(state)["EndPhase"][1].startswith("End the Combat phase: turn 2 begins")


def test_a_facing_is_said_by_its_compass_point_and_the_hex_it_faces() -> None:
    """The example of play names a fighter's facing by the hex it faces (turn 4: "move to
    hex 1107 facing towards the bomber counter in hex 1006"; turn 7: "hex 0712 facing hex
    0812"). From 1107, 1006 is direction 5 (NW); from 0712, 0812 is 2 (SE). The move's
    words, the state's words, the map's note and the listed field say it, not the number."""
    state = make_state(make_setup(), [], Phase.FIGHTER_MOVEMENT, ("1006", 0))
    moved, events = run(state, "MoveFighter", [], fighter="F1", path=["1107"], facing=5)
    assert events[0].explanation == "F1 moves 1107, facing NW, towards 1006"
    state = make_state(make_setup(), [], Phase.FIGHTER_MOVEMENT, ("0711", 3))
    _, events = run(state, "MoveFighter", [], fighter="F1", path=["0712"], facing=2)
    assert events[0].explanation == "F1 moves 0712, facing SE, towards 0812"
    assert LABELS.words("facing", 5) == "NW" and LABELS.words("heading", 3) == "S"
    (piece,) = [p for p in RULESET.board(view(moved, Role.PLAYER)).pieces if p.id == "F1"]
    assert piece.note == "facing NW"


def test_the_listed_facing_names_what_0_to_5_mean() -> None:
    state = make_state(make_setup(), [], Phase.FIGHTER_MOVEMENT, ("1006", 0))
    (move,) = [a for a in legal_actions(RULESET, state, Role.PLAYER, ended=False)
               if a.type == "MoveFighter"]  # fmt: skip
    (line,) = [line for line in render(move) if line.strip().startswith("facing:")]
    assert "0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW" in line and "clockwise" in line, line
