"""Scenario data for the tests: scenario 4B as the example of play sets it up, read from the
shipped data file (engine/rulesets/nightfighter/scenarios/4B.json, `umpire new nightfighter
--scenario 4B`).

The searchlight zones hold the hexes the example of play puts in each zone (and leave out
the ones it puts outside every active zone: 0914, 1114, 1327, 1414); the rest of the
printed zones is not needed by the example.
"""

from __future__ import annotations

from typing import Any

from umpire.engine import scenarios
from umpire.engine.rulesets.nightfighter import RULESET


def setup_4b() -> dict[str, Any]:
    """Scenario 4B 'Henaja', May 1942, as in the example of play."""
    return dict(scenarios.scenario(RULESET, "4B").setup)


def setup_4b_phase_by_phase() -> dict[str, Any]:
    """Scenario 4B stopping in every phase (pace `every_phase`), as the example of play
    runs it: the scripted games send each phase's `EndPhase` themselves."""
    return {**setup_4b(), "pace": "every_phase"}


ZONES_4B: dict[str, list[str]] = {z["name"]: z["hexes"] for z in setup_4b()["zones"]}
