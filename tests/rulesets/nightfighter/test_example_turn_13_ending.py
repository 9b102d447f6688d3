"""Example of play, turn 13 (004_c3eb2ad371d7bb6a.txt): the game ends when the last
nightfighter leaves the map. Issue 41 item 3: once no bomber is left (none due, none on
the map or pending), the listed actions say what ends the game; before, the game cycled
through its phases with nothing said."""

from __future__ import annotations

import msgspec

from tests.rulesets.nightfighter.setups import counter, make_setup, make_state
from umpire.engine.actions import legal_actions
from umpire.engine.roles import Role
from umpire.engine.rulesets.nightfighter import RULESET
from umpire.engine.rulesets.nightfighter.terms import Phase, Status

ENDING = "no bomber left: fly your fighter off the map, or end the game"


def _texts(phase: Phase, status: Status, turn: int) -> dict[str, str]:
    setup = make_setup(bombers=[{"id": "B1", "turn": 1}])
    gone = counter("B1-1", "0510", status=status)
    state = msgspec.structs.replace(make_state(setup, [gone], phase), turn=turn)
    listed = legal_actions(RULESET, state, Role.PLAYER, ended=False)
    return {a.type: a.description for a in listed}


def test_with_no_bomber_left_the_actions_say_what_ends_the_game() -> None:
    texts = _texts(Phase.FIGHTER_MOVEMENT, Status.OFF_MAP, 5)
    assert ENDING in texts["MoveFighter"] and ENDING in texts["EndPhase"]
    assert ENDING in _texts(Phase.TALLY, Status.REMOVED, 5)["EndPhase"]


def test_while_a_bomber_is_on_the_map_or_due_nothing_is_said() -> None:
    assert ENDING not in _texts(Phase.FIGHTER_MOVEMENT, Status.ON_MAP, 5)["EndPhase"]
    assert ENDING not in _texts(Phase.FIGHTER_MOVEMENT, Status.OFF_MAP, 1)["EndPhase"]
