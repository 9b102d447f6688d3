"""The game setup: board model, aircraft types, task zones and every aircraft's start.

001_989a2f850da69b66.txt Game Setup: "The player aircraft are first placed anywhere along
one edge of the board, on any desired altitude stands. Bot aircraft are then placed on the
opposite edge, using any logical positions" (their altitude is rolled: setup_rolls.py).
Shapes are checked by msgspec; the rules (known type, on the board, on the right edge, not
above the service ceiling) by `validate`, which raises RuleError so nothing is written.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct, field

from umpire.engine.errors import RuleError
from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.aircraft import DEFAULT_TYPES, AircraftType
from umpire.engine.rulesets.age_of_dogfights.geometry import Board, Heading
from umpire.engine.rulesets.age_of_dogfights.model import Model
from umpire.engine.rulesets.age_of_dogfights.terms import (
    OPPOSITE_EDGE,
    Aggressiveness,
    ApproachAltitudeReading,
    Attitude,
    Edge,
    Skill,
)

Ident = Annotated[str, Meta(pattern=r"^[A-Za-z][A-Za-z0-9_-]{0,15}$")]
Designation = Annotated[int, Meta(ge=1, le=99)]
Coord = Annotated[int, Meta(ge=-100, le=100)]
Level = Annotated[int, Meta(ge=1, le=12)]
PointIn = tuple[Coord, Coord]
# Bounds (issue 32): an aircraft type's name is short text; a setup adds at most
# AIRCRAFT_TYPES types (one per aircraft a setup may place: 12 players and 24 bots).
TypeName = Annotated[str, Meta(min_length=1, max_length=40)]
AIRCRAFT_TYPES = 36

# Bots face across the board towards the player's edge (placeholder "logical position").
FACING_ACROSS: dict[Edge, Heading] = {
    Edge.EAST: Heading.W,
    Edge.WEST: Heading.E,
    Edge.NORTH: Heading.SE,
    Edge.SOUTH: Heading.NE,
}


class PlayerAircraftSetup(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A player aircraft as placed (Game Setup). `skill` None = roll it."""

    id: Ident
    number: Designation
    aircraft_type: TypeName
    position: PointIn
    heading: Heading
    level: Level
    attitude: Attitude = Attitude.LEVEL
    skill: Skill | None = None


class BotSetup(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A bot as placed; its altitude is rolled. `skill`/`aggressiveness` None = roll it."""

    id: Ident
    number: Designation
    aircraft_type: TypeName
    position: PointIn
    heading: Heading | None = None
    skill: Skill | None = None
    aggressiveness: Aggressiveness | None = None


class TaskZone(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A Task Zone ('Mission' Aircraft): its name and centre point; within `radius`
    steps of the centre a mission aircraft is over the zone (placeholder)."""

    name: Ident
    position: PointIn
    radius: Annotated[int, Meta(ge=0, le=5)] = 0


class Setup(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Everything a game starts from."""

    players: Annotated[tuple[PlayerAircraftSetup, ...], Meta(min_length=1, max_length=12)]
    bots: Annotated[tuple[BotSetup, ...], Meta(min_length=1, max_length=24)]
    player_edge: Edge = Edge.WEST
    zones: Annotated[tuple[TaskZone, ...], Meta(max_length=6)] = ()
    aircraft_types: Annotated[dict[TypeName, AircraftType], Meta(max_length=AIRCRAFT_TYPES)] = (
        field(default_factory=dict)
    )
    model: Model = field(default_factory=Model)
    # README ledger, "Approach Maneuver: Altitude": the reading of a bot starting higher.
    approach_altitude_reading: ApproachAltitudeReading = ApproachAltitudeReading.ONE_ABOVE


def aircraft_types(setup: Setup) -> dict[str, AircraftType]:
    """The default catalogue with the setup's additions and replacements."""
    types = dict(DEFAULT_TYPES)
    types.update(setup.aircraft_types)
    return dict(sorted(types.items()))


def validate(setup: Setup) -> None:
    """Check the placement rules; raise RuleError naming the rule on the first breach."""
    types = aircraft_types(setup)
    board = Board(setup.model.width, setup.model.height)
    ids = [a.id for a in setup.players] + [b.id for b in setup.bots]
    if len(set(ids)) != len(ids):
        raise RuleError(
            "every aircraft needs its own id; duplicated: "
            + ", ".join(sorted({i for i in ids if ids.count(i) > 1})),
            rule=c.SETUP_PLACEMENT,
        )
    for side, numbers in (
        ("player", [a.number for a in setup.players]),
        ("bot", [b.number for b in setup.bots]),
    ):
        if len(set(numbers)) != len(numbers):
            raise RuleError(
                f"{side} aircraft need distinct designation numbers (Step II priority 4 "
                "compares them)",
                rule=c.STEP_II_TIE,
            )
    bot_edge = OPPOSITE_EDGE[setup.player_edge]
    placed: list[tuple[str, str, tuple[int, int], Edge]] = [
        (a.id, a.aircraft_type, a.position, setup.player_edge) for a in setup.players
    ] + [(b.id, b.aircraft_type, b.position, bot_edge) for b in setup.bots]
    for ident, type_name, position, edge in placed:
        if type_name not in types:
            raise RuleError(
                f"{ident}: unknown aircraft type {type_name!r}; known types: " + ", ".join(types),
                rule=c.BASE_GAME + ": aircraft data",
            )
        if not board.contains(position):
            raise RuleError(
                f"{ident}: position {list(position)} is off the board (columns 0-"
                f"{board.width - 1}, rows 0-{board.height - 1})",
                rule=c.SETUP_PLACEMENT,
            )
        if not board.on_edge(position, edge.value):
            raise RuleError(
                f"{ident}: must start on the {edge.value} edge (player aircraft on one edge, "
                "bots on the opposite edge)",
                rule=c.SETUP_PLACEMENT,
            )
    for a in setup.players:
        ceiling = min(types[a.aircraft_type].ceiling, setup.model.max_level)
        if a.level > ceiling:
            raise RuleError(
                f"{a.id}: level L{a.level} is above its service ceiling L{ceiling}",
                rule=c.SETUP_ALTITUDE,
            )
    for z in setup.zones:
        if not board.contains(z.position):
            raise RuleError(
                f"task zone {z.name}: position {list(z.position)} is off the board",
                rule=c.MISSION,
            )
