"""Version 1 of five Down in Flames decision events, as logs before version 2 hold them.

Version 1 declared the decision fields (`rule`, `dice`, `candidates`, `explanation`) after
the event's own, so its canonical bytes list them last. Version 2 derives from
engine.decision.Decision, which puts them first. A stored payload is never rewritten: the
registry decodes a version 1 payload as the struct here and reads it as version 2 field by
field (events/codec.py `old_versions`), and an export of it re-encodes to its own bytes.
Do not edit these: they are the stored format.
"""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.decision import Candidate
from umpire.engine.rulesets.down_in_flames.terms import Outcome

P = "down_in_flames."


class StartingAltitudeSetV1(Struct, frozen=True, kw_only=True, tag=P + "StartingAltitudeSet"):
    """2.5: the starting altitude of all aircraft."""

    altitude: int
    method: str
    winning_side: str = ""
    victory_points: int = 0
    rule: str
    dice: tuple[int, ...] = ()
    candidates: tuple[Candidate, ...] = ()
    explanation: str


class AttackResolvedV1(Struct, frozen=True, kw_only=True, tag=P + "AttackResolved"):
    """3.2, 4.1, 6.1, 7.1: the result of one attack."""

    attacker: str
    target: str
    system: str
    hits: int
    hit_value: int
    total_hv: int
    defense: int
    column: str
    result: Outcome
    damage_points: int = 0
    rockets: bool = False
    rule: str
    dice: tuple[int, ...]
    candidates: tuple[Candidate, ...]
    explanation: str


class AircraftDamagedV1(Struct, frozen=True, kw_only=True, tag=P + "AircraftDamaged"):
    """4.1.4, 4.1.5, 5.1-5.3, 9.2.4."""

    aircraft: str
    dropped_out: bool
    jettisoned: bool
    rule: str
    dice: tuple[int, ...] = ()
    candidates: tuple[Candidate, ...] = ()
    explanation: str


class AircraftShotDownV1(Struct, frozen=True, kw_only=True, tag=P + "AircraftShotDown"):
    """3.2.5, 4.1.6, 5.4, 7.1.3."""

    aircraft: str
    rule: str
    dice: tuple[int, ...] = ()
    candidates: tuple[Candidate, ...] = ()
    explanation: str


class AmmunitionCheckedV1(Struct, frozen=True, kw_only=True, tag=P + "AmmunitionChecked"):
    """10.15: after an attack die showed 1 (D12: 1 or 2), a D6 at most the bursts used
    depletes: the aircraft uses its right-hand Hit Value from now on."""

    aircraft: str
    depleted: bool
    rule: str
    dice: tuple[int, ...]
    candidates: tuple[Candidate, ...] = ()
    explanation: str
