"""Firing positions (Step II): which player aircraft a bot could fire at from a pose.

Base game placeholder (tables/firing_chart.py): the first chart row that matches the gun,
arc, range and aspect gives the column (A or B) and whether a long burst is permitted.
Firing needs the same altitude level, a gun the type carries with ammunition left, and
(for the pilot's nose guns) guns that are neither jammed nor damaged.
"""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.rulesets.age_of_dogfights.exposure import Pose
from umpire.engine.rulesets.age_of_dogfights.geometry import behind, distance, in_front
from umpire.engine.rulesets.age_of_dogfights.state import Plane, State
from umpire.engine.rulesets.age_of_dogfights.tables.firing_chart import FiringRow
from umpire.engine.rulesets.age_of_dogfights.terms import Column, Gun


class Shot(Struct, frozen=True, kw_only=True):
    """A firing position: target, gun, column, range, long burst permitted."""

    target: str
    gun: Gun
    column: Column
    range: int
    long_burst: bool


def usable_guns(state: State, bot: Plane) -> tuple[Gun, ...]:
    """Guns the bot can fire now, nose first."""
    kind = state.kind_of(bot)
    if bot.guns_damaged:
        return ()
    guns: list[Gun] = []
    if kind.nose_guns and kind.offensive and bot.ammo_nose > 0 and not bot.pilot_guns_jammed:
        guns.append(Gun.NOSE)
    if kind.dorsal_guns and bot.ammo_dorsal > 0:
        guns.append(Gun.DORSAL)
    return tuple(guns)


def can_fire_offensively(state: State, bot: Plane) -> bool:
    """Whether the bot may fire offensively: usable nose (pilot's) guns ('Mission'
    Aircraft and General Rules: "that can fire offensively")."""
    return Gun.NOSE in usable_guns(state, bot)


def _matches(row: FiringRow, pose: Pose, target: Plane) -> bool:
    rng = distance(pose.position, target.position)
    if rng > row.max_range:
        return False
    if row.gun is Gun.NOSE:
        in_arc = in_front(pose.position, pose.heading, target.position, row.arc)
    else:
        in_arc = behind(pose.position, pose.heading, target.position, row.arc)
    if not in_arc:
        return False
    return not row.attacker_behind_target or behind(
        target.position, target.heading, pose.position, 120
    )


def shots(state: State, bot: Plane, pose: Pose, guns: tuple[Gun, ...] | None = None) -> list[Shot]:
    """The best shot at each player aircraft from `pose` (column A before B, nose before
    dorsal), in designation order of the targets; `guns` limits the guns considered."""
    found: list[Shot] = []
    guns = tuple(g for g in usable_guns(state, bot) if guns is None or g in guns)
    for target in state.players():
        if target.level != pose.level or target.position == pose.position:
            continue
        best: Shot | None = None
        for gun in guns:
            for row in state.model.firing_chart:
                if row.gun is gun and _matches(row, pose, target):
                    shot = Shot(
                        target=target.id,
                        gun=gun,
                        column=row.column,
                        range=distance(pose.position, target.position),
                        long_burst=row.long_burst,
                    )
                    if best is None or (shot.column, shot.range) < (best.column, best.range):
                        best = shot
                    break
        if best is not None:
            found.append(best)
    return found
