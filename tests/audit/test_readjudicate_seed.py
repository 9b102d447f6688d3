"""Re-adjudication never exposes an unrevealed seed (issue #16 item 8): the copy is stored
without its original's seed, so revealing, exporting or rolling on the copy cannot publish or
use it, with or without --operator."""

from __future__ import annotations

import json

import redis

from umpire.events.redis_keys import game_keys
from umpire.testing.support.forgery import Cli, counter_game


def _secret(cli: Cli, game: str) -> bytes | None:
    client = redis.Redis.from_url(cli.redis_url)
    try:
        raw = client.get(game_keys(game, cli.prefix).secret)
    finally:
        client.close()
    return None if raw is None else bytes(raw)


def test_a_copy_of_an_unrevealed_game_cannot_reveal_or_export_its_seed(cli: Cli) -> None:
    game = counter_game(cli, reveal=False)
    original_seed = _secret(cli, game)
    assert original_seed is not None
    report = json.loads(cli("readjudicate", game, "--json").out)
    copy = report["new_game_id"]
    assert report["difference"] is None and copy == f"{game}-r1"
    assert _secret(cli, copy) is None  # the copy holds no seed at all
    attempts = {
        "reveal": cli("reveal", copy),
        "export": cli("export", copy),
        "export --operator": cli("export", copy, "--operator"),
        "send": cli("send", copy, json.dumps({"type": "Push"})),
    }
    for what, result in attempts.items():
        assert result.code == 2, (what, result)
        shown = result.out + result.err
        assert original_seed.decode() not in shown, what
        assert "reveal it first (umpire reveal" not in shown, what
    assert "no dice seed of its own" in attempts["reveal"].err
    assert "reveal the original" in attempts["export"].err
    assert "no dice seed of its own" in attempts["send"].err
    # Nothing was appended to the copy, and the original still holds its secret, unrevealed.
    log = cli("log", copy, "--json")
    assert log.code == 0 and "SeedRevealed" not in log.out
    assert _secret(cli, game) == original_seed
    assert "SeedRevealed" not in cli("log", game, "--json").out


def test_a_copy_of_a_revealed_game_carries_the_published_seed_only(cli: Cli) -> None:
    game = counter_game(cli)  # revealed: its log publishes the seed of its rolls
    report = json.loads(cli("readjudicate", game, "--json").out)
    copy = report["new_game_id"]
    assert _secret(cli, copy) is None
    audited = cli("audit", copy)
    # the hidden roll is checked at the end (its key is the sealing key: issue #30 item 4)
    assert audited.code == 0 and "3 server rolls (2 verified)" in audited.out
    exported = cli("export", copy)  # refused: its hidden roll is sealed until the end
    assert exported.code != 0 and exported.out == ""
    # The original's current seed (its next epoch's, committed by the reveal) is in no output.
    current = _secret(cli, game)
    assert current is not None and current.decode() not in exported.out + exported.err
