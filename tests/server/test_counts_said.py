"""A count of one is said in the singular by every audit a newcomer runs: `umpire audit`
(of the store and of an export), `umpire replay` and `verifier/verify_export.py` ("1 server
roll", not "1 server rolls"; tests/viewer/test_verify_page.py holds the browser verifier to
verify_export.py's words)."""

from __future__ import annotations

import json
import re

from umpire.testing.support.forgery import Cli
from umpire.testing.support.verifier import verify

# "1" then a plural noun of the audits' lines ("1 server rolls", "1 receipts are").
ONE_AS_MANY = re.compile(
    r"\b1 (?:server |player |signed |revealed |secret |seed |command )?"
    r"(?:rolls|receipts|commitments|events|commands|epochs|decisions|seeds|batches)\b"
)


def test_one_of_a_kind_is_said_in_the_singular(cli: Cli) -> None:
    # Fails without the fix: "1 server rolls (0 verified), 1 player rolls", "1 rolls were
    # entered", "1 revealed seed(s) match", "2 commands, 1 rolls".
    game = cli.new("counter", {"target": 40})
    cli.send(game, {"type": "Push"})  # one server roll
    cli.send(game, {"type": "RollDice", "dice": "d6", "purpose": "morale"}, dice=[[4]])
    before = cli("audit", game)
    assert before.code == 0, before.err
    flat = " ".join(before.out.split())
    assert "1 server roll (0 verified), 1 player roll" in flat, flat
    assert "pending: 1 server roll awaits the seed reveal before it can be recomputed" in flat
    assert "note: 1 roll was entered by the player (physical dice); it is checked" in flat
    assert cli("reveal", game).code == 0
    audited = cli("audit", game)
    flat = " ".join(audited.out.split())
    assert audited.code == 0 and "1 server roll (1 verified)" in flat, flat
    assert "dice: the one server roll derives from no command's nonce" in flat, flat
    replayed = cli("replay", game, "--at", "4")
    assert replayed.code == 0 and "1 command, 1 roll, in play" in replayed.out, replayed.out
    code, verified = verify(cli.export(game))
    assert code == 0, verified
    assert "1 revealed seed matches its commitment" in verified, verified
    assert "1 server roll recomputed" in verified and "1 player roll;" in verified, verified
    # A game whose only receipt is its creation's (no client seed bound: no bind receipt).
    waived = cli("new", "counter", "--setup", '{"target": 40}', "--waive-client-entropy")
    lone = cli("audit", re.findall(r"created game (\S+)", waived.out)[0])
    said = " ".join(lone.err.split())
    assert "checking against the 1 receipt and 1 commitment this machine kept" in said, said
    for out in (before.out, before.err, audited.out, replayed.out, verified, lone.err):
        assert ONE_AS_MANY.search(" ".join(out.split())) is None, out


def test_readjudicate_of_one_command_says_one_command(cli: Cli) -> None:
    # Fails without the fix: "1 commands re-run, 4 events".
    game = json.loads(cli("new", "nightfighter", "--json").out)["game_id"]
    assert cli("send", game, "MoveBombers").code == 0  # Nightfighter v9's first step
    again = cli("readjudicate", game)
    assert again.code == 0, again.err
    assert ": 1 command re-run, 8 events" in again.out, again.out
