"""The working record of one command: state as events are emitted, the board and the dice.

`decide` procedures emit events through a Ledger, which folds each into its state with
`evolve` at once, so a later step of the same command sees the result of an earlier one,
exactly as replaying the log will.
"""

from __future__ import annotations

from functools import lru_cache

from msgspec import Struct

from engine.dice import Dice, DiceSpec
from engine.rulesets.downtown.evolve import evolve
from engine.rulesets.downtown.mapdata import Board, MapData, load_map
from engine.rulesets.downtown.state import State
from engine.rulesets.downtown.synthetic_map import SYNTHETIC
from events.types import DiceRolled, Owner


@lru_cache(maxsize=16)
def board_of(data: MapData | None) -> Board:
    """The validated board of a setup's map (the synthetic test map when none is given)."""
    return load_map(data if data is not None else SYNTHETIC)


class Ledger:
    """State, board, dice and the events emitted so far for one command."""

    def __init__(self, state: State, dice: Dice) -> None:
        self.state = state
        self.dice = dice
        self.board = board_of(state.setup.map)
        self.events: list[Struct] = []

    def emit(self, event: Struct) -> None:
        """Record an event and fold it into the working state."""
        self.events.append(event)
        self.state = evolve(self.state, event)

    def roll(self, spec: DiceSpec, purpose: str, rule: str, *, hidden: bool = False) -> DiceRolled:
        """Roll, record the DiceRolled event before the decision that uses it, return it."""
        rolled = self.dice.roll(
            spec, purpose=purpose, rule=rule, hidden=hidden, owner=Owner.OPPONENT
        )
        self.emit(rolled)
        return rolled

    def new_id(self, prefix: str) -> str:
        """The next unit id (`next_id` advances when the unit's event is folded)."""
        return f"{prefix}{self.state.next_id}"
