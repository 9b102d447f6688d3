"""`umpire send --dice` as a careless or hostile player at the terminal: faces that are not
whole numbers are refused before anything is written.

On the previous commit `--dice '[[true]]'` was taken (Python's True is 1) and wrote a
DiceRolled whose faces the log's decoder refuses (`Expected int, got bool`): every later
command, `log`, `state` and `audit` of that game failed with `corrupt_event` for good.
Other shapes (`[1,2]`, `"abc"`, `[["a"]]`) ended in a TypeError traceback. The gateway
already refused them all (its wire type is `list[list[int]]`)."""

from __future__ import annotations

import pytest

from umpire.engine.dice import ManualDice, d6
from umpire.engine.errors import ManualDiceError
from umpire.events.types import Owner
from umpire.testing.support.forgery import Cli

ROLL = '{"type": "RollDice", "dice": "d6", "purpose": "morale"}'


@pytest.mark.parametrize(
    "dice", ["[[true]]", "[[1.0]]", '[["4"]]', "[1, 2]", '"abc"', "{}", "[[null]]", "[[4]"]
)
def test_dice_of_the_wrong_shape_are_refused_and_write_nothing(cli: Cli, dice: str) -> None:
    game = cli.new("counter", {"target": 40})
    before = cli("log", game, "--json").out
    refused = cli("send", game, ROLL, "--dice", dice)
    assert refused.code == 2, refused.err
    assert "error (manual_dice): --dice must be JSON: a list of rolls" in refused.err
    assert cli("log", game, "--json").out == before
    # The game is still whole: the next roll, with sound dice, goes through and audits.
    accepted = cli("send", game, ROLL, "--dice", "[[4]]")
    assert accepted.code == 0, accepted.err
    assert cli("audit", game).code == 0


@pytest.mark.parametrize("face", [True, False, 4.0, "4"])
def test_the_engine_refuses_a_face_that_is_not_an_int(face: object) -> None:
    # Any caller of the store path (a script, a test, a tool) is held to the same shape.
    dice = ManualDice([[face]], next_roll=0)  # type: ignore[list-item]
    with pytest.raises(ManualDiceError, match="is not a whole number"):
        dice.roll(d6(), purpose="morale", rule="test", owner=Owner.PLAYER)
