"""What each role sees. The DRV's secrets are the purchased AAA pool's densities (and its
order), the running count of hidden SAM battalions (the BSAN) and of inactive Fire Cans:
the referee sees them; the player and spectators never do. Hidden rolls show no faces."""

from __future__ import annotations

from typing import Any

import msgspec

from umpire.engine.roles import Role
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.state import State
from umpire.engine.rulesets.downtown.tables import aaa_generation
from umpire.engine.rulesets.downtown.terms import Phase
from umpire.engine.secret_fields import Redactions, SecretFields, SecretState
from umpire.events.plurals import counted

REDACTED = "(details withheld: DRV secret)"

# The state's record of the Movement Phase under way (3.4.4, 4, 4.1.2, 5.7, 2.1.7): read by
# the rules only during it, reset when the next one begins (evolve `_begin`).
MOVEMENT_PHASE_FIELDS = (
    "phase_near",
    "phase_events",
    "drv_moved",
    "us_mp",
    "ordered_attacks",
    "aaa_fire",
)


def view(state: State, role: Role) -> dict[str, Any]:
    """The state as `role` may see it: the player gets the hidden pool's size, not its
    densities, and no running counts of hidden SAMs or Fire Cans (SECRETS' SecretState:
    the Ruleset's view leaves them out), nor the next unit id's number."""
    data: dict[str, Any] = msgspec.to_builtins(state)
    if state.phase is not Phase.MOVEMENT:
        # Each of these says "this Movement Phase" (labels.py), and the state keeps them
        # until the next Movement Phase begins: outside one they would show the last
        # one's flights and attacks as if current.
        for key in MOVEMENT_PHASE_FIELDS:
            data[key] = []
    if role is Role.REFEREE:
        return data
    data["aaa_hidden_pool_size"] = len(state.aaa_pool)
    # The number the next placed unit's id takes is umpire's bookkeeping, no rule's: a
    # player reads the units on the map, not a counter of them.
    del data["next_id"]
    return data


def _aaa_purchased_explanation(event: ev.AaaPurchased) -> str:
    # The redacted citation says "(details withheld: DRV secret)" (SECRETS below); said
    # here too, a log line that prints both would say it twice.
    return (
        f"{event.points} AAA Points bought {counted(event.count, 'concentration')} "
        f"({event.count - event.hidden_count} set up now, {event.hidden_count} hidden)"
    )


def _sam_check_explanation(event: ev.SamActivationChecked) -> str:
    return (
        f"roll {event.unmodified} modified to {event.modified}: "
        f"{counted(event.count, 'SAM battalion')} "
        f"{'switches' if event.count == 1 else 'switch'} on; hidden battalion count {REDACTED}"
    )


def _fire_can_explanation(event: ev.FireCanActivationChecked) -> str:
    cans = counted(event.activations, "Fire Can")
    return f"roll {event.roll}: {cans} may activate; {REDACTED}"


# engine.secret_fields: the DRV's secrets, each declared once, and what they decide. The
# number of concentrations bought is public (2.1.3: the pool's counters lie face down in
# view); their densities are not, nor the table column that the hidden d10 chose (the
# column is the die).
SECRETS = Redactions(
    SecretState("aaa_pool", why="2.1.2: the hidden AAA pool's densities, order", count_public=True),
    SecretState("hidden_sams", why="2.4: the BSAN, hidden SAM battalions remaining"),
    SecretState("hidden_fire_cans", why="2.2.1: the number of inactive Fire Cans"),
    SecretFields(
        ev.AaaPurchased,
        fields={
            "pool_densities": (),
            "rule": f"{aaa_generation.CITATION} {REDACTED}",
            "explanation": _aaa_purchased_explanation,
        },
        secret=("pool_densities",),
        why="2.1.2: the AAA Generation roll is hidden; its row/column is the die",
    ),
    SecretFields(
        ev.SamActivationChecked,
        fields={"bsan": -1, "explanation": _sam_check_explanation},
        secret=("bsan",),
        why="2.4: the BSAN (hidden SAM battalions remaining) is the DRV's secret",
    ),
    SecretFields(
        ev.FireCanActivationChecked,
        fields={"hidden_fire_cans": -1, "explanation": _fire_can_explanation},
        secret=("hidden_fire_cans",),
        why="2.2.1: the number of inactive Fire Cans is the DRV's secret",
    ),
)
