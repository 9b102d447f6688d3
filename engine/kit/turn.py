"""One command's decision in progress: the state as events are emitted, the dice, the events.

A ruleset's `decide` makes a Turn (or its ruleset's subclass, which adds what its own
procedures share, e.g. Downtown's board) and passes it to the command's handler
(engine/kit/dispatch.py). Every event goes through `emit`, which folds it into `state` at
once, so a later step of the same command sees the result of an earlier one exactly as
replaying the log will; every roll goes through `roll`, which emits its DiceRolled before
the decision that reads it (the engine checks that decide returns each roll, in order).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

from msgspec import Struct

from engine.dice import Dice, DiceSpec
from events.types import DiceRolled, Owner

S = TypeVar("S")


class Turn(Generic[S]):
    """The state, dice and events emitted so far by one command."""

    def __init__(
        self,
        state: S,
        dice: Dice,
        *,
        evolve: Callable[[S, Struct], S],
        cite: Callable[[str], str],
    ) -> None:
        self.state = state
        self.dice = dice
        self.events: list[Struct] = []
        self._evolve = evolve
        self.cite = cite

    def emit(self, event: Struct) -> None:
        """Append an event and fold it into the working state."""
        self.events.append(event)
        self.state = self._evolve(self.state, event)

    def emit_all(self, events: Iterable[Struct]) -> None:
        """Emit each of `events` in order."""
        for event in events:
            self.emit(event)

    def roll(
        self,
        spec: DiceSpec,
        purpose: str,
        rule: str,
        *,
        hidden: bool = False,
        owner: Owner = Owner.OPPONENT,
    ) -> DiceRolled:
        """Roll, emit the DiceRolled event (before the decision that reads it), return it."""
        rolled = self.dice.roll(spec, purpose=purpose, rule=rule, hidden=hidden, owner=owner)
        self.emit(rolled)
        return rolled
