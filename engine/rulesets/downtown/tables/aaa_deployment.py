"""2.1.6 AAA Deployment Table A-D and 2.3 Fire Can Deployment Table A-D, as data."""

from __future__ import annotations

from msgspec import Struct

from engine.rulesets.downtown.terms import Mission, cite

AAA_CITATION = cite("2.1.6 AAA Deployment Table")
FIRE_CAN_CITATION = cite("2.3 Fire Can Deployment Table")


class AaaRow(Struct, frozen=True, kw_only=True):
    """One row: which missions, within how many hexes of the raid target; None = do not place."""

    letter: str
    missions: tuple[Mission, ...]
    within_target: int | None


AAA_ROWS: tuple[AaaRow, ...] = (
    AaaRow(letter="A", missions=(Mission.STRIKE, Mission.RECON), within_target=5),
    AaaRow(letter="B", missions=(Mission.IRON_HAND,), within_target=5),
    AaaRow(letter="C", missions=(Mission.STRIKE, Mission.RECON), within_target=10),
    AaaRow(letter="D", missions=(), within_target=None),
)


class FireCanRow(Struct, frozen=True, kw_only=True):
    """One row: missions, range to the raid target (None: any), range to a AAA hex (None:
    the Fire Can goes in the target hex), or do not place (place=False)."""

    letter: str
    missions: tuple[Mission, ...]
    within_target: int | None
    within_aaa: int | None
    place: bool = True


FIRE_CAN_ROWS: tuple[FireCanRow, ...] = (
    FireCanRow(
        letter="A", missions=(Mission.STRIKE, Mission.RECON), within_target=5, within_aaa=None
    ),
    FireCanRow(
        letter="B",
        missions=(Mission.STRIKE, Mission.RECON, Mission.IRON_HAND),
        within_target=10,
        within_aaa=2,
    ),
    FireCanRow(
        letter="C",
        missions=(Mission.STRIKE, Mission.RECON, Mission.IRON_HAND),
        within_target=None,
        within_aaa=2,
    ),
    FireCanRow(letter="D", missions=(), within_target=None, within_aaa=None, place=False),
)
