"""S17.0 with the base-game combat's outcome: the player reports a tallied bomber shot down
(`ShootDown`), its counter leaves play, and the game's end names the bombers shot down
(the example of play's victory condition, turn 13: shooting down one of the Lancasters).
Found playing scenario 4B through the CLI: before, a destroyed bomber kept flying and
being searched, and nothing could say it was destroyed."""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.nightfighter.setups import counter, make_setup, make_state, named, run
from umpire.engine.actions import legal_actions
from umpire.engine.errors import RuleError
from umpire.engine.roles import Role
from umpire.engine.rulesets.nightfighter import RULESET
from umpire.engine.rulesets.nightfighter.state import State
from umpire.engine.rulesets.nightfighter.terms import Phase, Status


def _tallied() -> State:
    setup = make_setup(zones=[{"name": "K", "hexes": ["1010"]}])
    c = counter("B-1", "1010", "none", tallied_by=("F1",), ai_fixed_by=("F1",), searchlight="K")
    return make_state(setup, [c, counter("C-1", "0505")], Phase.COMBAT, ("1009", 3))


def test_a_tallied_bomber_shot_down_leaves_play() -> None:
    """S17.0: the combat is against a tallied bomber; when the player reports it destroyed,
    its counter leaves play with its markers (the zone's fix freed), is offered for no
    search, and the combat phase has nothing left to decide."""
    state, events = run(_tallied(), "ShootDown", [], fighter="F1", hex="1010")
    down = named(events, "BomberShotDown")
    assert (down.counter, down.bomber, down.fighter) == ("B-1", "B", "F1")
    assert down.rule.endswith("S17.0 (base-game combat: the tallied bomber destroyed)")
    assert "F1 shoots down B-1 (bomber B) in 1010" in down.explanation
    b = state.counters[0]
    assert b.status is Status.SHOT_DOWN
    assert (b.tallied_by, b.ai_fixed_by, b.searchlight) == ((), (), "")
    listed = {a.type for a in legal_actions(RULESET, state, Role.PLAYER, ended=False)}
    assert not listed & {"ShootDown", "Corkscrew", "RollBomberResponse", "BreakContact"}


def test_only_a_tallied_bomber_can_be_shot_down() -> None:
    """S17.0: combat needs the fighter's tally: an untallied counter is refused, naming the
    rule, and the listed ShootDown offers only the tallied counter."""
    state = _tallied()
    with pytest.raises(RuleError, match="has tallied") as info:
        run(state, "ShootDown", [], fighter="F1", hex="0505")
    assert info.value.rule.endswith("S17.0")
    shoot = next(
        a for a in legal_actions(RULESET, state, Role.PLAYER, ended=False) if a.type == "ShootDown"
    )
    assert shoot.rule.endswith("S17.0")
    assert shoot.schema["properties"]["hex"]["enum"] == ["1010"]


def test_the_end_of_the_game_names_the_bombers_shot_down() -> None:
    """Example of play, turn 13: the game ends as the last nightfighter leaves the map; the
    result names the bombers shot down (none named when none was). Scenario 5A's victory
    condition is the base game's, which the seed does not state: no winner named."""
    state = _tallied()
    state = msgspec.structs.replace(
        state, setup=msgspec.structs.replace(state.setup, scenario="5A")
    )
    state, _ = run(state, "ShootDown", [], fighter="F1", hex="1010")
    state = make_state(state.setup, list(state.counters), Phase.FIGHTER_MOVEMENT, ("1001", 0))
    _, events = run(state, "MoveFighter", [], fighter="F1", path=["1000"], facing=0, exit=True)
    assert named(events, "GameEnded").result == (
        "every nightfighter has left the map; bombers shot down: B"
    )
    assert named(events, "GameEnded").winner == "none_stated"  # the base game scores it
    state = make_state(state.setup, [counter("B-1", "1010")], Phase.FIGHTER_MOVEMENT, ("1001", 0))
    _, events = run(state, "MoveFighter", [], fighter="F1", path=["1000"], facing=0, exit=True)
    assert named(events, "GameEnded").result == "every nightfighter has left the map"


@pytest.mark.parametrize(
    ("shot_down", "winner", "said"), [(True, "player", "met"), (False, "opponent", "not met")]
)
def test_a_scenarios_stated_victory_condition_names_the_winner(
    shot_down: bool, winner: str, said: str
) -> None:
    """Example of play (scenario 4B), turn 13: "You have fallen just short of the victory
    condition of shooting down one of the Lancasters". With 4B's stated condition (one
    bomber shot down), the last fighter's exit names the winner: B shot down, the player
    (the condition met); none shot down, not the player (short of it)."""
    state = _tallied()
    assert state.setup.scenario == "4B"
    if shot_down:
        state, _ = run(state, "ShootDown", [], fighter="F1", hex="1010")
    state = make_state(state.setup, list(state.counters), Phase.FIGHTER_MOVEMENT, ("1001", 0))
    _, events = run(state, "MoveFighter", [], fighter="F1", path=["1000"], facing=0, exit=True)
    ended = named(events, "GameEnded")
    assert ended.winner == winner
    assert ended.result.endswith(
        f"the scenario's victory condition (shoot down 1 bomber) is {said}"
    )
    assert ended.rule.endswith("EXAMPLE OF PLAY turn 13 (scenario 4B's victory condition)")
