"""README.md's account of `umpire state GAME`: the lines it quotes are what the command
prints for the README's own first game (`umpire new nightfighter`, then `MoveBombers`
brings the first counters on). It quoted `counters:`, `- hex: 0403`, `level: high`, which
the command has not printed since the view was put in the ruleset's words."""

from __future__ import annotations

import json
import re

from tests.support.processes import REPO
from umpire.testing.support.forgery import Cli


def quoted_state_lines() -> list[str]:
    """The `...` fragments of README.md's sentence on `umpire state GAME`'s lines."""
    text = " ".join((REPO / "README.md").read_text().split())
    sentence = re.search(r"`umpire state GAME` prints the view as .*?\)", text)
    assert sentence is not None, "README.md no longer describes `umpire state GAME`"
    inside = sentence.group(0).split("(", 1)[1]
    return re.findall(r"`([^`]+)`", inside)


def test_the_readme_quotes_what_umpire_state_prints(cli: Cli) -> None:
    # Fails without the fix: README.md quoted `counters:` and `level: high`.
    created = cli("new", "nightfighter", "--json", "--waive-client-entropy")  # scenario 4B
    assert created.code == 0, created.err
    game = json.loads(created.out)["game_id"]
    cli.send(game, {"type": "MoveBombers"})  # Nightfighter v9 opens at the bombers' move
    result = cli("state", game)
    assert result.code == 0, result.err
    lines = [line.strip().removeprefix("- ") for line in result.out.splitlines()]
    quoted = quoted_state_lines()
    assert len(quoted) >= 3, quoted
    for fragment in quoted:
        assert any(line.startswith(fragment) for line in lines), (fragment, result.out)
