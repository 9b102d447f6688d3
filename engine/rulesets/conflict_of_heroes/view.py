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
from umpire.engine.rulesets.conflict_of_heroes.state import State
from umpire.engine.secret_fields import NO_SECRETS


def view(state: State, role: Role) -> dict[str, Any]:
    """The whole state, the same for every role, plus a few counts for display."""
    data: dict[str, Any] = msgspec.to_builtins(state)
    data["deck_remaining"] = len(state.deck)
    data["discard_count"] = len(state.discards)
    return data


# engine.secret_fields: nothing is secret, so nothing is declared (every event public).
SECRETS = NO_SECRETS
