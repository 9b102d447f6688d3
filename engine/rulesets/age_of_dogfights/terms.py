"""The game's terms, defined once (001_989a2f850da69b66.txt, with base-game terms it uses)."""

from __future__ import annotations

from enum import StrEnum


class Skill(StrEnum):
    """001_989a2f850da69b66.txt Game Setup: pilot skill level."""

    ROOKIE = "rookie"
    AVERAGE = "average"
    ACE = "ace"


class ApproachAltitudeReading(StrEnum):
    """Approach Maneuver: Altitude: a bot starting above the destination point aims one
    level above it and holds its nose down (`one_above`, the default: the more specific
    sentence), or tilts towards the destination's level like any other bot (`towards`).
    The setup switch `approach_altitude_reading` (README ledger)."""

    ONE_ABOVE = "one_above"
    TOWARDS = "towards"


class Aggressiveness(StrEnum):
    """001_989a2f850da69b66.txt Game Setup: bot fighter aggressiveness."""

    CAUTIOUS = "cautious"
    AVERAGE = "average"
    AGGRESSIVE = "aggressive"


class Kind(StrEnum):
    """What an aircraft type is: fighters fight; bombers and scouts fly missions."""

    FIGHTER = "fighter"
    BOMBER = "bomber"
    SCOUT = "scout"


class Attitude(StrEnum):
    """Nose position on the altitude stand (base game)."""

    NOSE_DOWN = "nose-down"
    LEVEL = "level"
    NOSE_UP = "nose-up"


class Steer(StrEnum):
    """What one movement step does before moving forward (base game, placeholder model)."""

    STRAIGHT = "straight"
    LEFT = "left"
    RIGHT = "right"


class Gun(StrEnum):
    """Machine guns: nose (pilot) and dorsal (gunner)."""

    NOSE = "nose"
    DORSAL = "dorsal"


class Column(StrEnum):
    """Firing Outcome Chart columns (Step II priority 1: A before B)."""

    A = "A"
    B = "B"


class DieColour(StrEnum):
    """001_989a2f850da69b66.txt Combat: blue die, or green die (full throttle)."""

    BLUE = "blue"
    GREEN = "green"


class Edge(StrEnum):
    """Board edges (Game Setup: player and bots start on opposite edges)."""

    NORTH = "north"
    SOUTH = "south"
    WEST = "west"
    EAST = "east"


OPPOSITE_EDGE = {
    Edge.NORTH: Edge.SOUTH,
    Edge.SOUTH: Edge.NORTH,
    Edge.WEST: Edge.EAST,
    Edge.EAST: Edge.WEST,
}


class Manoeuvre(StrEnum):
    """What a bot flew this round."""

    ATTACK = "attack"
    APPROACH = "approach"
    RANDOM = "random"
    UNJAM = "unjam"
    MISSION = "mission"
    RETREAT = "retreat"


class Task(StrEnum):
    """001_989a2f850da69b66.txt 'Mission' Aircraft: bombing and photography tasks."""

    BOMBING = "bombing"
    RECON = "recon"


class Rotary(StrEnum):
    """Rotary engine and the turn direction its gyroscopic effect favours (or none)."""

    NONE = "none"
    LEFT = "left"
    RIGHT = "right"


class Damage(StrEnum):
    """Damage the player reports on a bot (base-game results the solo rules react to)."""

    WINGS = "wings"
    TAIL = "tail"
    ENGINE = "engine"
    GUNS = "guns"
    JAMMED = "jammed"
    DESTROYED = "destroyed"
    OTHER = "other"
