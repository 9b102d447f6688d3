"""One command's decision in progress: the kit's Turn (engine/kit/turn.py) for Nightfighter.

Every procedure emits through it, so a later step of the same command (a phantom test after
a search, the next phase run on) reads the state the earlier events made, exactly as
replaying the log will.
"""

from __future__ import annotations

from umpire.engine.dice import Dice
from umpire.engine.kit.turn import Turn
from umpire.engine.rulesets.nightfighter.evolve import evolve
from umpire.engine.rulesets.nightfighter.state import State
from umpire.engine.rulesets.nightfighter.terms import cite


class NightfighterTurn(Turn[State]):
    """The kit's Turn (state, dice, events so far; emit, roll, cite) for the umpire's
    procedures."""

    __slots__ = ()

    def __init__(self, state: State, dice: Dice) -> None:
        super().__init__(state, dice, evolve=evolve, cite=cite)
