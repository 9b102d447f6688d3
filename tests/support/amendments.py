"""Counter games amended twice (issue 40: a second dispute and amendment on the current
line, after the first amendment or behind it), played on to their natural end: the
set-ups `umpire audit`, verify_export.py and the /verify page are each checked against
(tests/disputes/test_dispute_cli.py, tests/support/verify_page.py)."""

from __future__ import annotations

import json

from umpire.testing.support.forgery import Cli

TARGET = 40
# Seqs: 1 created; 2-4 and 5-7 pushes (3 and 6 their rolls); 8-9 the first dispute (of
# seq 3) and its finding; 10 its amend ruling, 11 GameAmended (parts_from 2,
# superseded_to 9), 12-17 the two pushes re-applied (13 and 16 their rolls); 18-20 a push;
# 21-22 the second dispute (of seq 16, in the amended line) and its finding; 23 its
# amend ruling, 24 GameAmended (parts_from 15, superseded_to 22), 25-30 the two pushes
# re-applied from there (26 and 29 their rolls); then Adds up to the target.
FIRST_RULING = 10
SECOND_RULING = 23
SECOND_LINE_ROLL = 26


def amended_twice(cli: Cli) -> str:
    """The game (client entropy waived, so the seqs above hold), ended; its id."""
    game = cli.new("counter", {"target": TARGET})
    cli.send(game, {"type": "Push"})
    cli.send(game, {"type": "Push"})
    assert cli("dispute", game, "3", "--claim", "the roll").code == 0
    ruled = cli("rule", game, "8", "amend")
    assert ruled.code == 0, ruled.err
    cli.send(game, {"type": "Push"})
    assert cli("dispute", game, "16", "--claim", "the roll again").code == 0
    ruled = cli("rule", game, "21", "amend")
    assert ruled.code == 0, ruled.err
    play_to_the_end(cli, game)
    return game


def amended_behind(cli: Cli) -> str:
    """A game whose second amendment returns behind its first (before its parts_from, on
    the current line); not ended. Seqs: 2-4 and 5-7 pushes; 8-9 a dispute of seq 6 and its
    finding; 10 its amend ruling, 11 GameAmended (parts_from 5), 12-14 the push
    re-applied; 15-16 a dispute of seq 3; 17 its amend ruling, 18 GameAmended (parts_from
    2, superseded_to 16), 19-24 the push at seq 2 and the one at 12-14 re-applied."""
    game = cli.new("counter", {"target": TARGET})
    cli.send(game, {"type": "Push"})
    cli.send(game, {"type": "Push"})
    assert cli("dispute", game, "6", "--claim", "the second roll").code == 0
    assert cli("rule", game, "8", "amend").code == 0
    assert cli("dispute", game, "3", "--claim", "the first roll").code == 0
    ruled = cli("rule", game, "15", "amend")
    assert ruled.code == 0, ruled.err
    return game


def play_to_the_end(cli: Cli, game: str) -> None:
    """Add up to the target: the game ends as its rules end it (R4)."""
    while True:
        shown = cli("state", game, "--json")
        assert shown.code == 0, shown.err
        state = json.loads(shown.out)
        if state["ended"]:
            return
        cli.send(game, {"type": "Add", "amount": min(6, TARGET - state["view"]["total"])})
