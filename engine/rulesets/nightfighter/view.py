"""What each role may see, and event redaction.

The player sees what the physical game shows: counters, markers and uncertainty levels,
the nightfighters, and the S5.5 barred hexes. The umpire's location rolls are hidden:
a failed search tells the player only that it failed (LocationRolled, and the faces of
hidden rolls, are the referee's until the seed is revealed). The true bomber
positions and which high uncertainty counters are phantoms are never stored at all:
S5.0-S5.4 resolve them by dice only when a search asks (README.md, "Secrets").
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import Struct
from msgspec.structs import replace

from engine.roles import Role
from engine.rulesets.nightfighter.events import LocationRolled
from engine.rulesets.nightfighter.state import State
from engine.rulesets.nightfighter.terms import Status
from events.types import DiceRolled


def view(state: State, role: Role) -> dict[str, Any]:
    """The state as `role` may see it."""
    data: dict[str, Any] = msgspec.to_builtins(state)
    if role is not Role.REFEREE:
        data["counters"] = [
            msgspec.to_builtins(c) for c in state.counters if c.status is not Status.PENDING
        ]
        data["counters_due"] = sum(1 for c in state.counters if c.status is Status.PENDING)
    return data


def redact(event: Struct, role: Role) -> Struct | None:
    """The event as `role` may see it: hidden rolls without their faces; where a failed
    location roll pointed (LocationRolled) not at all."""
    if role is Role.REFEREE:
        return event
    if isinstance(event, DiceRolled) and event.hidden:
        return replace(event, faces=(), total=0)
    if isinstance(event, LocationRolled):
        return None
    return event
