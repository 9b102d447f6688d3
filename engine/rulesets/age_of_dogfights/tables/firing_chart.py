"""Firing positions and the Firing Outcome Chart's columns A and B (PLACEHOLDER data).

Base game: the seed relies on the chart ("'A' firing positions (Column A in the Firing
Outcome Chart) is priority over Column B", 001_989a2f850da69b66.txt Step II) but does not
print it. A row says: with this gun, a target in the gun's arc (`arc` degrees centred ahead
for nose guns, astern for dorsal guns) at a range of at most `max_range`, and (if
`attacker_behind_target`) with the attacker inside the target's 120-degree rear arc, fires
in `column`; `long_burst` says whether the position permits a long burst. Rows are read in
order; the first that matches wins. Firing needs the same altitude level.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from umpire.engine.rulesets.age_of_dogfights.citations import BASE_GAME
from umpire.engine.rulesets.age_of_dogfights.terms import Column, Gun

RULE = f"{BASE_GAME}: Firing Outcome Chart columns"


class FiringRow(Struct, frozen=True, kw_only=True):
    """One firing position of the chart (see module doc)."""

    gun: Gun
    arc: Annotated[int, Meta(ge=60, le=120, multiple_of=60)]
    max_range: Annotated[int, Meta(ge=1, le=10)]
    attacker_behind_target: bool
    column: Column
    long_burst: bool


DEFAULT_FIRING_CHART: tuple[FiringRow, ...] = (
    FiringRow(
        gun=Gun.NOSE,
        arc=60,
        max_range=2,
        attacker_behind_target=True,
        column=Column.A,
        long_burst=True,
    ),
    FiringRow(
        gun=Gun.NOSE,
        arc=60,
        max_range=3,
        attacker_behind_target=False,
        column=Column.B,
        long_burst=False,
    ),
    FiringRow(
        gun=Gun.DORSAL,
        arc=120,
        max_range=2,
        attacker_behind_target=False,
        column=Column.B,
        long_burst=False,
    ),
)
