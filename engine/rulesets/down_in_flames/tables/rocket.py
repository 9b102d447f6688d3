"""7.1.1 and 7.1.3: which aircraft may carry air-to-air rockets and what a rocket hits on."""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.rulesets.down_in_flames.terms import cite


class RocketRow(Struct, frozen=True, kw_only=True):
    """A rocket-carrying type: a rocket attack destroys its bomber on a D6 of at most
    `hits_on`."""

    aircraft: str
    hits_on: int
    rule: str


ROCKET_CARRIERS: tuple[RocketRow, ...] = (
    RocketRow(aircraft="Bf 109G-6", hits_on=1, rule=cite("7.1.3")),
    RocketRow(aircraft="Fw 190A-6", hits_on=1, rule=cite("7.1.3")),
    RocketRow(aircraft="Bf 110G-2", hits_on=2, rule=cite("7.1.3")),
)
RULE_CARRIERS = cite("7.1.1")


def rocket_row(aircraft: str) -> RocketRow | None:
    """The rocket row of an aircraft type, or None if it may not carry rockets (7.1.1)."""
    for row in ROCKET_CARRIERS:
        if row.aircraft == aircraft:
            return row
    return None
