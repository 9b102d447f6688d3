"""A decision in progress: the events emitted so far and the state they lead to.

`decide` procedures emit events through a Journal so that each later step reads the state
the earlier events made (e.g. the AP Spent Check after an AI move sees the moved AI), and
every roll is logged as its DiceRolled event at the point it was made.
"""

from __future__ import annotations

from msgspec import Struct

from engine.dice import Dice, DiceSpec
from engine.rulesets.conflict_of_heroes.evolve import evolve
from engine.rulesets.conflict_of_heroes.state import State
from events.types import DiceRolled, Owner


class Journal:
    """The state and events of one command's decision."""

    def __init__(self, state: State, dice: Dice, cards: tuple[int, ...] = ()) -> None:
        self.state = state
        self.dice = dice
        self.events: list[Struct] = []
        self.cards = list(cards)  # physical-deck draws named by the player, in order
        self.physical = bool(cards)
        self.last_draw_dice: tuple[int, ...] = ()  # roll numbers of the latest card draw

    def emit(self, event: Struct) -> None:
        """Record an event and advance the state."""
        self.events.append(event)
        self.state = evolve(self.state, event)

    def roll(self, spec: DiceSpec, *, purpose: str, rule: str) -> DiceRolled:
        """Roll, and log the roll where it was made."""
        rolled = self.dice.roll(spec, purpose=purpose, rule=rule, owner=Owner.OPPONENT)
        self.emit(rolled)
        return rolled
