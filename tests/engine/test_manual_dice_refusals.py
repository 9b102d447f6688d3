"""Issue #30 break 9: a refused physical-dice command writes nothing, so its message must
not describe the rest of its rule path. Before, each refusal of an Age of Dogfights
`FlyBots` named the next roll's purpose, rule and dice ("this command needs another roll
(d10 ... for <purpose>, <rule>)"): eleven refusals in a row read the command's rolls one
by one without a die being rolled. Now a refusal says only what was wrong with the dice
given and what is allowed in general."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from umpire.engine.dice import DiceSpec, ManualDice, d6, d100, two_d6
from umpire.engine.errors import ManualDiceError, OpponentDiceRefused
from umpire.engine.game import codec_for
from umpire.events.errors import UmpireError
from umpire.events.types import DiceRolled, Owner
from umpire.server.games import Games
from umpire.testing.support.short_games import opening

PURPOSE, RULE = "SECRET-PURPOSE", "SECRET-RULE 9.9"


def _refusal(attempt: Callable[[], object]) -> UmpireError:
    with pytest.raises((ManualDiceError, OpponentDiceRefused)) as info:
        attempt()
    return info.value


def _said(error: UmpireError) -> str:
    return error.message + " " + json.dumps(error.details, default=str)


@pytest.mark.parametrize(
    "case",
    ["ran out", "wrong number of dice", "not a whole number", "off the die", "opponent's",
     "too many"],
)  # fmt: skip
def test_every_refusal_names_no_purpose_rule_or_dice(case: str) -> None:
    def roll(
        entries: list[list[object]],
        spec: DiceSpec | None = None,
        owner: Owner = Owner.PLAYER,
        opp: bool = True,
    ) -> Callable[[], object]:
        dice = ManualDice(entries, 0, opponent_dice=opp)  # type: ignore[arg-type]
        return lambda: dice.roll(spec or d6(), purpose=PURPOSE, rule=RULE, owner=owner)

    attempts: dict[str, Callable[[], object]] = {
        "ran out": roll([]),
        "wrong number of dice": roll([[4]], two_d6()),
        "not a whole number": roll([[True]]),
        "off the die": roll([[10, 0]], d100()),
        "opponent's": roll([[3]], owner=Owner.OPPONENT, opp=False),
        "too many": lambda: ManualDice([[1], [2]], 0).check_all_used(),
    }
    said = _said(_refusal(attempts[case]))
    for secret in (PURPOSE, RULE, "d6", "d10", "2d6", "1..6", "0..9"):
        assert secret not in said, said


def test_running_out_is_judged_before_whose_roll_it_is() -> None:
    """Fewer dice than rolls: the refusal is the same whoever's the next roll is."""
    for owner in Owner:
        dice = ManualDice([], 0, opponent_dice=False)
        error = _refusal(lambda: dice.roll(d6(), purpose=PURPOSE, rule=RULE, owner=owner))  # noqa: B023
        assert isinstance(error, ManualDiceError) and "ran out" in error.message


async def test_probing_fly_bots_with_dice_previews_none_of_its_rolls(games: Games) -> None:
    setup, _ = opening("age_of_dogfights")
    created = await games.create("age_of_dogfights", setup, opponent_manual_dice=True)
    gid = created.game_id
    await games.handle(gid, "setup", {"type": "RollSetup"})
    head = await games.store.version(gid)
    said: list[str] = []
    for count in range(13):
        try:
            await games.handle(gid, f"probe-{count}", {"type": "FlyBots"},
                               manual_dice=[[1]] * count)  # fmt: skip
        except (ManualDiceError, OpponentDiceRefused) as error:
            said.append(_said(error))
        else:
            break
    assert len(said) >= 2, said  # the probes were refused, so they could have previewed
    assert await games.store.version(gid) == head  # and wrote nothing
    # What the rolls of FlyBots are: none of it was in any refusal.
    result = await games.handle(gid, "fly", {"type": "FlyBots"})
    ruleset, _ = await games.load(gid)
    codec = codec_for(ruleset)
    rolls = [
        event
        for env in await games.store.read(gid, result.first_seq, result.last_seq)
        if isinstance(event := codec.decode(env.type, env.version, env.payload), DiceRolled)
    ]
    assert rolls
    for roll in rolls:
        for text in said:
            assert roll.purpose not in text and roll.rule not in text, text


@pytest.mark.parametrize(("entered", "spec", "said"), [
    ([[4]], two_d6(), "has 1 die, too few: that roll takes 2 dice"),
    ([[4, 2]], d6(), "has 2 dice, too many: that roll takes 1 die"),
    ([[1, 2, 3]], d100(), "has 3 dice, too many: that roll takes 2 dice"),
])  # fmt: skip
def test_an_entry_with_the_wrong_number_of_dice_is_told_how_many_that_roll_takes(
    entered: list[list[int]], spec: DiceSpec, said: str
) -> None:
    dice = ManualDice(entered, 0)
    error = _refusal(lambda: dice.roll(spec, purpose=PURPOSE, rule=RULE, owner=Owner.PLAYER))
    assert isinstance(error, ManualDiceError) and said in error.message, error.message
    assert error.details["takes"] == len(spec.sides)


def test_too_many_rolls_is_told_how_many_the_command_made() -> None:
    dice = ManualDice([[1], [2], [3]], 0)
    dice.roll(d6(), purpose=PURPOSE, rule=RULE, owner=Owner.PLAYER)
    error = _refusal(dice.check_all_used)
    assert "3 rolls were entered" in error.message and "it made 1" in error.message
    assert error.details["made"] == 1


def test_one_roll_too_many_is_said_in_the_singular() -> None:
    """`umpire send` of a command that rolls nothing, with one roll entered, said "1 rolls
    were entered" (red team 9)."""
    error = _refusal(lambda: ManualDice([[1]], 0).check_all_used())
    assert error.message.startswith("1 roll was entered, more than"), error.message
