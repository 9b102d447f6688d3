"""What a player or spectator sees of a hidden roll before the seed is revealed."""

from __future__ import annotations

import msgspec

from umpire.events.types import DiceRolled


def redact_hidden_roll(event: DiceRolled) -> DiceRolled:
    """A hidden roll keeps its purpose, rule and dice but shows no faces and no total;
    an open roll is returned unchanged (the same object, so it is not secret)."""
    if event.hidden:
        return msgspec.structs.replace(event, faces=(), total=0)
    return event
