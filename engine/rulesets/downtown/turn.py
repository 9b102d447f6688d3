"""The working record of one command: the kit's Turn (engine/kit/turn.py) and the board.

`decide` procedures emit events through a DowntownTurn, which folds each into its state with
`evolve` at once, so a later step of the same command sees the result of an earlier one,
exactly as replaying the log will.
"""

from __future__ import annotations

from umpire.engine.dice import Dice
from umpire.engine.kit.turn import Turn
from umpire.engine.rulesets.downtown.board import board_of
from umpire.engine.rulesets.downtown.evolve import evolve
from umpire.engine.rulesets.downtown.state import State
from umpire.engine.rulesets.downtown.terms import cite


class DowntownTurn(Turn[State]):
    """The kit's Turn (state, dice, events so far; emit, roll, cite) plus the board."""

    def __init__(self, state: State, dice: Dice) -> None:
        super().__init__(state, dice, evolve=evolve, cite=cite)
        self.board = board_of(state.setup.map)

    def new_id(self, prefix: str) -> str:
        """The next unit id (`next_id` advances when the unit's event is folded)."""
        return f"{prefix}{self.state.next_id}"
