"""The state hash of a reply's receipt (docs/audit.md 8.1), without redacting and encoding
a view that has not changed since the last receipt of the same game and role.

Most moves leave the ruleset's state as it was (a `RollDice` changes the game's meta, the
roll count and the head, never a Downtown state), yet every `accepted` hashed the role's
view of it again: Downtown's view is its whole state turned into builtins (~150
containers), redacted and encoded, about 5 us of every acknowledged move. The receipt
binds the head (seq and hash) to the view's bytes, so the bytes can be kept and only the
head is hashed anew.

A kept view is used only for the very state object it was made from (`is`: states are
immutable, a fold makes a new one for any change), by the same ruleset, for the same role
and the same revealed flag, so one role's view never stands for another's. The bytes are
those `receipt_state_hash` would hash (events/receipt.py `view_json`): the receipt's bytes
do not change.
"""

from __future__ import annotations

from typing import Any

from umpire.engine.game import Game
from umpire.engine.redaction import view_for
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.events.receipt import receipt_hash_of_json, view_json

# Views kept, one per (game, role, revealed): a fixed bound, not one per game, so memory per
# game does not grow (the oldest made is dropped first). A kept view holds its state alive,
# so the bound is the game cache's (server/games.py `cache_size`): the two keep about the
# same states, not four times as many for games the cache has let go of.
KEPT_VIEWS = 256

_Kept = tuple[Any, "Ruleset[Any]", bytes, int, str, str]


class ViewDigests:
    """Receipts' state hashes, each game's last view per role kept as canonical JSON."""

    __slots__ = ("_kept", "_size")

    def __init__(self, size: int = KEPT_VIEWS) -> None:
        self._size = size
        # (game id, role, revealed) -> (the state, the ruleset, the view's JSON, and the
        # last hash made of it: its head's seq and hash, and the hash)
        self._kept: dict[tuple[str, Role, bool], _Kept] = {}

    def state_hash(self, ruleset: Ruleset[Any], game: Game, role: Role) -> str:
        """`receipt_state_hash` of `role`'s view of `game` at its head."""
        meta = game.meta
        revealed = meta.revealed_seed is not None
        key = (meta.game_id, role, revealed)
        state = game.state
        kept = self._kept.get(key)
        if kept is not None and kept[0] is state and kept[1] is ruleset:
            # The same head asked again (an `accepted` signed early, then its reply) costs
            # no hash of the view's bytes again.
            if kept[3] == meta.seq and kept[4] == meta.last_hash:
                return kept[5]
            body = kept[2]
        else:
            body = view_json(view_for(ruleset, state, role, revealed=revealed))
            if kept is None and len(self._kept) >= self._size:
                del self._kept[next(iter(self._kept))]  # the first kept
        made = receipt_hash_of_json(meta.seq, meta.last_hash, body)
        self._kept[key] = (state, ruleset, body, meta.seq, meta.last_hash, made)
        return made

    def __len__(self) -> int:
        return len(self._kept)
