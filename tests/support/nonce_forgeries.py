"""An export whose commands carry nonces (issue #30 item 5), and its forged nonces: one copy
for tests/audit/test_nonce_forgery.py and the browser verifier's agreement test."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from umpire.testing.support.forgery import Cli

Payload = dict[str, Any]

# Twenty dice in the forged command's roll: the derivation without the true nonce matches
# them by chance with odds of 6**-20 (a single d6 would, one time in six).
TWENTY_DICE = {"type": "RollDice", "dice": "nd6", "count": 20, "purpose": "twenty dice"}


def rolled_game(cli: Cli) -> str:
    """A counter game that binds client entropy (`umpire new` binds a fresh client seed,
    `umpire send` adds a fresh nonce to each command): seq 1 created, 2 the client seed
    bound, 3 the roll command (with its nonce), 4 its roll, 5-7 a push, then the reveal."""
    result = cli("new", "counter", "--json", "--setup", json.dumps({"target": 1000}))
    assert result.code == 0, result.err
    game = str(json.loads(result.out)["game_id"])
    cli.send(game, TWENTY_DICE)
    cli.send(game, {"type": "Push"})
    assert cli("reveal", game).code == 0
    return game


def changed_nonce(payload: Payload) -> None:
    """A CommandRecorded payload's nonce, one hex digit changed."""
    nonce = payload["nonce"]
    payload["nonce"] = ("1" if nonce[0] != "1" else "2") + nonce[1:]


def dropped_nonce(payload: Payload) -> None:
    """A CommandRecorded payload's nonce, removed."""
    del payload["nonce"]


NONCE_TAMPERS: dict[str, Callable[[Payload], None]] = {
    "changed": changed_nonce,
    "dropped": dropped_nonce,
}
