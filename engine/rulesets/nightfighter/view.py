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

from umpire.engine.roles import Role
from umpire.engine.rulesets.nightfighter.campaign import iron_cross
from umpire.engine.rulesets.nightfighter.events import LocalisationFailed, LocationRolled
from umpire.engine.rulesets.nightfighter.state import State
from umpire.engine.rulesets.nightfighter.terms import Status
from umpire.engine.secret_fields import Redactions, SecretFields


def view(state: State, role: Role) -> dict[str, Any]:
    """The state as `role` may see it."""
    data: dict[str, Any] = msgspec.to_builtins(state)
    if state.campaign is not None:
        # Pilot Campaign: the kept award is shown as a plain yes/no (the state leaves it
        # out of its encoding until it is made).
        data["campaign"]["iron_cross_first_class"] = iron_cross(state.campaign)
    if role is not Role.REFEREE:
        data["counters"] = [
            msgspec.to_builtins(c) for c in state.counters if c.status is not Status.PENDING
        ]
        data["counters_due"] = sum(1 for c in state.counters if c.status is Status.PENDING)
    return data


# engine.secret_fields: where a failed location roll pointed is the umpire's secret
# (S5.2/S5.3): its own event is withheld, and the failed search shows no cell (its
# candidates name the rolled and re-rolled cells, which are the dice).
SECRETS = Redactions(
    SecretFields(
        LocationRolled,
        withheld=True,
        secret=("rolled_cell", "rolled_hex"),
        why="S5.2/S5.3: the failed roll's cell",
    ),
    SecretFields(
        LocalisationFailed,
        fields={"candidates": ()},
        why="S5.2/S5.5: the rolled and re-rolled cells are the hidden dice",
    ),
)
