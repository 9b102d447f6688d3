"""The documented readings a setup switches (engine/kit/reading.py; README "Ledger of
readings") that a dispute may claim. The ledger's other switches (`distance_tiers_reading`,
`doubles_reading`, `first_fire_counts_dummies`) are left out until each declares a probe
(set-up and commands) that reaches a decision it changes: driven games do not reach one, and
the cross-ruleset check (testing/contract/test_readings.py) requires it."""

from __future__ import annotations

from umpire.engine.kit.reading import Reading
from umpire.engine.rulesets.downtown.terms import (
    AcqPhaseReading,
    TwoSamsReading,
    cite,
)

LEDGER = "README.md, Ledger of readings: "

READINGS = (
    Reading(
        name="acq_phase_reading",
        rule=cite("3.3.1"),
        default=AcqPhaseReading.MINUS_ONE.value,
        alternatives=(AcqPhaseReading.PLUS_ONE.value,),
        readme=LEDGER + "3.3.1",
        summary='"1 In SAM Acquisition Phase" read as -1 (minus_1) or +1 (plus_1)',
    ),
    Reading(
        name="two_sams_reading",
        rule=cite("3.2.1"),
        default=TwoSamsReading.EXAMPLE.value,
        alternatives=(TwoSamsReading.RULE.value,),
        readme=LEDGER + "3.2.1 two SAMs",
        summary="two SAMs when the unmodified roll is at most the BSAN (example) or lower "
        "than it (rule)",
    ),
)
