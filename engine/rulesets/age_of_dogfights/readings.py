"""The documented readings a setup switches (engine/kit/reading.py; README "Ledger of
readings")."""

from __future__ import annotations

from umpire.engine.kit.reading import Reading
from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.terms import ApproachAltitudeReading as Altitude

READINGS = (
    Reading(
        name="approach_altitude_reading",
        rule=c.APPROACH_ALTITUDE,
        default=Altitude.ONE_ABOVE.value,
        alternatives=(Altitude.TOWARDS.value,),
        readme="README.md, Ledger of readings: Approach Maneuver: Altitude",
        summary="a bot starting higher aims one level above the destination, nose down "
        "(one_above), or tilts towards the destination's level (towards)",
    ),
)
