"""3.2.1 SAM activation modifiers (Acq and Admin columns) and 3.3.1 SAM Activation Table."""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.kit.seed_table import Band, SeedTable
from umpire.engine.rulesets.downtown.terms import AcqPhaseReading, cite

CHECK_CITATION = cite("3.2.1 SAM Activation Check")
TABLE_CITATION = cite("3.3.1 SAM Activation Table")


class Modifier(Struct, frozen=True, kw_only=True):
    """One modifier row; None in a column means 'NA' (not applied in that phase)."""

    key: str
    acq: int | None
    admin: int | None
    text: str
    per_item: bool = False


MODIFIERS: tuple[Modifier, ...] = (
    Modifier(key="early_date", acq=-1, admin=-1, text="Date is Jan 1965-Dec 1966"),
    Modifier(
        key="preemptive_arm",
        acq=-1,
        admin=-1,
        per_item=True,
        text="For each pre-emptive ARM fired in the Movement Phase",
    ),
    Modifier(key="no_bombers", acq=None, admin=-5, text="US raid bombers are not on the map"),
    Modifier(
        key="bombers_over_12",
        acq=-2,
        admin=-2,
        text=(
            "Nearest US raid bomber flight is more than 12 hexes from the target or downtown "
            "Hanoi/Haiphong"
        ),
    ),
    Modifier(
        key="bombers_over_18",
        acq=-4,
        admin=-4,
        text=(
            "Nearest US raid bomber flight is more than 18 hexes from the target or downtown "
            "Hanoi/Haiphong"
        ),
    ),
    Modifier(
        key="none_within_10",
        acq=-2,
        admin=-2,
        text=(
            "No US flights (of any type) are within 10 hexes of the target or downtown "
            "Hanoi/Haiphong"
        ),
    ),
)

BY_KEY: dict[str, Modifier] = {m.key: m for m in MODIFIERS}


class SetUpModifier(Struct, frozen=True, kw_only=True):
    """3.3.1 cumulative modifier: value and the condition in the seed's words."""

    key: str
    value: int
    text: str


SET_UP_TABLE: SeedTable[str] = SeedTable(
    citation=TABLE_CITATION,
    bands=(
        Band(1, 9, "No Activation"),
        Band(10, 99, "Possible Activation", label="10 or more"),
    ),
    name="SAM Activation Table",
)
SET_UP_MODIFIERS: tuple[SetUpModifier, ...] = (
    SetUpModifier(
        key="within_8",
        value=2,
        text="US Flight within 8 hexes (entry point within 8 hexes in DRV Radar Phase)",
    ),
    SetUpModifier(
        key="within_5",
        value=2,
        text="US Flight within 5 hexes (entry point within 5 hexes in DRV Radar Phase)",
    ),
    SetUpModifier(
        key="bombing_within_12",
        value=2,
        text=(
            "US Bombing or Recon-tasked flight within 12 hexes (not applicable in DRV Radar Phase)"
        ),
    ),
    SetUpModifier(key="acq_phase", value=-1, text="In SAM Acquisition Phase"),
)
"""The printed line is "- 1 In SAM Acquisition Phase" with its sign eaten by the list bullet
(the others print "- +2 ..."): read as -1, a penalty like the 3.2.1 Acq column's; the +1
reading is `Setup.acq_phase_reading` (README ledger, 3.3.1)."""
SET_UP_BY_KEY: dict[str, SetUpModifier] = {m.key: m for m in SET_UP_MODIFIERS}

ACQ_PHASE_VALUE: dict[AcqPhaseReading, int] = {
    AcqPhaseReading.MINUS_ONE: -1,
    AcqPhaseReading.PLUS_ONE: 1,
}


def set_up_value(key: str, reading: AcqPhaseReading) -> int:
    """The value of one 3.3.1 modifier; "acq_phase" follows the setup's reading of its sign."""
    if key == "acq_phase":
        return ACQ_PHASE_VALUE[reading]
    return SET_UP_BY_KEY[key].value


CHECK_RADIUS = {"acq": 12, "admin": 15, "radar": 15}
"""3.3: roll for a located SAM if a US flight is within 12 hexes (15 in Admin; 15 of the
entry point in the DRV Radar Phase)."""


def set_up_result(total: int) -> str:
    """3.3.1: 'No Activation' (1-9) or 'Possible Activation' (10 or more); a modified total
    below 1 reads the first row."""
    return SET_UP_TABLE.row_for(total).value
