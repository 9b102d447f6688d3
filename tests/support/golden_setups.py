"""The setups the golden logs were recorded with (tests/support/golden_logs.py): a playable
setup per ruleset, from the set-ups the ruleset tests use. Changing one changes the logs."""

from __future__ import annotations

from typing import Any

import msgspec

from tests.rulesets.age_of_dogfights.test_scripted_dogfight import SETUP as AGE_OF_DOGFIGHTS
from tests.rulesets.down_in_flames.scenario import entry
from tests.rulesets.downtown.test_scripted_raid import SETUP as DOWNTOWN
from tests.rulesets.nightfighter.test_random_play import _setup as nightfighter_setup

DOWN_IN_FLAMES = {
    "aircraft": [
        entry("p1", "P-51D-10", "A", "ESC", "leader", hand=7, pilot_quality="veteran"),
        entry("p2", "P-51D-10", "A", "ESC", "wingman"),
        entry("bomber1", "B-17G", "A", "BOX", "formation"),
        entry("f1", "Fw 190A-8", "B", "JG", "leader", hand=7, pilot_quality="ace",
              crack_shot=True, keen_eyesight=True),
        entry("f2", "Fw 190A-8", "B", "JG", "wingman", pilot_quality="recruit"),
    ],
    "rockets_rule": True, "ammunition_rule": True, "combat_die": "d6",
}  # fmt: skip


def setups() -> dict[str, dict[str, Any]]:
    """Each shipped ruleset's test setup, as wire data."""
    return {
        "age_of_dogfights": AGE_OF_DOGFIGHTS,
        "conflict_of_heroes": {},
        "down_in_flames": DOWN_IN_FLAMES,
        "downtown": DOWNTOWN,
        "nightfighter": msgspec.to_builtins(nightfighter_setup(1)),
    }
