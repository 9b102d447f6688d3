"""A command refused for a field, as a wargamer reads it at `umpire send` (and `play`, and
the table, which show the same message): a missing field by its words with every field the
command takes, and a number that stands for something (Nightfighter's facing) with what
each value means, never msgspec's "Object missing required field"."""

from __future__ import annotations

from umpire.testing.support.forgery import Cli


def test_a_missing_field_and_a_coded_number_are_said_in_words(cli: Cli) -> None:
    # Fails without the fix: "MoveFighter command is not valid: Object missing required
    # field facing" named neither the other fields nor what facing takes, and
    # "facing=N" was told "allowed: 0 to 5" with no word of which side each number is.
    created = cli("new", "nightfighter", "--json")
    assert created.code == 0, created.err
    game = created.out.split('"game_id": "', 1)[1].split('"', 1)[0]
    assert cli("send", game, "MoveBombers").code == 0  # v9 opens at turn 1's bombers' move
    missing = cli("send", game, "MoveFighter", "fighter=F1", "path=1019")
    assert missing.code == 2, missing
    assert "Object missing" not in missing.err, missing.err
    assert "facing is missing; it takes fighter, path, facing; optional: exit" in missing.err
    coded = cli("send", game, "MoveFighter", "fighter=F1", "path=1019", "facing=N")
    assert coded.code == 2, coded
    assert "allowed: 0 to 5 (the hex side faced, clockwise from the top" in coded.err, coded.err
    assert "0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW" in coded.err, coded.err
    rolled = cli("send", game, "RollDice", "dice=2d6")
    assert "purpose is missing; it takes dice, purpose; optional: count, sides" in rolled.err
