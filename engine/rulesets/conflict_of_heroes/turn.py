"""One command's decision in progress: the kit's Turn (engine/kit/turn.py) for the Order
Card AI.

Procedures emit events through a ConflictOfHeroesTurn so that each later step reads the
state the earlier events made (e.g. the AP Spent Check after an AI move sees the moved AI), and
every roll is logged as its DiceRolled event at the point it was made.
"""

from __future__ import annotations

from umpire.engine.dice import Dice
from umpire.engine.kit.turn import Turn
from umpire.engine.rulesets.conflict_of_heroes.evolve import evolve
from umpire.engine.rulesets.conflict_of_heroes.state import State
from umpire.engine.rulesets.conflict_of_heroes.terms import cite


class ConflictOfHeroesTurn(Turn[State]):
    """The kit's Turn (state, dice, events so far; emit, roll, cite) plus the Order Cards
    the player named for a physical deck."""

    def __init__(self, state: State, dice: Dice, cards: tuple[int, ...] = ()) -> None:
        super().__init__(state, dice, evolve=evolve, cite=cite)
        self.last_draw_dice: tuple[int, ...] = ()  # roll numbers of the latest card draw
        self.name_cards(cards)

    def name_cards(self, cards: tuple[int, ...]) -> None:
        """Physical-deck mode: the cards the player drew from a real deck, in order."""
        self.cards = list(cards)  # physical-deck draws named by the player, not yet used
        self.named = len(cards)
        self.physical = bool(cards)
