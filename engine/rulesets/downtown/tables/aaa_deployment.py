"""2.1.6 AAA Deployment Table A-D and 2.3 Fire Can Deployment Table A-D, as data: rows
chosen by conditions, tried in order, each cited "<table> row <letter>"."""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.kit.seed_table import SeedTable, lettered
from umpire.engine.rulesets.downtown.terms import Mission, cite

AAA_CITATION = cite("2.1.6 AAA Deployment Table")
FIRE_CAN_CITATION = cite("2.3 Fire Can Deployment Table")


class AaaRow(Struct, frozen=True, kw_only=True):
    """One row: which missions, within how many hexes of the raid target; None = do not place."""

    missions: tuple[Mission, ...]
    within_target: int | None


AAA_TABLE: SeedTable[AaaRow] = SeedTable(
    citation=AAA_CITATION,
    bands=lettered(
        ("A", AaaRow(missions=(Mission.STRIKE, Mission.RECON), within_target=5)),
        ("B", AaaRow(missions=(Mission.IRON_HAND,), within_target=5)),
        ("C", AaaRow(missions=(Mission.STRIKE, Mission.RECON), within_target=10)),
        ("D", AaaRow(missions=(), within_target=None)),
    ),
    name="AAA Deployment Table",
    row_cite=" row {span}",
)


class FireCanRow(Struct, frozen=True, kw_only=True):
    """One row: missions, range to the raid target (None: any), range to a AAA hex (None:
    the Fire Can goes in the target hex), or do not place (place=False)."""

    missions: tuple[Mission, ...]
    within_target: int | None
    within_aaa: int | None
    place: bool = True


FIRE_CAN_TABLE: SeedTable[FireCanRow] = SeedTable(
    citation=FIRE_CAN_CITATION,
    bands=lettered(
        (
            "A",
            FireCanRow(missions=(Mission.STRIKE, Mission.RECON), within_target=5, within_aaa=None),
        ),
        (
            "B",
            FireCanRow(
                missions=(Mission.STRIKE, Mission.RECON, Mission.IRON_HAND),
                within_target=10,
                within_aaa=2,
            ),
        ),
        (
            "C",
            FireCanRow(
                missions=(Mission.STRIKE, Mission.RECON, Mission.IRON_HAND),
                within_target=None,
                within_aaa=2,
            ),
        ),
        ("D", FireCanRow(missions=(), within_target=None, within_aaa=None, place=False)),
    ),
    name="Fire Can Deployment Table",
    row_cite=" row {span}",
)
