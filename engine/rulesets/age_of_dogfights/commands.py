"""Commands the player sends: roll the setup, fly the bots, and report what the base game
decided about the player's own aircraft and about the bots."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from umpire.engine.rulesets.age_of_dogfights.geometry import Heading
from umpire.engine.rulesets.age_of_dogfights.setup import Ident, Level, PointIn
from umpire.engine.rulesets.age_of_dogfights.state import Plane
from umpire.engine.rulesets.age_of_dogfights.terms import Attitude, Damage


class RollSetup(Struct, frozen=True, kw_only=True, tag="RollSetup"):
    """Game Setup: roll pilot skills, bot aggressiveness and bot altitudes."""


class FlyBots(Struct, frozen=True, kw_only=True, tag="FlyBots"):
    """Play one game round for every bot still in the Combat Zone."""


class ReportAircraft(Struct, frozen=True, kw_only=True, tag="ReportAircraft"):
    """The player's aircraft after its own move and the base game's results."""

    aircraft: Ident
    position: PointIn
    heading: Heading
    level: Level
    attitude: Attitude = Attitude.LEVEL
    has_ammo: bool = True
    jammed: bool = False
    damaged: bool = False
    can_fire: bool = True
    mission_done: bool = False
    lost: bool = False


def restated(plane: Plane) -> ReportAircraft:
    """The report of `plane` (a player's aircraft in the Combat Zone) as umpire holds it:
    it would change nothing, so it is not listed and is refused (issue 41 item 8)."""
    return ReportAircraft(
        aircraft=plane.id,
        position=plane.position,
        heading=plane.heading,
        level=plane.level,
        attitude=plane.attitude,
        has_ammo=plane.has_ammo,
        jammed=plane.jammed,
        damaged=plane.damaged,
        can_fire=plane.can_fire,
        mission_done=plane.mission_done,
    )


def changes_nothing(plane: Plane, damage: Damage) -> bool:
    """Whether `damage` reported on the bot `plane` would change nothing: jammed guns on
    a bot whose guns are jammed already (every other result adds a hit, or removes it)."""
    return damage is Damage.JAMMED and plane.pilot_guns_jammed


class ReportBotDamage(Struct, frozen=True, kw_only=True, tag="ReportBotDamage"):
    """A base-game result on a bot: damage to a part, jammed or damaged guns, or lost."""

    aircraft: Ident
    damage: Damage
    note: Annotated[str, Meta(max_length=200)] = ""
