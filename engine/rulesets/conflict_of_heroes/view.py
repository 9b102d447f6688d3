"""What each role sees. Seed 003_368c69a730e6e14a.txt.

Nothing in this ruleset's state is secret (README "Secrets"): as at the table, anyone may
see which Order Cards are still in the deck, which are discarded and which were removed
(7.3), because the deck holds no order: every draw is a fresh uniform pick made from the
game's committed seed, so no stored field predicts the next card. The only secret of a game
is the server seed, which the engine keeps out of the log until it is revealed.
"""

from __future__ import annotations

from typing import Any

import msgspec

from umpire.engine.roles import Role
from umpire.engine.rulesets.conflict_of_heroes.orders import OrderAction
from umpire.engine.rulesets.conflict_of_heroes.state import State
from umpire.engine.secret_fields import NO_SECRETS


def view(state: State, role: Role) -> dict[str, Any]:
    """The whole state, the same for every role, plus a few counts for display."""
    data: dict[str, Any] = msgspec.to_builtins(state)
    data["deck_remaining"] = len(state.deck)
    data["discard_count"] = len(state.discards)
    for card in data["cards"]:
        card["priority_orders"] = [_order_shown(o) for o in card["priority_orders"]]
        card["tactical_orders"] = [_order_shown(o) for o in card["tactical_orders"]]
    for instruction in (*data["counteractions"], *data["mission_orders"]):
        if instruction["order"] is not None:
            instruction["order"] = _order_shown(instruction["order"])
    return data


# An order that points to a Counteraction or Mission Order says only which (7.0, 7.1);
# its parse's other fields are defaults no rule reads ("Relation: closest" beside
# "Counteraction 2"), and an AI order has no such number ("Number: 0").
_INSTRUCTION_FIELDS = ("text", "action", "number")
_POINTERS = (OrderAction.COUNTERACTION.value, OrderAction.MISSION_ORDER.value)


def _order_shown(order: dict[str, Any]) -> dict[str, Any]:
    """An order's fields as a player reads the card: those its action uses."""
    if order["action"] in _POINTERS:
        return {k: order[k] for k in _INSTRUCTION_FIELDS}
    return {k: v for k, v in order.items() if k != "number"}


# engine.secret_fields: nothing is secret, so nothing is declared (every event public).
SECRETS = NO_SECRETS
