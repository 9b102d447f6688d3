"""`decide` made from a ruleset's dispatch and its Turn class (the kit writes the wrapper).

Every ruleset's `decide` is the same few steps: find the command's handler (the dispatch
refuses a type the ruleset does not take, before anything is made), make the ruleset's Turn
of the state and the dice (its class carries the fold, `evolve`, and `cite`), run the
handler, run the ruleset's closing step, and return the events emitted. `decider` writes
them once; a ruleset names only what is its own:

    decide = decider(DISPATCH, DowntownTurn, end=raid_end.close)

`begin(turn, command)` runs before the handler (Conflict of Heroes takes the Order Cards
the player named); `end(turn)` after it (the game's end, Nightfighter's pace).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from msgspec import Struct

from umpire.engine.dice import Dice
from umpire.engine.kit.dispatch import Dispatch
from umpire.engine.kit.turn import Turn

S = TypeVar("S")
T = TypeVar("T", bound=Turn[Any])


class Decider(Generic[S, T]):
    """A ruleset's `decide(state, command, dice) -> events`, made by `decider`; its
    `command_types` are its dispatch's (the Ruleset derives its own from them)."""

    __slots__ = ("begin", "dispatch", "end", "turn")

    def __init__(
        self,
        dispatch: Dispatch[Callable[[T, Any], None]],
        turn: Callable[[S, Dice], T],
        begin: Callable[[T, Any], None] | None,
        end: Callable[[T], None] | None,
    ) -> None:
        self.dispatch, self.turn, self.begin, self.end = dispatch, turn, begin, end

    @property
    def command_types(self) -> tuple[type[Struct], ...]:
        """The command types the dispatch takes, in its order."""
        return self.dispatch.command_types

    def __call__(self, state: S, command: Struct, dice: Dice) -> list[Struct]:
        """The events `command` causes in `state`, rolling `dice` where the rules say;
        RuleError (from the dispatch, a handler, `begin` or `end`) when it is illegal."""
        handler = self.dispatch.handler(command)
        current = self.turn(state, dice)
        if self.begin is not None:
            self.begin(current, command)
        handler(current, command)
        if self.end is not None:
            self.end(current)
        return current.events


def decider(
    dispatch: Dispatch[Callable[[T, Any], None]],
    turn: Callable[[S, Dice], T],
    *,
    begin: Callable[[T, Any], None] | None = None,
    end: Callable[[T], None] | None = None,
) -> Decider[S, T]:
    """The ruleset's `decide` from its dispatch and its Turn class (which carries the fold,
    `evolve`, and `cite`), with the ruleset's own first and last steps, if any."""
    return Decider(dispatch, turn, begin, end)
