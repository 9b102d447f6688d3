"""The base-game model the solo rules run on: one documented, configurable interface.

001_989a2f850da69b66.txt Introduction: "All basic rules from the standard game apply". The
seed does not print the base game's components, so every value here is a PLACEHOLDER the
player can replace in the game setup (`Setup.model`) with the real values from the Age of
Dogfights rulebook. README.md lists each one and why the default was chosen.

- board: `width` x `height` points of the triangular grid (geometry.py);
- altitude stands: levels 1..`max_level`;
- movement: an aircraft moves `basic_speed + face` steps, where `face` is the modifier on
  the rolled face of the blue or green die (`blue_faces`, `green_faces`, face 1..6);
  each step may first turn 60 degrees left or right, then moves one point forward; the
  number of turns per round is limited by agility (aircraft.py);
- the solo die: six faces, each a large arrow (left, straight, right) and whether it shows
  the gyroscopic (rotary) symbol (`solo_faces`);
- firing: `firing_chart` rows, first match wins (tables/firing_chart.py);
- bursts: ammunition a short and a long burst use;
- `three_level_descent_levels_out`: after descending this many levels in a round the
  aircraft must end level (Random Maneuver's example "it has just descended three
  altitude levels").
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from umpire.engine.rulesets.age_of_dogfights.tables.firing_chart import (
    DEFAULT_FIRING_CHART,
    FiringRow,
)
from umpire.engine.rulesets.age_of_dogfights.terms import Steer

FaceModifier = Annotated[int, Meta(ge=-3, le=6)]


class SoloFace(Struct, frozen=True, kw_only=True):
    """One face of the solo die: the large arrow and whether the rotary symbol is shown."""

    arrow: Steer
    gyro: bool = False


# PLACEHOLDER faces: two of each arrow; one left and one right face carry the rotary symbol.
DEFAULT_SOLO_FACES: tuple[SoloFace, ...] = (
    SoloFace(arrow=Steer.LEFT),
    SoloFace(arrow=Steer.LEFT, gyro=True),
    SoloFace(arrow=Steer.STRAIGHT),
    SoloFace(arrow=Steer.STRAIGHT),
    SoloFace(arrow=Steer.RIGHT),
    SoloFace(arrow=Steer.RIGHT, gyro=True),
)


class Model(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base-game values; every default is a placeholder (see module doc and README)."""

    width: Annotated[int, Meta(ge=4, le=60)] = 18
    height: Annotated[int, Meta(ge=4, le=60)] = 14
    max_level: Annotated[int, Meta(ge=2, le=12)] = 6
    blue_faces: Annotated[tuple[FaceModifier, ...], Meta(min_length=6, max_length=6)] = (
        0,
        0,
        0,
        1,
        1,
        1,
    )
    green_faces: Annotated[tuple[FaceModifier, ...], Meta(min_length=6, max_length=6)] = (
        1,
        1,
        2,
        2,
        2,
        3,
    )
    solo_faces: Annotated[tuple[SoloFace, ...], Meta(min_length=6, max_length=6)] = (
        DEFAULT_SOLO_FACES
    )
    firing_chart: Annotated[tuple[FiringRow, ...], Meta(min_length=1, max_length=64)] = (
        DEFAULT_FIRING_CHART
    )
    short_burst_ammo: Annotated[int, Meta(ge=1, le=10)] = 1
    long_burst_ammo: Annotated[int, Meta(ge=1, le=10)] = 2
    three_level_descent_levels_out: Annotated[int, Meta(ge=2, le=12)] = 3
    max_rerolls: Annotated[int, Meta(ge=1, le=100)] = 30
