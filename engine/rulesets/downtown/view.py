"""What each role sees. The DRV's secrets are the purchased AAA pool's densities (and its
order), the running count of hidden SAM battalions (the BSAN) and of inactive Fire Cans:
the referee sees them; the player and spectators never do. Hidden rolls show no faces."""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import Struct

from engine.roles import Role
from engine.rulesets.downtown import events as ev
from engine.rulesets.downtown.state import State
from events.types import DiceRolled

SECRET_FIELDS: tuple[str, ...] = (
    "aaa_pool",
    "pool_densities",
    "hidden_sams",
    "bsan",
    "hidden_fire_cans",
)
REDACTED = "(details withheld: DRV secret)"


def view(state: State, role: Role) -> dict[str, Any]:
    """The state as `role` may see it: the player gets the hidden pool's size, not its
    densities, and no running counts of hidden SAMs or Fire Cans."""
    data: dict[str, Any] = msgspec.to_builtins(state)
    if role is Role.REFEREE:
        return data
    data["aaa_hidden_pool_size"] = len(state.aaa_pool)
    for name in ("aaa_pool", "hidden_sams", "hidden_fire_cans"):
        data.pop(name, None)
    return data


def redact(event: Struct, role: Role) -> Struct | None:
    """An event as `role` may see it: secret fields removed (they are omitted when
    defaulted), explanations that state them replaced, hidden rolls without their faces."""
    if role is Role.REFEREE:
        return event
    if isinstance(event, DiceRolled) and event.hidden:
        return msgspec.structs.replace(event, faces=(), total=0)
    if isinstance(event, ev.AaaPurchased):
        return msgspec.structs.replace(
            event,
            pool_densities=(),
            explanation=(
                f"{event.points} AAA Points bought {event.count} concentrations "
                f"({event.count - event.hidden_count} set up now, {event.hidden_count} hidden); "
                f"{REDACTED}"
            ),
        )
    if isinstance(event, ev.SamActivationChecked):
        return msgspec.structs.replace(
            event,
            bsan=-1,
            explanation=(
                f"roll {event.unmodified} modified to {event.modified}: {event.count} SAM "
                f"battalion(s) switch on; hidden battalion count {REDACTED}"
            ),
        )
    if isinstance(event, ev.FireCanActivationChecked):
        return msgspec.structs.replace(
            event,
            hidden_fire_cans=-1,
            explanation=(
                f"roll {event.roll}: {event.activations} Fire Can(s) may activate; {REDACTED}"
            ),
        )
    return event
