"""Commands the player sends: roll the setup, fly the bots, and report what the base game
decided about the player's own aircraft and about the bots."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from umpire.engine.rulesets.age_of_dogfights.geometry import Heading
from umpire.engine.rulesets.age_of_dogfights.setup import Ident, Level, PointIn
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


class ReportBotDamage(Struct, frozen=True, kw_only=True, tag="ReportBotDamage"):
    """A base-game result on a bot: damage to a part, jammed or damaged guns, or lost."""

    aircraft: Ident
    damage: Damage
    note: Annotated[str, Meta(max_length=200)] = ""
