"""What each role sees. Nothing in this game is secret: every roll and decision is open
(the seed's bots have no hidden information), so every role sees the whole state, each
aircraft with its own side's fields only (state.PLAYER_FIELDS, state.BOT_FIELDS): a
player aircraft has no ammunition slider or retreat the umpire keeps, and a bot no
player's report."""

from __future__ import annotations

from typing import Any

import msgspec

from umpire.engine.roles import Role
from umpire.engine.rulesets.age_of_dogfights.state import BOT_FIELDS, PLAYER_FIELDS, Side, State
from umpire.engine.secret_fields import NO_SECRETS

# The fields an aircraft of each side does not have.
_NOT_OF = {Side.PLAYER.value: BOT_FIELDS, Side.BOT.value: PLAYER_FIELDS}


def view(state: State, role: Role) -> dict[str, Any]:
    """The whole state, as plain data, for every role."""
    data: dict[str, Any] = msgspec.to_builtins(state)
    data["planes"] = [
        {key: value for key, value in plane.items() if key not in _NOT_OF[plane["side"]]}
        for plane in data["planes"]
    ]
    data["role"] = role.value
    # The index of the last die rolled is umpire's bookkeeping, no rule's ("Last roll: 3"
    # read as a die showing 3): the rolls themselves are in the log.
    del data["last_roll"]
    return data


# engine.secret_fields: nothing is secret, so nothing is declared (every event public).
SECRETS = NO_SECRETS
