"""The game's rolls as a player counts them, from 1: `umpire send`, `log` and `explain`
say "roll 1" for the game's first roll, never the log's field count "roll #0" (the
export's `roll` field and the audit, which check that field, keep counting from 0)."""

from __future__ import annotations

import json

from umpire.testing.support.forgery import Cli


def test_the_first_roll_is_roll_1(cli: Cli) -> None:
    # Fails without the fix: "roll #0 2d6 [4 2] = 6 (player) for flak", "roll #1 ...".
    game = json.loads(cli("new", "nightfighter", "--json").out)["game_id"]
    first = cli("send", game, "RollDice", "dice=2d6", "purpose=flak", "--dice", "[[4,2]]")
    assert first.code == 0, first.err
    assert "roll 1: 2d6 [4 2] = 6 (player) for flak" in first.out, first.out
    second = cli("send", game, "RollDice", "dice=d6", "purpose=morale")
    assert "roll 2: d6 [" in second.out, second.out
    log = cli("log", game, "--json")
    rolls = [json.loads(line) for line in log.out.splitlines() if '"DiceRolled"' in line]
    assert [r["payload"]["roll"] for r in rolls] == [0, 1]  # the field counts from 0
    for said in (first.out, second.out, cli("log", game).out):
        assert "roll #" not in said and "roll 0" not in said, said
