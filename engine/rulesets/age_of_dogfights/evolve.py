"""evolve: fold one event into the state (total: unknown events leave it unchanged)."""

from __future__ import annotations

from collections.abc import Callable

import msgspec
from msgspec import Struct

from umpire.engine.rulesets.age_of_dogfights.events import (
    AggressivenessRolled,
    AltitudeRolled,
    BotDamageReported,
    BotMoved,
    BurstChosen,
    DieChosen,
    GunsUnjammed,
    PlayerAircraftReported,
    RetreatDecided,
    RoundStarted,
    SetupCompleted,
    SkillRolled,
    TaskPerformed,
)
from umpire.engine.rulesets.age_of_dogfights.state import Phase, Plane, State
from umpire.engine.rulesets.age_of_dogfights.terms import Damage, Gun, Task
from umpire.events.types import DiceRolled


def _update(state: State, ident: str, change: Callable[[Plane], Plane]) -> State:
    planes = tuple(change(p) if p.id == ident else p for p in state.planes)
    return msgspec.structs.replace(state, planes=planes)


def _set(state: State, ident: str, **fields: object) -> State:
    return _update(state, ident, lambda p: msgspec.structs.replace(p, **fields))


def evolve(state: State, event: Struct) -> State:
    """The state after `event`."""
    if isinstance(event, DiceRolled):
        return msgspec.structs.replace(state, last_roll=event.roll)
    if isinstance(event, SkillRolled):
        return _set(state, event.aircraft, skill=event.skill)
    if isinstance(event, AggressivenessRolled):
        return _set(state, event.aircraft, aggressiveness=event.aggressiveness)
    if isinstance(event, AltitudeRolled):
        return _set(state, event.aircraft, level=event.level)
    if isinstance(event, SetupCompleted):
        return msgspec.structs.replace(state, phase=Phase.COMBAT)
    if isinstance(event, RoundStarted):
        return msgspec.structs.replace(state, round=event.round)
    if isinstance(event, DieChosen):
        return _set(state, event.aircraft, safe_throttle_left=event.safe_throttle_left)
    if isinstance(event, BotMoved):
        return _set(
            state,
            event.aircraft,
            position=event.position,
            heading=event.heading,
            level=event.level,
            attitude=event.attitude,
            out="exited" if event.exited else "",
        )
    if isinstance(event, BurstChosen):
        field = "ammo_nose" if event.gun is Gun.NOSE else "ammo_dorsal"
        return _set(state, event.aircraft, **{field: event.ammo_left})
    if isinstance(event, GunsUnjammed):
        return _set(state, event.aircraft, pilot_guns_jammed=False)
    if isinstance(event, RetreatDecided):
        if event.retreating:
            return _set(state, event.aircraft, retreating=True, retreat_reason=event.reason)
        return state
    if isinstance(event, TaskPerformed):
        if event.task is Task.BOMBING:
            state = msgspec.structs.replace(state, bombed=(*state.bombed, event.zone))
            return _set(state, event.aircraft, bombs_dropped=True)
        state = msgspec.structs.replace(state, photographed=(*state.photographed, event.zone))
        return _set(state, event.aircraft, photographed=True)
    if isinstance(event, PlayerAircraftReported):
        return _set(
            state,
            event.aircraft,
            position=event.position,
            heading=event.heading,
            level=event.level,
            attitude=event.attitude,
            has_ammo=event.has_ammo,
            jammed=event.jammed,
            damaged=event.damaged,
            can_fire=event.can_fire,
            mission_done=event.mission_done,
            out="lost" if event.lost else "",
        )
    if isinstance(event, BotDamageReported):
        return _update(state, event.aircraft, lambda p: _damage(p, event.damage))
    return state


def _damage(plane: Plane, damage: Damage) -> Plane:
    if damage is Damage.DESTROYED:
        return msgspec.structs.replace(plane, out="lost")
    if damage is Damage.JAMMED:
        return msgspec.structs.replace(plane, pilot_guns_jammed=True)
    if damage is Damage.GUNS:
        return msgspec.structs.replace(
            plane, guns_damaged=True, damage=(*plane.damage, damage.value)
        )
    return msgspec.structs.replace(plane, damage=(*plane.damage, damage.value))
