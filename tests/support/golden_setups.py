"""The setups the golden logs were recorded with (tests/support/golden_logs.py): a playable
setup per ruleset, from the set-ups the ruleset tests use (tests/rulesets/<name>/setups.py).
Changing one changes the logs."""

from __future__ import annotations

from typing import Any

import msgspec

from tests.rulesets.age_of_dogfights.setups import SETUP as AGE_OF_DOGFIGHTS
from tests.rulesets.down_in_flames.setups import DRIVER_SETUP as DOWN_IN_FLAMES
from tests.rulesets.downtown.setups import SETUP as DOWNTOWN
from tests.rulesets.nightfighter.setups import random_setup as nightfighter_setup


def setups() -> dict[str, dict[str, Any]]:
    """Each shipped ruleset's test setup, as wire data."""
    return {
        "age_of_dogfights": AGE_OF_DOGFIGHTS,
        "conflict_of_heroes": {},
        "down_in_flames": DOWN_IN_FLAMES,
        "downtown": DOWNTOWN,
        "nightfighter": msgspec.to_builtins(nightfighter_setup(1)),
    }
