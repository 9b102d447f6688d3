"""One command's decision in progress: the kit's Turn (engine/kit/turn.py) for Down in Flames.

Every procedure emits through it, so a later step of the same command reads the state the
earlier events made, exactly as replaying the log will.
"""

from __future__ import annotations

from umpire.engine.dice import Dice
from umpire.engine.kit.turn import Turn
from umpire.engine.rulesets.down_in_flames.evolve import evolve
from umpire.engine.rulesets.down_in_flames.state import State
from umpire.engine.rulesets.down_in_flames.terms import cite


class DownInFlamesTurn(Turn[State]):
    """The kit's Turn (state, dice, events so far; emit, roll, cite) and the state the
    command started from (the engagement's end compares the two)."""

    __slots__ = ("started",)

    def __init__(self, state: State, dice: Dice) -> None:
        super().__init__(state, dice, evolve=evolve, cite=cite)
        self.started = state
