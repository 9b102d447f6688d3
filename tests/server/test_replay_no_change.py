"""`umpire replay GAME --diff A B` where nothing the role sees changed says so in one line,
not with an empty table under "0 changes"; one change is "1 change"."""

from __future__ import annotations

from umpire.testing.support.forgery import Cli, counter_game


def test_a_diff_with_nothing_changed_says_so(cli: Cli) -> None:
    # Fails without the fix: "0 changes from seq 2 to seq 2, as the player" over a table
    # of headers alone.
    game = counter_game(cli)
    same = cli("replay", game, "--diff", "2", "2")
    assert same.code == 0, same.err
    assert same.out.strip() == f"game {game}: nothing the player sees changed from seq 2 to seq 2"
    some = cli("replay", game, "--diff", "1", "9")
    assert some.code == 0 and "changes from seq 1 to seq 9, as the player" in some.out
