"""SCENARIO MODIFICATIONS 2C, 4G and 4H: setup adjustments made once at the start.

6C, 6H and 8F change bomber entry (entry.py); 7 (Serrate and the Ju88 cup) is not built
(README.md).
"""

from __future__ import annotations

from msgspec.structs import replace

from umpire.engine.errors import InvalidSetup
from umpire.engine.rulesets.nightfighter.setup import Setup, modification
from umpire.engine.rulesets.nightfighter.terms import Jamming, cite

RULE_2C = cite("SCENARIO 2C")
RULE_4G = cite("SCENARIO 4G")
RULE_4H = cite("SCENARIO 4H")


def adjusted(setup: Setup) -> Setup:
    """The setup with the solo scenario modifications applied.

    SCENARIO 2C: only one H8K1 'Emily' bomber is used, not two (a setup with more is
    refused). SCENARIO 4G: the 'Y'-guided fighters' AI radars are treated as lightly
    jammed instead of being displaced. SCENARIO 4H: the SCR-270 radar is treated as
    lightly jammed.
    """
    if modification(setup, "2C") and len(setup.bombers) > 1:
        raise InvalidSetup(f"{RULE_2C}: only one H8K1 'Emily' bomber is used, not two")
    if modification(setup, "4G"):
        fighters = tuple(
            replace(f, ai_jamming=Jamming.LIGHT)
            if f.y_guided and f.ai_jamming is Jamming.NONE
            else f
            for f in setup.fighters
        )
        setup = replace(setup, fighters=fighters)
    if modification(setup, "4H"):
        radars = tuple(
            replace(r, jamming=Jamming.LIGHT)
            if r.name.upper().startswith("SCR-270") and r.jamming is Jamming.NONE
            else r
            for r in setup.radars
        )
        setup = replace(setup, radars=radars)
    return setup
