"""`umpire new`, `reveal`, `bind`, `log` and `audit` across seed epochs (docs/audit.md (4.1))."""

from __future__ import annotations

import json
import re

from umpire.testing.support.forgery import Cli


def _log_text(cli: Cli, game: str) -> str:
    """`umpire log` as words: its table's borders and cell wrapping removed."""
    result = cli("log", game)
    assert result.code == 0, result.err
    return " ".join(re.sub(r"[\u2500-\u257f]", " ", result.out).split())


def test_the_command_line_binds_rotates_and_shows_the_epochs(cli: Cli) -> None:
    created = cli("new", "counter", "--setup", '{"target": 1000}', "--json")
    assert created.code == 0
    out = json.loads(created.out)
    game = out["game_id"]
    assert out["client_entropy"] == "bind" and len(out["client_seed"]) == 32
    cli.send(game, {"type": "Push"})
    revealed = cli("reveal", game)
    assert revealed.code == 0 and "seed epoch 1" in revealed.out
    assert f"before its next roll: umpire bind {game}" in " ".join(revealed.out.split())
    refused = cli("send", game, json.dumps({"type": "Push"}))
    assert refused.code == 2 and "client_seed_required" in refused.err
    # The command line's way to bind, with the game's id (the rules' refusal names the
    # protocol's bind_seed message, which a command line user does not send).
    said = " ".join(refused.err.split())
    assert f"from the command line: umpire bind {game}, then send the command again" in said
    bound = cli("bind", game, "mine")
    assert bound.code == 0 and "client seed mine bound" in bound.out
    cli.send(game, {"type": "Push"})
    log = _log_text(cli, game)
    assert "client seed to be bound" in log
    assert "client seed 'mine' bound for seed epoch 1" in log
    assert "seed of epoch 0 revealed" in log
    bound_at_2 = " ".join(cli("explain", game, "2").out.split())
    assert "bound its client seed for seed epoch 0" in bound_at_2
    rotated = " ".join(cli("explain", game, "6").out.split())
    assert "seed of seed epoch 0 while the game goes on" in rotated
    audited = cli("audit", game)
    assert audited.code == 0 and "2 server rolls (1 verified)" in audited.out
    assert "dice: 2 seed epochs, client seeds bound after each commitment" in audited.out


def test_a_waived_game_says_so_in_log_and_audit(cli: Cli) -> None:
    game = cli.new("counter", {"target": 1000})  # forgery.Cli waives client entropy
    cli.send(game, {"type": "Push"})
    assert "client entropy waived" in _log_text(cli, game)
    assert "client entropy waived at creation" in cli("audit", game).out
    refused = cli("bind", game)
    assert refused.code == 2 and "waiv" in refused.err
