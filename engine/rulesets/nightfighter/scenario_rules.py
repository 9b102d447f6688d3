"""SCENARIO MODIFICATIONS 2C, 4G and 4H: setup adjustments made once at the start; and
the scenarios' victory conditions the seed states (VICTORY).

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

# The victory conditions the seed states, by scenario: the bombers the player must shoot
# down, with the citation. Only 4B's is stated: "You have fallen just short of the victory
# condition of shooting down one of the Lancasters" (the example of play is "the whole of
# scenario 4B"). Every other scenario's is the base game's, which umpire does not keep
# (README ledger "end of game").
VICTORY: dict[str, tuple[int, str]] = {
    "4B": (1, cite("EXAMPLE OF PLAY turn 13 (scenario 4B's victory condition)")),
}


def victory(setup: Setup) -> tuple[int, str] | None:
    """The scenario's stated victory condition (bombers to shoot down, its citation), or
    None where the seed states none."""
    return VICTORY.get(setup.scenario.upper())


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
