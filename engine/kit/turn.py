"""One command's decision in progress: the state as events are emitted, the dice, the events.

Each ruleset subclasses it once, `<Name>Turn` in its `turn.py` (adding what its own
procedures share, e.g. Downtown's board); the ruleset's `decide` (engine/kit/decider.py)
makes one per command and passes it to the command's handler (engine/kit/dispatch.py).
Every event goes through `emit`, and `state` is always the fold of every event emitted so
far, so a later step of the same command sees the result of an
earlier one exactly as replaying the log will (the fold runs when `state` is read, so
events no step reads after cost no `evolve`); every roll goes through `roll`, which emits
its DiceRolled before the decision that reads it (the engine checks that decide returns
each roll, in order).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

from msgspec import Struct

from umpire.engine.dice import Dice, DiceSpec
from umpire.engine.errors import OpponentDiceRefused
from umpire.events.types import DiceRolled, Owner

S = TypeVar("S")


class Turn(Generic[S]):
    """The state, dice and events emitted so far by one command.

    `state` is always the fold of every emitted event; it is brought up to date when it is
    read, so events emitted after the last read cost no `evolve` at all (most commands read
    nothing after their last event; the engine folds the returned events again anyway).
    """

    __slots__ = ("_evolve", "_folded", "_state", "cite", "dice", "events")

    def __init__(
        self,
        state: S,
        dice: Dice,
        *,
        evolve: Callable[[S, Struct], S],
        cite: Callable[[str], str],
    ) -> None:
        self._state = state
        self._folded = 0  # how many of `events` `_state` has folded
        self.dice = dice
        self.events: list[Struct] = []
        self._evolve = evolve
        self.cite = cite

    @property
    def state(self) -> S:
        """The state the command started from with every emitted event folded in."""
        events = self.events
        if self._folded < len(events):
            state, evolve = self._state, self._evolve
            for event in events[self._folded :]:
                state = evolve(state, event)
            self._state, self._folded = state, len(events)
        return self._state

    @state.setter
    def state(self, state: S) -> None:
        """Take `state` as the working state, with every event emitted so far in it."""
        self._state, self._folded = state, len(self.events)

    def emit(self, event: Struct) -> None:
        """Append an event; `state` folds it before it is next read."""
        self.events.append(event)

    def emit_all(self, events: Iterable[Struct]) -> None:
        """Emit each of `events` in order."""
        self.events.extend(events)

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
        self.events.append(rolled)
        return rolled

    def check_opponent_entry(self, what: str, rule: str) -> None:
        """Refuse a random result of the opponent's that the player entered instead of the
        server drawing it (`what`, e.g. an Order Card drawn for the AI from a physical deck),
        unless the game was created to allow it: the policy of the opponent's dice
        (GameCreated.opponent_manual_dice), with its error, OpponentDiceRefused."""
        if not self.dice.opponent_entries:
            raise OpponentDiceRefused(
                f"{what} ({rule}) is the opponent's: this game takes the player's entries "
                "only for the player's own results (create it with opponent dice allowed, "
                "umpire new --allow-opponent-dice, to enter them); send the command without "
                "them and the server draws it",
                purpose=what,
                rule=rule,
            )
