"""What the listed actions say (seed 004_c3eb2ad371d7bb6a.txt), found playing scenario 4B
through the CLI: the rule a listed command cites must be the one that allows it now, and
its words must say what sending it does."""

from __future__ import annotations

from tests.rulesets.nightfighter.setups import counter, make_setup, make_state, run
from umpire.engine.actions import legal_actions
from umpire.engine.roles import Role
from umpire.engine.rulesets.nightfighter import RULESET
from umpire.engine.rulesets.nightfighter.evolve import initial_state
from umpire.engine.rulesets.nightfighter.state import State
from umpire.engine.rulesets.nightfighter.terms import Phase


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
    """The first EndPhase of a game begins turn 1 (there is no phase before it to end);
    ending a turn's combat phase begins the next turn."""
    state = initial_state(make_setup())
    assert _listed(state)["EndPhase"][1].startswith("Begin turn 1 (the bombers move first)")
    state, _ = run(state, "EndPhase", [])
    state, _ = run(state, "MoveBombers", [])
    for _ in range(5):
        state, _ = run(state, "EndPhase", [])
    assert state.phase is Phase.COMBAT
    assert _listed(state)["EndPhase"][1].startswith("End the Combat phase: turn 2 begins")
