"""Commands every ruleset accepts, handled by the engine itself.

`RollDice` sends any roll through the log, base-game rolls that the solo rules do not
govern included (issue: "every roll of a game goes through the log"). `EndGame` ends the
game by the player's word.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from engine.dice import DiceKind

GENERIC_ROLL_RULE = "umpire: generic roll (base-game roll the solo rules do not govern)"
GENERIC_END_RULE = "umpire: game ended by the player"


class RollDice(Struct, frozen=True, tag="RollDice", kw_only=True):
    """Roll dice for a purpose stated in the player's words."""

    dice: DiceKind
    purpose: Annotated[str, Meta(min_length=1, max_length=200)]
    count: Annotated[int, Meta(ge=1, le=100)] = 1
    sides: Annotated[int, Meta(ge=2, le=1000)] = 6


class EndGame(Struct, frozen=True, tag="EndGame", kw_only=True):
    """End the game with a result in the player's words."""

    result: Annotated[str, Meta(min_length=1, max_length=200)]


UNIVERSAL_COMMANDS: tuple[type[Struct], ...] = (RollDice, EndGame)
