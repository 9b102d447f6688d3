"""001_989a2f850da69b66.txt Game Setup: skill, aggressiveness, placement, bot altitude."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from tests.rulesets.age_of_dogfights.setups import decide, of_type
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.age_of_dogfights import initial_state
from umpire.engine.rulesets.age_of_dogfights.commands import RollSetup
from umpire.engine.rulesets.age_of_dogfights.events import (
    AggressivenessRolled,
    AltitudeRolled,
    SetupCompleted,
    SkillRolled,
)
from umpire.engine.rulesets.age_of_dogfights.geometry import Heading
from umpire.engine.rulesets.age_of_dogfights.setup import Setup
from umpire.engine.rulesets.age_of_dogfights.state import Phase
from umpire.engine.rulesets.age_of_dogfights.terms import Aggressiveness, Edge, Skill
from umpire.events.types import DiceRolled, Owner


def setup_dict(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "players": [
            {"id": "P1", "number": 1, "aircraft_type": "se5a", "position": [0, 5],
             "heading": "E", "level": 3},
        ],
        "bots": [
            {"id": "B1", "number": 1, "aircraft_type": "albatros_dv", "position": [17, 4]},
            {"id": "B2", "number": 2, "aircraft_type": "nieuport_17", "position": [17, 8]},
        ],
    }  # fmt: skip
    data.update(changes)
    return data


def start(**changes: Any):  # type: ignore[no-untyped-def]
    return initial_state(msgspec.convert(setup_dict(**changes), Setup))


def test_rolls_skill_aggressiveness_and_altitude_in_order() -> None:
    """Skill for every fighter (player too), aggressiveness for bot fighters, then the
    altitude: ceiling L5 and 4-6 = maximum height; ceiling L4 or lower: roll the level,
    capped at the ceiling."""
    state = start()
    assert state.plane("B1").heading is Heading.W  # facing across from the east edge
    state, events = decide(state, RollSetup(), [[2], [6], [4], [1], [5], [5], [6]])
    skills = {e.aircraft: e.skill for e in of_type(events, SkillRolled)}
    assert skills == {"P1": Skill.ROOKIE, "B1": Skill.ACE, "B2": Skill.AVERAGE}
    aggr = {e.aircraft: e.aggressiveness for e in of_type(events, AggressivenessRolled)}
    assert aggr == {"B1": Aggressiveness.CAUTIOUS, "B2": Aggressiveness.AGGRESSIVE}
    assert state.plane("B1").level == 5  # ceiling L5, rolled 5: maximum height
    assert state.plane("B2").level == 4  # ceiling L4: one roll, 6 above it: L4
    assert of_type(events, SetupCompleted) and state.phase is Phase.COMBAT
    assert state.plane("B2").start_edge is Edge.EAST


def test_low_first_altitude_roll_means_a_second_roll() -> None:
    """1-3 with a ceiling of L5 or higher: roll again for the exact level."""
    state = start(
        players=[{"id": "P1", "number": 1, "aircraft_type": "se5a", "position": [0, 5],
                  "heading": "E", "level": 3, "skill": "ace"}],
        bots=[{"id": "B1", "number": 1, "aircraft_type": "albatros_dv", "position": [17, 4],
               "skill": "average", "aggressiveness": "average"}],
    )  # fmt: skip
    state, events = decide(state, RollSetup(), [[3], [2]])
    (alt,) = of_type(events, AltitudeRolled)
    assert alt.level == 2 and len(alt.dice) == 2
    assert not of_type(events, SkillRolled)  # fixed skills are not rolled


def test_mission_aircraft_get_no_skill_or_aggressiveness_roll() -> None:
    """'for each fighter aircraft' / 'for each bot fighter aircraft'."""
    state = start(
        players=[{"id": "P1", "number": 1, "aircraft_type": "se5a", "position": [0, 5],
                  "heading": "E", "level": 3, "skill": "ace"}],
        bots=[{"id": "B1", "number": 1, "aircraft_type": "dh4", "position": [17, 4]}],
    )  # fmt: skip
    state, events = decide(state, RollSetup(), [[6]])
    assert not of_type(events, SkillRolled) and not of_type(events, AggressivenessRolled)
    assert state.plane("B1").level == 5


def test_setup_rolls_only_once() -> None:
    state, _ = decide(start(), RollSetup(), [[1], [1], [1], [1], [1], [4], [1]])
    with pytest.raises(RuleError, match="already") as info:
        decide(state, RollSetup(), [])
    assert info.value.rule.endswith("Game Setup")


@pytest.mark.parametrize(
    ("changes", "message", "rule_end"),
    [
        ({"players": [{"id": "P1", "number": 1, "aircraft_type": "zeppelin",
                       "position": [0, 5], "heading": "E", "level": 3}]},
         "unknown aircraft type 'zeppelin'", "aircraft data"),
        ({"players": [{"id": "P1", "number": 1, "aircraft_type": "se5a",
                       "position": [0, 50], "heading": "E", "level": 3}]},
         "off the board", "(placement)"),
        ({"players": [{"id": "P1", "number": 1, "aircraft_type": "nieuport_17",
                       "position": [0, 5], "heading": "E", "level": 5}]},
         "above its service ceiling L4", "(service ceiling)"),
        ({"players": [{"id": "P1", "number": 1, "aircraft_type": "se5a",
                       "position": [4, 5], "heading": "E", "level": 3}]},
         "must start on the west edge", "(placement)"),
        ({"bots": [{"id": "B1", "number": 1, "aircraft_type": "albatros_dv",
                    "position": [0, 4]}]},
         "must start on the east edge", "(placement)"),
        ({"bots": [{"id": "P1", "number": 1, "aircraft_type": "albatros_dv",
                    "position": [17, 4]}]},
         "own id", "(placement)"),
    ],
)  # fmt: skip
def test_bad_setups_are_rule_errors(changes: dict[str, Any], message: str, rule_end: str) -> None:
    with pytest.raises(RuleError, match=message) as info:
        start(**changes)
    assert info.value.rule.endswith(rule_end)


def test_a_player_aircrafts_skill_roll_is_the_players_own() -> None:
    """Game Setup: "roll a red standard die for each fighter aircraft" for pilot skill, "for
    both bot and player aircraft": the roll for P1 (the player's SE5a) is the player's
    own, the rolls for B1 and B2 are the bots' (the opponent's). Dice 2, 6, 4 as above.
    Before: P1's roll was said to be "the opponent's roll"."""
    _, events = decide(start(), RollSetup(), [[2], [6], [4], [1], [5], [5], [6]])
    owners = {
        r.purpose.split(":")[0]: r.owner
        for r in of_type(events, DiceRolled)
        if r.purpose.endswith("pilot skill")
    }
    assert owners == {"P1": Owner.PLAYER, "B1": Owner.OPPONENT, "B2": Owner.OPPONENT}
