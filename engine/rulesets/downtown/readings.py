"""The documented readings a setup switches (engine/kit/reading.py; README "Ledger of
readings") that a dispute may claim.

Where the driven games do not reach a decision a reading changes, the reading declares a
probe (set-up fields and commands played first, engine/kit/reading.py) that does; the
cross-ruleset check (testing/contract/test_readings.py) plays it.
"""

from __future__ import annotations

import json
from typing import Any

from umpire.engine.kit.reading import Reading
from umpire.engine.rulesets.downtown.terms import (
    AcqPhaseReading,
    DistanceTiersReading,
    DoublesReading,
    TwoSamsReading,
    cite,
)

LEDGER = "README.md, Ledger of readings: "


def _move(hex_: str) -> dict[str, Any]:
    return {"type": "MoveUsFlight", "flight_id": "S1", "hex": hex_, "altitude": "medium",
            "facing": 2}  # fmt: skip


def _opening(strike_hex: str) -> list[dict[str, Any]]:
    """The raid's opening up to its first Movement Phase, with one bomber flight (the raid
    target is the synthetic map's bridge, 2021, in downtown Hanoi) reported at `strike_hex`;
    no acquisition is reported, so no SAM has acquired it."""
    strike = {"id": "S1", "mission": "strike", "task": "bombing", "hex": strike_hex,
              "bomber": True, "altitude": "medium", "facing": 2}  # fmt: skip
    return [
        {"type": "DeployGroundUnits"},
        {"type": "CheckDrvRadar"},
        {"type": "DeployDrvAir", "early_warning": "good", "placement": "in_the_air"},
        {"type": "ReportUsFlights", "flights": [strike]},
        {"type": "RunDetectionPhase", "detected": []},
        {"type": "RunSamAcquisitionPhase"},
    ]


# 3.2.1: a bomber 19 hexes from the raid target and from downtown at the Acq phase's SAM
# Activation Check: -4 (exclusive tiers) or -6 (cumulative). The check's event holds the
# BSAN, so a finding on it waits for the reveal.
_DISTANCE_PROBE = {"commands": _opening("0120")}

# 4 (last paragraph): the printed AAA concentration of downtown Hanoi (AAA1, 2022) fires at
# a bomber 3 hexes from the target and 3 from downtown, so 4.1.2 (b) applies and (a) does
# not; a double calls a random event under "(a) or (b)" and not under "(a) and (b)". Each
# attack roll is a double one time in ten: 24 show one in 92 games of 100 whatever the dice
# (the readings check's own dice show one at the sixth). Every value it rests on is public.
DOUBLES_ATTACKS = 24
_ATTACK = {"type": "RollDrvAttack", "unit_id": "AAA1", "flight_id": "S1", "kind": "aaa_attack"}
_DOUBLES_PROBE = {
    # Unbounded AAA fire (`aaa_attacks_per_mp` 0, README ledger 2.1.7), so the attacks
    # follow one another without a Movement Point between them.
    "setup": {"aaa_range": 2, "aaa_attacks_per_mp": 0},
    "commands": [*_opening("2024"), *[_ATTACK] * DOUBLES_ATTACKS],
}

# 3.3.2 row 9: a second turn's checks find a dummy and make SAM6 (2314) a possible dummy
# radar; reported acquiring the bomber, it reacts when the bomber comes within 8 hexes
# (2021), and its first-fire check adds the dummy found (11) or not (10). On the way, FC17
# fires at the bomber's first move (2.3.1), and that attack is rolled before it moves on
# (README ledger, 3.4.4). This one rests on the check's own dice
# (testing/support/readings.py SEED): other dice leave SAM6 located or make another SAM
# the dummy radar, and the script's ReportAcquisition is refused.
_TURN = [
    {"type": "RunAdminPhase"},
    {"type": "RunDetectionPhase", "detected": []},
    {"type": "RunSamAcquisitionPhase"},
]
_FIRST_FIRE_PROBE = {
    "setup": {"dummy_sams": 2, "dummy_radars": 2},
    "commands": [
        *_opening("2024"),
        *_TURN,
        {"type": "ReportAcquisition", "sam_id": "SAM6", "flight_id": "S1", "level": "full"},
        _move("2023"),
        {"type": "RollDrvAttack", "unit_id": "FC17", "flight_id": "S1", "kind": "fire_can_attack"},
        *[_move(h) for h in ("2022", "2021")],
    ],
}

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
    Reading(
        name="distance_tiers_reading",
        rule=cite("3.2.1"),
        default=DistanceTiersReading.EXCLUSIVE.value,
        alternatives=(DistanceTiersReading.CUMULATIVE.value,),
        readme=LEDGER + "3.2.1 distance rows",
        summary="bombers more than 18 hexes away: -4 alone (exclusive) or -2 and -4 (cumulative)",
        probe=json.dumps(_DISTANCE_PROBE, sort_keys=True),
    ),
    Reading(
        name="doubles_reading",
        rule=cite("4"),
        default=DoublesReading.A_OR_B.value,
        alternatives=(DoublesReading.A_AND_B.value,),
        readme=LEDGER + "4 (last paragraph)",
        summary="a double on a DRV roll calls a random event when (a) or (b) of 4.1.2 "
        "applies (a_or_b) or (a) and (b) (a_and_b), or the flight is acquired",
        probe=json.dumps(_DOUBLES_PROBE, sort_keys=True),
    ),
    Reading(
        name="first_fire_counts_dummies",
        rule=cite("3.3.2"),
        default=True,
        alternatives=(False,),
        readme=LEDGER + "3.3.2 row 9",
        summary="a possible dummy radar's first-fire check adds one per dummy found (true) "
        "or is the bare roll (false)",
        probe=json.dumps(_FIRST_FIRE_PROBE, sort_keys=True),
    ),
)
