"""The game state: the board model, every aircraft, the task zones and the round."""

from __future__ import annotations

from enum import StrEnum

from msgspec import Struct

from umpire.engine.rulesets.age_of_dogfights.aircraft import AircraftType
from umpire.engine.rulesets.age_of_dogfights.geometry import Heading
from umpire.engine.rulesets.age_of_dogfights.model import Model
from umpire.engine.rulesets.age_of_dogfights.setup import TaskZone
from umpire.engine.rulesets.age_of_dogfights.terms import (
    Aggressiveness,
    ApproachAltitudeReading,
    Attitude,
    Edge,
    Kind,
    Skill,
)


class Side(StrEnum):
    """Whose aircraft: the player's, or a bot the umpire flies."""

    PLAYER = "player"
    BOT = "bot"


class Phase(StrEnum):
    """Where the game is: waiting for the setup rolls, or in combat rounds."""

    SETUP = "setup"
    COMBAT = "combat"


class Plane(Struct, frozen=True, kw_only=True):
    """One aircraft on the board. Player fields are reported by the player; bot fields
    are kept by the umpire (ammunition, throttle, retreat, tasks)."""

    id: str
    number: int
    side: Side
    aircraft_type: str
    position: tuple[int, int]
    heading: Heading
    level: int
    attitude: Attitude = Attitude.LEVEL
    skill: Skill | None = None
    aggressiveness: Aggressiveness | None = None
    # player-reported (player aircraft)
    has_ammo: bool = True
    jammed: bool = False
    damaged: bool = False
    can_fire: bool = True
    mission_done: bool = False
    # bot bookkeeping
    ammo_nose: int = 0
    ammo_dorsal: int = 0
    pilot_guns_jammed: bool = False
    guns_damaged: bool = False
    damage: tuple[str, ...] = ()
    retreating: bool = False
    retreat_reason: str = ""
    start_edge: Edge = Edge.EAST
    safe_throttle_left: int = 0
    full_throttle_available: bool = True
    bombs_dropped: bool = False
    photographed: bool = False
    # both
    out: str = ""  # "", "exited", "lost"


# Which Plane fields belong to one side only (README "The board clients draw"): the
# player reports the first set for the player's aircraft; the umpire keeps the second
# for the bots. A view shows each aircraft only its own side's fields (view.py), so a
# player aircraft is not shown "Nose gun ammunition: 0" it never had.
PLAYER_FIELDS = ("has_ammo", "jammed", "damaged", "can_fire", "mission_done")
BOT_FIELDS = (
    "aggressiveness",
    "ammo_nose",
    "ammo_dorsal",
    "pilot_guns_jammed",
    "guns_damaged",
    "damage",
    "retreating",
    "retreat_reason",
    "safe_throttle_left",
    "full_throttle_available",
    "bombs_dropped",
    "photographed",
)


class State(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Everything the rules read.

    Only the reading switch has a default, and `omit_defaults` leaves it out of the
    encoding while it holds the default: a game played before the switch existed folds
    to the same state hash and the same view (so its players' receipts still match).
    A field added later follows the same rule: a default, omitted at its default."""

    model: Model
    types: dict[str, AircraftType]
    player_edge: Edge
    zones: tuple[TaskZone, ...]
    planes: tuple[Plane, ...]
    phase: Phase
    round: int
    bombed: tuple[str, ...]  # zone names, once per bombing
    photographed: tuple[str, ...]
    last_roll: int
    approach_altitude_reading: ApproachAltitudeReading = ApproachAltitudeReading.ONE_ABOVE

    def plane(self, ident: str) -> Plane:
        """The aircraft with this id (KeyError if none)."""
        for p in self.planes:
            if p.id == ident:
                return p
        raise KeyError(ident)

    def bots(self) -> tuple[Plane, ...]:
        """Bots still in the Combat Zone, in designation order."""
        return tuple(
            sorted(
                (p for p in self.planes if p.side is Side.BOT and not p.out), key=lambda p: p.number
            )
        )

    def players(self) -> tuple[Plane, ...]:
        """Player aircraft still in the Combat Zone, in designation order."""
        return tuple(
            sorted(
                (p for p in self.planes if p.side is Side.PLAYER and not p.out),
                key=lambda p: p.number,
            )
        )

    def kind_of(self, plane: Plane) -> AircraftType:
        """The aircraft type's ratings."""
        return self.types[plane.aircraft_type]

    def ceiling(self, plane: Plane) -> int:
        """Service ceiling, capped by the highest altitude stand."""
        return min(self.kind_of(plane).ceiling, self.model.max_level)


def is_mission(state: State, plane: Plane) -> bool:
    """Step II priority 2: bombers and scouts that have not yet fulfilled their task."""
    return state.kind_of(plane).kind is not Kind.FIGHTER and not plane.mission_done
