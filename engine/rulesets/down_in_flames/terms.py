"""Game terms of the Down in Flames supplemental rules, defined once (002_c21c1b1d0b6ff92b.txt).

Every citation in this package is built with `cite`, so the seed file name is written once.
"""

from __future__ import annotations

from enum import StrEnum

from umpire.engine.kit.citation import citations, rule_number

SEED = "002_c21c1b1d0b6ff92b.txt"

cite = citations(SEED)


def cite_all(*cited: str) -> str:
    """One citation of several rules: "<seed> 3.2, 3.2.5", the seed file once and each rule
    number once, in order, from citations (which may already cite several) or numbers.
    "<seed> 3.2; <seed> 3.2.5" read as the seed's title and heading twice over (v9)."""
    numbers: list[str] = []
    for citation in cited:
        for part in citation.split(", "):
            number = rule_number(part) if part.startswith(SEED) else part
            if number not in numbers:
                numbers.append(number)
    return cite(", ".join(numbers))


RULE_TURN = cite("1")
"""The base game's turn sequence, which the seed keeps (1): a side moves, its aircraft
play their action and attack cards, and the other side answers with response cards."""


class Side(StrEnum):
    """The two sides of a dogfight; the game's setup says which sides the player runs."""

    A = "A"
    B = "B"


class AircraftClass(StrEnum):
    """3 and 4: fighters and light bombers use the odds system; medium and heavy bombers
    use the damage-point system."""

    FIGHTER = "fighter"
    LIGHT_BOMBER = "light_bomber"
    MEDIUM_BOMBER = "medium_bomber"
    HEAVY_BOMBER = "heavy_bomber"

    @property
    def is_formation_bomber(self) -> bool:
        """4: medium and heavy bombers."""
        return self in (AircraftClass.MEDIUM_BOMBER, AircraftClass.HEAVY_BOMBER)


class Station(StrEnum):
    """Where an aircraft flies in its Element (base game): Leader, Wingman or Formation."""

    LEADER = "leader"
    WINGMAN = "wingman"
    FORMATION = "formation"


class PilotQuality(StrEnum):
    """9.1: recruit (the worst) to ace (the best)."""

    RECRUIT = "recruit"
    GREEN = "green"
    REGULAR = "regular"
    VETERAN = "veteran"
    ACE = "ace"


class Sight(StrEnum):
    """3.1, 3.1.1, 3.1.2, 10.8, 10.9: the gunsight fitted."""

    REFLECTOR = "reflector"
    SIMPLE = "simple"
    GYRO = "gyro"


class Characteristic(StrEnum):
    """10: special aircraft characteristics noted on data cards. 8.6 and 10.14: the "Agile"
    characteristic of "Zero!" is not used, so it has no member here (a card naming it fails
    validation)."""

    QUICK_CLIMB = "quick_climb"  # 10.1
    QUICK_DIVE = "quick_dive"  # 10.2
    SLOW_DIVE = "slow_dive"  # 10.3
    DIVE_LIMIT = "dive_limit"  # 10.4
    SLOW_CLIMB = "slow_climb"  # 10.5
    QUICK_BANK = "quick_bank"  # 10.6
    SLOW_BANK = "slow_bank"  # 10.7
    BEAM_ATTACKS = "beam_attacks"  # 10.10 (and 3.1.2 deflection training)
    THACH_WEAVE = "thach_weave"  # 10.11
    HURRICANE_IIC_FIRING = "hurricane_iic_firing"  # 10.12
    BEAUFIGHTER_IF_FIRING = "beaufighter_if_firing"  # 10.13
    GUNNER = "gunner"  # 3.3


class Position(StrEnum):
    """Base-game position of an attacker relative to its target (3.1)."""

    NEUTRAL = "neutral"
    ADVANTAGED = "advantaged"
    TAILING = "tailing"


class Card(StrEnum):
    """Base-game cards the supplemental rules name."""

    IN_MY_SIGHTS = "in_my_sights"
    OUT_OF_THE_SUN = "out_of_the_sun"
    FUEL_TANK = "fuel_tank"
    MANEUVERING = "maneuvering"
    TIGHT_TURN = "tight_turn"
    BARREL_ROLL = "barrel_roll"
    HALF_LOOP = "half_loop"
    SCISSORS = "scissors"
    ACE_PILOT = "ace_pilot"
    VERTICAL_ROLL = "vertical_roll"
    OTHER = "other"

    @property
    def is_attack(self) -> bool:
        """3.2, 5.5: cards resolved by the combat system."""
        return self in (Card.IN_MY_SIGHTS, Card.OUT_OF_THE_SUN, Card.FUEL_TANK)


class Direction(StrEnum):
    """2.6.2: a VERTICAL ROLL response climbs or dives."""

    CLIMB = "climb"
    DIVE = "dive"


class CombatDie(StrEnum):
    """3.2.5 (D6) or the optional D12 system of 6."""

    D6 = "d6"
    D12 = "d12"


class Outcome(StrEnum):
    """3.2.5: the two results of the odds system, plus no effect."""

    NO_EFFECT = "no_effect"
    DAMAGED = "damaged"
    SHOT_DOWN = "shot_down"


class GyroReading(StrEnum):
    """3.1.2 and 10.9 disagree on a gyro sight's Advantaged bursts (3 versus 2)."""

    RULE_3_1_2 = "3.1.2"
    RULE_10_9 = "10.9"


class DefensiveFireKind(StrEnum):
    """3.3 gunner fire and 4.1.9 turret defense fire."""

    GUNNER = "gunner"
    TURRET = "turret"
