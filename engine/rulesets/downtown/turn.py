"""The working record of one command: the kit's Turn (engine/kit/turn.py) and the board.

`decide` procedures emit events through a DowntownTurn, which folds each into its state with
`evolve` at once, so a later step of the same command sees the result of an earlier one,
exactly as replaying the log will.
"""

from __future__ import annotations

from functools import lru_cache

from umpire.engine.dice import Dice
from umpire.engine.kit.turn import Turn
from umpire.engine.rulesets.downtown.evolve import evolve
from umpire.engine.rulesets.downtown.mapdata import Board, MapData, load_map
from umpire.engine.rulesets.downtown.state import State
from umpire.engine.rulesets.downtown.synthetic_map import SYNTHETIC
from umpire.engine.rulesets.downtown.terms import cite


@lru_cache(maxsize=16)
def board_of(data: MapData | None) -> Board:
    """The validated board of a setup's map (the synthetic test map when none is given)."""
    return load_map(data if data is not None else SYNTHETIC)


class DowntownTurn(Turn[State]):
    """The kit's Turn (state, dice, events so far; emit, roll, cite) plus the board."""

    def __init__(self, state: State, dice: Dice) -> None:
        super().__init__(state, dice, evolve=evolve, cite=cite)
        self.board = board_of(state.setup.map)

    def new_id(self, prefix: str) -> str:
        """The next unit id (`next_id` advances when the unit's event is folded)."""
        return f"{prefix}{self.state.next_id}"
