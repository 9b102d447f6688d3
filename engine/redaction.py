"""What a role may see of an event (ARCHITECTURE.md "Roles and secrets").

The referee sees everything, and so does everyone once the seed is revealed. Before that,
a hidden roll shows its purpose but not its faces, and the ruleset's `redact` decides for
its own events.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import Struct

from engine.roles import Role
from engine.ruleset import Ruleset
from events.types import DiceRolled


def redact(ruleset: Ruleset[Any], event: Struct, role: Role, *, revealed: bool) -> Struct | None:
    """The event as `role` may see it, or None when the role may not see it at all."""
    if role is Role.REFEREE or revealed:
        return event
    if isinstance(event, DiceRolled):
        if event.hidden:
            return msgspec.structs.replace(event, faces=(), total=0)
        return event
    return ruleset.redact(event, role)


def view_for(ruleset: Ruleset[Any], state: Any, role: Role, *, revealed: bool) -> Any:
    """The state as `role` sees it (everything once the seed is revealed)."""
    return ruleset.view(state, Role.REFEREE if revealed else role)
