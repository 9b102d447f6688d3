"""A command's rules job: what the rules need to judge one command, as one value.

The command path (server/command_handling.py) asks for it, and server/rules_pool.py runs
it on the event loop, in a worker thread or in a worker process. Pure: no I/O, so it runs
anywhere; it pickles with its ruleset named, not copied, since a worker process loads the
rulesets itself (server/rules_pool.py `_portable` sends only those it loads the same).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec import Struct

from umpire.engine import registry
from umpire.engine.game import Game
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset


class RulesJob(Struct, frozen=True, gc=False):
    """One command to judge (server/games.py `decide_for`): the game as read, the command
    and the dice it is owed. `manual_dice`: the player's physical dice (None: server
    dice); `seed`: the epoch's secret seed (None before a client seed is bound, or with
    physical dice); `nonce`: the command's entropy ("": none); `hidden_key`: what the
    game's hidden rolls derive from (engine/dice.py `roll_key`; None: from the seed).
    One is made per command: untracked by the garbage collector (gc=False), as nothing it
    holds refers back to it."""

    ruleset: Ruleset[Any]
    game: Game
    command: dict[str, Any]
    manual_dice: Sequence[Sequence[int]] | None
    seed: bytes | None
    role: Role
    nonce: str = ""
    hidden_key: bytes | None = None

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # To a worker process by the ruleset's name: it holds the same ruleset, loaded at
        # its start (a ruleset is code, and its tables are large).
        return _named_job, (
            self.ruleset.name, self.game, self.command, self.manual_dice, self.seed,
            self.role, self.nonce, self.hidden_key,
        )  # fmt: skip


def _named_job(name: str, *fields: Any) -> RulesJob:
    """A RulesJob unpickled in a worker process: its ruleset from the registry there."""
    return RulesJob(registry.get(name), *fields)
