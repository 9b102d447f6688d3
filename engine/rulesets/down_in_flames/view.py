"""view and redact: what each role may know (9.1.11 pilot characteristics stay secret).

Role.REFEREE sees everything. Role.PLAYER sees the pilots of the sides in
State.player_sides (default: side A, the solo player's side) and whatever has been revealed
of the others. Role.SPECTATOR sees only what has been revealed. The secret state fields
(state.SECRET_FIELDS) never appear under their own names outside the referee's view: a
role's view shows the pilot it may know under "pilot".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from umpire.engine.roles import Role
from umpire.engine.rulesets.down_in_flames.performance import (
    agility_card_limit,
    hand_limits,
    ratings,
    wingman_draw,
)
from umpire.engine.rulesets.down_in_flames.pilot import CRACK_SHOT, KEEN_EYESIGHT, QUALITY
from umpire.engine.rulesets.down_in_flames.state import SECRET_FIELDS, Plane, State
from umpire.engine.rulesets.down_in_flames.terms import Side, Station
from umpire.engine.secret_fields import Redactions, SecretFields, SecretState
from umpire.events.types import GameCreated


def visible_sides(state_sides: tuple[Side, ...], role: Role) -> tuple[Side, ...]:
    """The sides whose pilots `role` knows."""
    if role is Role.REFEREE:
        return (Side.A, Side.B)
    if role is Role.PLAYER:
        return state_sides
    return ()


def _pilot(plane: Plane, known: bool) -> dict[str, Any]:
    def shown(name: str) -> bool:
        return known or name in plane.revealed

    traits = [
        name
        for name, field in ((CRACK_SHOT, "crack_shot"), (KEEN_EYESIGHT, "keen_eyesight"))
        if shown(name) and getattr(plane, field)  # a hidden one unread (engine/poison.py)
    ]
    return {
        "quality": plane.pilot_quality.value if shown(QUALITY) else "unknown",
        "characteristics": traits,
        "revealed": list(plane.revealed),
    }


def _plane_view(state: State, plane: Plane, known: bool) -> dict[str, Any]:
    data: dict[str, Any] = {
        "aircraft": plane.aircraft,
        "side": plane.side.value,
        "element": plane.element,
        "station": plane.station.value,
        "altitude": state.altitude_of(plane),
        "damaged": plane.damaged,
        "shot_down": plane.shot_down,
        "ammo_depleted": plane.ammo_depleted,
        "loaded": plane.loaded,
        "rockets": plane.rockets,
        "rockets_used": plane.rockets_used,
        "pilot": _pilot(plane, known),
    }
    if plane.station is Station.LEADER:
        # 8.2-8.4, 3.1 (README I4, I13): the hand, the Agility Cards played and the
        # bursts spent are a Leader's; a Wingman draws each turn and a formation has none,
        # so their view does not show "Hand: 0".
        data["hand"] = plane.hand
        data["agility_played"] = plane.agility_played
        data["bursts_used"] = plane.bursts_used
    if plane.station is Station.FORMATION:
        # 4.1.3-4.1.6: damage points and the formation are a Medium or Heavy Bomber's; a
        # fighter has neither (3.2: damaged or shot down), so its view shows neither.
        data["damage_points"] = plane.damage_points
        data["in_formation"] = plane.in_formation
    if state.altitude_of(plane) == 0 or plane.shot_down:
        return data
    quality_known = known or QUALITY in plane.revealed
    r = ratings(state, plane, with_pilot=quality_known)
    data["ratings"] = {
        "agility": r.agility,
        "speed": r.speed,
        "hp": r.hp,
        "pilot_modifiers_included": quality_known,
    }
    if quality_known and plane.station is Station.LEADER:
        limits = hand_limits(state, plane)
        data["hand_limits"] = {"most": limits.most, "fewest": limits.fewest}
        data["agility_card_limit"] = agility_card_limit(state, plane)
    if quality_known and plane.station is Station.WINGMAN:
        offense, defense = wingman_draw(state, plane)
        data["wingman_draw"] = {"offense": offense, "defense": defense}
    return data


def view(state: State, role: Role) -> dict[str, Any]:
    """The dogfight as `role` may see it."""
    sides = visible_sides(state.player_sides, role)
    data: dict[str, Any] = {
        "move": state.move,
        "active_side": state.active_side.value if state.active_side else None,
        "player_sides": [s.value for s in state.player_sides],
        "options": {
            "combat_die": state.combat_die.value,
            "ammunition_rule": state.ammunition_rule,
            "rockets_rule": state.rockets_rule,
            "gyro_reading": state.gyro_reading.value,
        },
        "elements": {
            k: {"side": e.side.value, "altitude": e.altitude}
            for k, e in sorted(state.elements.items())
        },
        "positions": {k: v.value for k, v in sorted(state.positions.items())},
        "pending_aggregation": {
            k: msgspec.to_builtins(v) for k, v in sorted(state.pending.items())
        },
        "victory_points_conceded": dict(sorted(state.victory_points_conceded.items())),
        "thach_weave": [s.value for s in state.thach_weave],
        "aircraft": {
            k: _plane_view(state, p, p.side in sides) for k, p in sorted(state.aircraft.items())
        },
        "cards": {k: msgspec.to_builtins(c) for k, c in sorted(state.cards.items())},
    }
    if role is Role.REFEREE:
        data["secrets"] = {
            k: {f: msgspec.to_builtins(getattr(p, f)) for f in SECRET_FIELDS}
            for k, p in sorted(state.aircraft.items())
        }
    return data


def _setup_without_pilots(event: GameCreated) -> dict[str, Any]:
    """GameCreated's setup without any pilot's characteristics (9.1.11)."""
    setup = dict(event.setup)
    entries = setup.get("aircraft")
    if isinstance(entries, list):
        setup["aircraft"] = [
            {k: v for k, v in entry.items() if k not in SECRET_FIELDS}
            if isinstance(entry, dict)
            else entry
            for entry in entries
        ]
    return setup


def _revealed(characteristic: str) -> Callable[[Plane], bool]:
    """9.1.11: whether a plane's pilot `characteristic` is revealed, so every role sees it."""
    return lambda plane: characteristic in plane.revealed


# engine.secret_fields: GameCreated's setup holds every pilot's characteristics; roles
# other than the referee get it without them (their view shows what they may know). Other
# events carry no unrevealed secret.
SECRETS = Redactions(
    SecretFields(
        GameCreated,
        fields={"setup": _setup_without_pilots},
        secret=tuple(f"setup.aircraft.*.{name}" for name in SECRET_FIELDS),
        why="9.1.11: pilot characteristics are secret",
    ),
    *(
        SecretState(
            f"aircraft.*.{name}",
            why="9.1.11: a role's view shows them under 'pilot'",
            shown=_revealed(characteristic),
        )
        for name, characteristic in zip(
            SECRET_FIELDS, (QUALITY, CRACK_SHOT, KEEN_EYESIGHT), strict=True
        )
    ),
)
