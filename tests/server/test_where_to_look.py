"""Where to look next: `umpire readings RULESET` says each reading is argued in the
ruleset's own README, not "README.md" (a newcomer opens the project's and finds nothing),
a game not found names `umpire games`, and `umpire new` alone the rulesets."""

from __future__ import annotations

from umpire.testing.support.forgery import Cli


def test_each_reading_names_the_rulesets_readme(cli: Cli) -> None:
    # Fails without the fix: "argued in README.md, Ledger of readings: 3.3.1".
    listed = cli("readings", "downtown")
    assert listed.code == 0, listed.err
    argued = [line.strip() for line in listed.out.splitlines() if "argued in" in line]
    assert argued, listed.out
    assert all(line.startswith("argued in the downtown ruleset's README.md") for line in argued)


def test_a_game_not_found_says_where_to_look(cli: Cli) -> None:
    # Fails without the fix: "error (game_not_found): no game 'g0000'" alone, where the
    # usual cause is a mistyped id or another store than the one that made the game.
    missing = cli("state", "g0000")
    assert missing.code == 2, missing
    assert "no game 'g0000'; umpire games lists the games of this store" in missing.err


def test_new_without_a_ruleset_names_them(cli: Cli) -> None:
    # Fails without the fix: "umpire new: error: the following arguments are required:
    # ruleset", naming none.
    alone = cli("new")
    assert alone.code == 2, alone
    assert "umpire new needs a ruleset, one of: " in alone.err, alone.err
    assert "nightfighter" in alone.err and "e.g. umpire new " in alone.err, alone.err
