"""The documented readings a setup switches (engine/kit/reading.py; README "Ledger of
readings")."""

from __future__ import annotations

from umpire.engine.kit.reading import Reading
from umpire.engine.rulesets.conflict_of_heroes.terms import cite

READINGS = (
    Reading(
        name="sideways_moves",
        rule=cite("5.3"),
        default=False,
        alternatives=(True,),
        readme="README.md, Ledger of readings: 5.3 (2)",
        summary="a Move order steps only closer to the Target (false), or may also step "
        "sideways when it cannot come closer (true)",
    ),
)
