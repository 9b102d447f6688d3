"""Aircraft data: the base-game ratings the solo rules read (PLACEHOLDER catalogue).

001_989a2f850da69b66.txt names basic speed, agility, service ceiling, rotary engines,
ammunition, full-throttle ("safe usages") and bombing/photography, but prints no values.
`DEFAULT_TYPES` is a small catalogue of WWI types with placeholder ratings; a game's setup
may add types or replace these (`Setup.aircraft_types`). An unknown type is a RuleError.

- `basic_speed`: movement steps before the blue/green die modifier (model.py);
- `agility`: the most turns per round; a rotary engine allows `agility` turns in the
  direction its gyroscopic effect favours and `agility - 1` the other way (Random Maneuver
  example: agility III, two left turns, no third);
- `ceiling`: service ceiling level; `climb` / `dive`: levels an aircraft tilted nose-up /
  nose-down changes in one round at most;
- `nose_guns` / `dorsal_guns` with `ammo` units each; `offensive`: may fire offensively;
- `safe_full_throttle`: safe usages of full throttle (the throttle slider) before '?';
- `bombs` / `camera`: the 'Mission' tasks it can perform.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from umpire.engine.rulesets.age_of_dogfights.terms import Kind, Rotary


class AircraftType(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One aircraft type's ratings (see module doc)."""

    kind: Kind = Kind.FIGHTER
    basic_speed: Annotated[int, Meta(ge=1, le=10)] = 3
    agility: Annotated[int, Meta(ge=0, le=6)] = 2
    rotary: Rotary = Rotary.NONE
    ceiling: Annotated[int, Meta(ge=1, le=12)] = 5
    climb: Annotated[int, Meta(ge=1, le=3)] = 1
    dive: Annotated[int, Meta(ge=1, le=3)] = 2
    nose_guns: bool = True
    dorsal_guns: bool = False
    offensive: bool = True
    ammo: Annotated[int, Meta(ge=1, le=20)] = 6
    safe_full_throttle: Annotated[int, Meta(ge=0, le=20)] = 4
    bombs: bool = False
    camera: bool = False

    def turn_limits(self) -> tuple[int, int, int]:
        """(total, left, right) turns allowed in one round."""
        if self.rotary is Rotary.RIGHT:
            return self.agility, max(self.agility - 1, 0), self.agility
        if self.rotary is Rotary.LEFT:
            return self.agility, self.agility, max(self.agility - 1, 0)
        return self.agility, self.agility, self.agility


DEFAULT_TYPES: dict[str, AircraftType] = {
    "sopwith_camel": AircraftType(agility=3, rotary=Rotary.RIGHT, ceiling=5, basic_speed=3),
    "fokker_dr1": AircraftType(agility=3, rotary=Rotary.RIGHT, ceiling=5, basic_speed=3),
    "spad_xiii": AircraftType(agility=2, ceiling=6, basic_speed=4, dive=3),
    "se5a": AircraftType(agility=2, ceiling=6, basic_speed=4),
    "albatros_dv": AircraftType(agility=2, ceiling=5, basic_speed=3),
    "fokker_dvii": AircraftType(agility=2, ceiling=6, basic_speed=3, climb=2),
    "nieuport_17": AircraftType(agility=3, rotary=Rotary.RIGHT, ceiling=4, basic_speed=3),
    "bristol_f2b": AircraftType(agility=2, ceiling=5, basic_speed=3, dorsal_guns=True),
    "dh4": AircraftType(
        kind=Kind.BOMBER,
        agility=1,
        ceiling=5,
        basic_speed=3,
        dorsal_guns=True,
        bombs=True,
        camera=True,
        safe_full_throttle=2,
    ),
    "rumpler_civ": AircraftType(
        kind=Kind.SCOUT,
        agility=1,
        ceiling=6,
        basic_speed=3,
        dorsal_guns=True,
        camera=True,
        safe_full_throttle=2,
    ),
}
