"""Events of the down_in_flames ruleset (frozen, tagged, past tense).

Decision events derive from engine.decision.Decision: `rule` (seed citation), `dice` (roll
numbers used), `candidates` (options considered) and `explanation`. Five of them held
those fields last until version 2 (events_v1.py keeps the old shape, read field by field).
"""

from __future__ import annotations

from typing import ClassVar

from msgspec import Struct

from umpire.engine.decision import Decision
from umpire.engine.rulesets.down_in_flames.events_v1 import (
    AircraftDamagedV1,
    AircraftShotDownV1,
    AmmunitionCheckedV1,
    AttackResolvedV1,
    StartingAltitudeSetV1,
)
from umpire.engine.rulesets.down_in_flames.terms import Card, Outcome, Position, Side

P = "down_in_flames."


class StartingAltitudeSet(Decision, frozen=True, kw_only=True, tag=P + "StartingAltitudeSet"):
    """2.5: the starting altitude of all aircraft."""

    version: ClassVar[int] = 2  # v1 (StartingAltitudeSetV1) held the Decision fields last
    old_versions: ClassVar[tuple[type[Struct], ...]] = (StartingAltitudeSetV1,)

    altitude: int
    method: str
    winning_side: str = ""
    victory_points: int = 0


class TurnBegan(Struct, frozen=True, kw_only=True, tag=P + "TurnBegan"):
    side: Side
    move: int
    rule: str


class TurnEnded(Struct, frozen=True, kw_only=True, tag=P + "TurnEnded"):
    side: Side
    move: int
    rule: str


class HandReported(Struct, frozen=True, kw_only=True, tag=P + "HandReported"):
    aircraft: str
    cards: int


class CardsDiscarded(Struct, frozen=True, kw_only=True, tag=P + "CardsDiscarded"):
    aircraft: str
    count: int
    reason: str
    rule: str


class PositionSet(Struct, frozen=True, kw_only=True, tag=P + "PositionSet"):
    attacker: str
    target: str
    position: Position | None
    rule: str


class CardPlayed(Struct, frozen=True, kw_only=True, tag=P + "CardPlayed"):
    """8.4.1: a card played; `agility_card` says whether it counts against 8.4."""

    aircraft: str
    card: Card
    agility_card: bool
    rule: str
    explanation: str


class AltitudeChanged(Struct, frozen=True, kw_only=True, tag=P + "AltitudeChanged"):
    """2.1, 2.2, 2.6: an Element's new altitude and its Leader's card gain or discard."""

    element: str
    from_level: int
    to_level: int
    leader: str
    hand_change: int
    rule: str
    explanation: str


class AttackCardPlayed(Struct, frozen=True, kw_only=True, tag=P + "AttackCardPlayed"):
    """3.2, 3.2.10: a successful attack card, its hits counted (and perhaps held for
    aggregation)."""

    attacker: str
    target: str
    card: Card
    hits: int
    bursts: int
    aggregate: bool
    reduced_hv: bool = False
    heavy_fire: bool = False
    rule: str


class AttackNegated(Struct, frozen=True, kw_only=True, tag=P + "AttackNegated"):
    attacker: str
    target: str
    cards: int
    rule: str


class AttackResolved(Decision, frozen=True, kw_only=True, tag=P + "AttackResolved"):
    """3.2, 4.1, 6.1, 7.1: the result of one attack."""

    version: ClassVar[int] = 2  # v1 (AttackResolvedV1) held the Decision fields last
    old_versions: ClassVar[tuple[type[Struct], ...]] = (AttackResolvedV1,)

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


class AircraftDamaged(Decision, frozen=True, kw_only=True, tag=P + "AircraftDamaged"):
    """4.1.4, 4.1.5, 5.1-5.3, 9.2.4."""

    version: ClassVar[int] = 2  # v1 (AircraftDamagedV1) held the Decision fields last
    old_versions: ClassVar[tuple[type[Struct], ...]] = (AircraftDamagedV1,)

    aircraft: str
    dropped_out: bool
    jettisoned: bool


class AircraftShotDown(Decision, frozen=True, kw_only=True, tag=P + "AircraftShotDown"):
    """3.2.5, 4.1.6, 5.4, 7.1.3."""

    version: ClassVar[int] = 2  # v1 (AircraftShotDownV1) held the Decision fields last
    old_versions: ClassVar[tuple[type[Struct], ...]] = (AircraftShotDownV1,)

    aircraft: str


class BomberDamagePointsTaken(Struct, frozen=True, kw_only=True, tag=P + "BomberDamagePointsTaken"):
    """4.1.3: damage points added to a Medium or Heavy Bomber."""

    aircraft: str
    points: int
    total: int
    rule: str


class AmmunitionChecked(Decision, frozen=True, kw_only=True, tag=P + "AmmunitionChecked"):
    """10.15: after an attack die showed 1 (D12: 1 or 2), a D6 at most the bursts used
    depletes: the aircraft uses its right-hand Hit Value from now on."""

    version: ClassVar[int] = 2  # v1 (AmmunitionCheckedV1) held the Decision fields last
    old_versions: ClassVar[tuple[type[Struct], ...]] = (AmmunitionCheckedV1,)

    aircraft: str
    depleted: bool


class PilotRevealed(Struct, frozen=True, kw_only=True, tag=P + "PilotRevealed"):
    """9.1.11: one pilot characteristic made known to all."""

    aircraft: str
    characteristic: str
    value: str
    rule: str


class AcePilotDeclared(Struct, frozen=True, kw_only=True, tag=P + "AcePilotDeclared"):
    aircraft: str
    rule: str


class KeenEyesightUsed(Struct, frozen=True, kw_only=True, tag=P + "KeenEyesightUsed"):
    aircraft: str
    target: str
    rule: str


class ClaimVoided(Struct, frozen=True, kw_only=True, tag=P + "ClaimVoided"):
    """9.1.11: a command that a hidden pilot decided, accepted whatever the pilot (the
    refusal would have shown it), whose just-revealed pilot does not allow it: it takes no
    effect. `explanation` says what the pilot allows, as a refusal would have."""

    aircraft: str
    command: str
    rule: str
    explanation: str


class ThachWeaveBid(Struct, frozen=True, kw_only=True, tag=P + "ThachWeaveBid"):
    side: Side
    victory_points: int
    accepted: bool
    rule: str


EVENT_TYPES: tuple[type[Struct], ...] = (
    StartingAltitudeSet, TurnBegan, TurnEnded, HandReported, CardsDiscarded, PositionSet,
    CardPlayed, AltitudeChanged, AttackCardPlayed, AttackNegated, AttackResolved,
    AircraftDamaged, AircraftShotDown, BomberDamagePointsTaken, AmmunitionChecked,
    PilotRevealed, AcePilotDeclared, KeenEyesightUsed, ThachWeaveBid, ClaimVoided,
)  # fmt: skip
