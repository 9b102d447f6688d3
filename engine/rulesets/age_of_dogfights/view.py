"""What each role sees. Nothing in this game is secret: every roll and decision is open
(the seed's bots have no hidden information), so every role sees the whole state."""

from __future__ import annotations

from typing import Any

import msgspec

from umpire.engine.roles import Role
from umpire.engine.rulesets.age_of_dogfights.state import State
from umpire.engine.secret_fields import NO_SECRETS


def view(state: State, role: Role) -> dict[str, Any]:
    """The whole state, as plain data, for every role."""
    data: dict[str, Any] = msgspec.to_builtins(state)
    data["role"] = role.value
    return data


# engine.secret_fields: nothing is secret, so nothing is declared (every event public).
SECRETS = NO_SECRETS
