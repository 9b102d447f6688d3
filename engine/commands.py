"""Commands every ruleset accepts, handled by the engine itself.

`RollDice` sends any roll through the log, base-game rolls that the solo rules do not
govern included (issue: "every roll of a game goes through the log"). `EndGame` ends the
game by the player's word. `TakeBack` takes back the player's last command (and, sent
again, the one before it) while no die has been rolled and nothing hidden shown since
(engine/takeback.py); `TakebackPolicy` is what a ruleset may narrow of that.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from msgspec import Meta, Struct

from umpire.engine.dice import DiceKind

GENERIC_ROLL_RULE = "umpire: generic roll (base-game roll the solo rules do not govern)"
GENERIC_END_RULE = "umpire: game ended by the player"
TAKEBACK_RULE = "umpire: takeback (no die rolled and nothing hidden shown since)"
MAX_TAKEBACK_DEPTH = 2


# A ruleset's named (coloured) dice and card draws are its own rolls, made by its rules:
# RollDice took every DiceKind and rolled those two as `custom` dice without a word
# (docs engineer, 2026-11-29). The docstring is the published schema's description.
class RollKind(StrEnum):
    """The dice of a roll of your own: d6, 2d6, d10, d12, d20, d100 (tens and units, 00 is
    100), nd6 (`count` d6 at once) or custom (`count` dice of `sides` sides each)."""

    D6 = DiceKind.D6.value
    TWO_D6 = DiceKind.TWO_D6.value
    D10 = DiceKind.D10.value
    D12 = DiceKind.D12.value
    D20 = DiceKind.D20.value
    D100 = DiceKind.D100.value
    ND6 = DiceKind.ND6.value
    CUSTOM = DiceKind.CUSTOM.value


class RollDice(Struct, frozen=True, tag="RollDice", kw_only=True):
    """Roll dice for a purpose stated in the player's words."""

    dice: RollKind
    purpose: Annotated[str, Meta(min_length=1, max_length=200)]
    count: Annotated[int, Meta(ge=1, le=100)] = 1
    sides: Annotated[int, Meta(ge=2, le=1000)] = 6


class EndGame(Struct, frozen=True, tag="EndGame", kw_only=True):
    """End the game with a result in the player's words."""

    result: Annotated[str, Meta(min_length=1, max_length=200)]


class TakeBack(Struct, frozen=True, tag="TakeBack", kw_only=True):
    """Take back your most recent command that is not taken back yet."""


class TakebackPolicy(Struct, frozen=True, kw_only=True):
    """What a ruleset allows of takebacks (the `takeback` field of its Ruleset).

    `depth`: how many commands in a row may be taken back (at most MAX_TAKEBACK_DEPTH; 0
    forbids takebacks). `forbidden`: command types that may never be taken back (nor,
    then, anything before them). `reveals`: the ruleset's event types that show the player
    something hidden without being redacted themselves (a counter turned face up); like a
    roll, they block taking back anything before them.
    """

    depth: Annotated[int, Meta(ge=0, le=MAX_TAKEBACK_DEPTH)] = MAX_TAKEBACK_DEPTH
    forbidden: tuple[str, ...] = ()
    reveals: tuple[str, ...] = ()


UNIVERSAL_COMMANDS: tuple[type[Struct], ...] = (RollDice, EndGame, TakeBack)
