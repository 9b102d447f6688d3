"""Downtown solo terms: the seed citation and every game term as an enum, defined once.

Source: 000_842c81c5c58bc2f6.txt (Downtown Solo Rules v1.2 playtest, 6 June 2004).
"""

from __future__ import annotations

from enum import StrEnum

from umpire.engine.kit.citation import citations

SEED = "000_842c81c5c58bc2f6.txt"

cite = citations(SEED)


class AcqPhaseReading(StrEnum):
    """3.3.1 prints "1 In SAM Acquisition Phase" where the other modifiers print "- +2 ...":
    the list bullet ate the sign. The setup switch `acq_phase_reading` (README ledger)."""

    MINUS_ONE = "minus_1"
    PLUS_ONE = "plus_1"


class DistanceTiersReading(StrEnum):
    """3.2.1 "more than 12 hexes" (-2) and "more than 18 hexes" (-4): one tier applies (the
    larger; default) or both add up (-6 beyond 18). The setup switch
    `distance_tiers_reading` (README ledger)."""

    EXCLUSIVE = "exclusive"
    CUMULATIVE = "cumulative"


class DoublesReading(StrEnum):
    """4: "do not bother to respond to 'double' rolls unless (a) and (b) apply OR the flight
    is currently acquired": (a) or (b) (default, as the sentence before it says "one of the
    following") or, literally, (a) and (b). The setup switch `doubles_reading`."""

    A_OR_B = "a_or_b"
    A_AND_B = "a_and_b"


class TwoSamsReading(StrEnum):
    """3.2.1: two SAMs when "the unmodified die roll was lower than the BSAN" (the rule) or
    "between 1 and 4" for a BSAN of 4 (its example, the default). `two_sams_reading`."""

    EXAMPLE = "example"
    RULE = "rule"


class Phase(StrEnum):
    """The phase the game is in (the next command must belong to it).

    Pre-raid: DRV Ground Unit Deployment (2.1.4, 3.1.2), DRV Radar (3.3), DRV Air Deployment
    (5.4.2). Each game turn: Detection (5.2), SAM Acquisition (3.2.1, 3.3, 3.4.2), Movement
    (5.1, 3.4.4, 4, 5.4.4, 5.7), Admin (2.1.5, 2.1.7, 2.2.1, 3.2.1, 3.3, 5.4.5).
    """

    GROUND_DEPLOYMENT = "ground_deployment"
    DRV_RADAR = "drv_radar"
    AIR_DEPLOYMENT = "air_deployment"
    DETECTION = "detection"
    SAM_ACQUISITION = "sam_acquisition"
    MOVEMENT = "movement"
    ADMIN = "admin"


REPORT_PHASES = (Phase.DETECTION, Phase.SAM_ACQUISITION, Phase.MOVEMENT)
"""The phases of a game turn in which base-game results on DRV flights come in."""


class Density(StrEnum):
    """AAA concentration density (2.1.1: Light, Medium, Heavy)."""

    LIGHT = "L"
    MEDIUM = "M"
    HEAVY = "H"


DENSITY_ORDER: dict[str, int] = {"none": 0, "L": 1, "M": 2, "H": 3}
"""Barrage density order for 2.1.4 ('lowest-density AAA barrage zone'); no zone is lowest."""


class Mission(StrEnum):
    """US mission of a flight (2.1.5, 2.1.6, 2.3 name Strike, Recon and Iron Hand)."""

    STRIKE = "strike"
    RECON = "recon"
    IRON_HAND = "iron_hand"
    CAP = "cap"
    ESCORT = "escort"
    OTHER = "other"


class Task(StrEnum):
    """US flight task (3.3.1, 3.4.3, 3.4.5, 5.8.2 name Bombing, Recon, SEAD, Armed Escort)."""

    BOMBING = "bombing"
    RECON = "recon"
    SEAD = "sead"
    ARMED_ESCORT = "armed_escort"
    CAP = "cap"
    OTHER = "other"


class Altitude(StrEnum):
    """Altitude bands, lowest first (Deck, Low, Medium, High, Very High)."""

    DECK = "deck"
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    VERY_HIGH = "very_high"


ALTITUDE_INDEX: dict[str, int] = {a.value: i for i, a in enumerate(Altitude)}


class SamStatus(StrEnum):
    """A SAM counter on the map: located (set up, radar off), possible dummy, active."""

    LOCATED = "located"
    ACTIVE = "active"
    REMOVED = "removed"


class AcqLevel(StrEnum):
    """SAM acquisition of a flight (3.4.3, 3.4.5: partial or full)."""

    NONE = "none"
    PARTIAL = "partial"
    FULL = "full"


class FireMode(StrEnum):
    """What a SAM Reaction Table option orders (3.4.5)."""

    SALVO = "salvo"
    ONE = "one"
    NOTHING = "nothing"


class EarlyWarning(StrEnum):
    """Early Warning Level achieved (5.4.2); its placement effect is a base-game rule."""

    POOR = "poor"
    AVERAGE = "average"
    GOOD = "good"


class AirPlacement(StrEnum):
    """What the Early Warning Level allows for placement (5.4.3), reported by the player."""

    ORBIT_OR_AIRFIELD = "orbit_or_airfield"
    IN_THE_AIR = "in_the_air"


class FlightStatus(StrEnum):
    """A DRV flight's state for movement (5.7.2, 5.9.1)."""

    NORMAL = "normal"
    ABORTING = "aborting"
    DISORDERED = "disordered"


class Zone(StrEnum):
    """Maneuver zones (5.8)."""

    TRANSIT = "transit"
    APPROACH = "approach"
    ENGAGE = "engage"


class ActivationReason(StrEnum):
    """When an activation check is made (5.6.1)."""

    PROXIMITY = "proximity"
    TARGETED = "targeted"
    DETECTION = "detection"


class AttackRoll(StrEnum):
    """The DRV rolls whose doubles call a solitaire random event (4)."""

    AAA_ATTACK = "aaa_attack"
    FIRE_CAN_ATTACK = "fire_can_attack"
    FLAK_DAMAGE = "flak_damage"
    SAM_ATTACK = "sam_attack"
    SAM_DAMAGE = "sam_damage"
