"""The documented readings a setup switches (engine/kit/reading.py; README "Ledger of
readings")."""

from __future__ import annotations

from umpire.engine.kit.reading import Reading
from umpire.engine.rulesets.nightfighter.terms import RULE_SEQUENCE, Pace

READINGS = (
    Reading(
        name="pace",
        rule=RULE_SEQUENCE,
        default=Pace.RUN_ON.value,
        alternatives=(Pace.EVERY_PHASE.value,),
        readme="README.md, Ledger of readings: turn pacing (example of play)",
        summary="a phase with nothing to decide passes by itself (run_on), or the game "
        "stops in every phase until EndPhase (every_phase)",
    ),
)
