"""`umpire log` and `replay --at` as the spectator print no hash over what the spectator
may not see.

Under its table `umpire log` prints the receipt of the head (server/render.py
`receipt_lines`): the head and the state hash of a role's view, SHA-256 over the seq, the
head hash and the view, with no blind. On main it printed the player's and the spectator's
whatever the role asked for, so the spectator's own output held a hash of the player's
view: in Down in Flames the player sees their own pilots' characteristics (9.1.11), the
spectator does not, and one who knows the rest of the player's view (all of it public: the
spectator's GameCreated, the head hash each frame carries) tries each pilot quality until
the hash matches, the attack docs/audit.md 8.4 blinds a receipt's leaves against. On
main `replay --at` printed the hash of the whole game (every secret in it) whatever the
role, which the same guesses matched. All through the real `umpire` command line on the
suite's Valkey.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tests.support.processes import REPO
from umpire.engine import registry
from umpire.engine.game import Game, apply, codec_for, start, state_hash
from umpire.engine.redaction import view_for
from umpire.engine.roles import Role
from umpire.events.receipt import receipt_state_hash
from umpire.events.types import GameCreated
from umpire.server.embedded import EmbeddedRedis

NAME = "down_in_flames"
QUALITIES = ("recruit", "green", "regular", "veteran", "ace")
HASH = re.compile(r"\b[0-9a-f]{64}\b")


def _umpire(env: dict[str, str], *argv: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "umpire.server.cli", *argv], capture_output=True, text=True,
        timeout=120, env=env, cwd=REPO,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _setup(quality: str) -> dict[str, Any]:
    """One plane a side; the player's own (a1) flown by a pilot of `quality`."""
    return {
        "aircraft": [
            {"id": "a1", "aircraft": "Spitfire", "side": "A", "element": "A",
             "station": "leader", "hand": 6, "pilot_quality": quality},
            {"id": "b1", "aircraft": "Bf 109", "side": "B", "element": "B",
             "station": "leader", "hand": 6},
        ],
        "starting_altitude": 5,
    }  # fmt: skip


def _guessed_hashes(records: list[dict[str, Any]]) -> dict[str, str]:
    """What the spectator can compute from what it sees, for each pilot quality a1 may
    have (its GameCreated completed with the guess): the player's state hash at the head,
    and the hash of the whole game there."""
    ruleset = registry.get(NAME)
    codec = codec_for(ruleset)
    events = [
        codec.decode(r["type"], r["version"], msgspec.msgpack.encode(r["payload"])) for r in records
    ]
    created = events[0]
    assert isinstance(created, GameCreated)
    guesses = {}
    for quality in QUALITIES:
        guess = [dict(plane) for plane in created.setup["aircraft"]]
        guess[0]["pilot_quality"] = quality
        setup = {**created.setup, "aircraft": guess}
        game = start(ruleset, msgspec.structs.replace(created, setup=setup))
        for record, event in zip(records[1:], events[1:], strict=True):
            game = apply(ruleset, game, event, seq=record["seq"])
            meta = msgspec.structs.replace(game.meta, seq=record["seq"], last_hash=record["hash"])
            game = Game(meta, game.state)
        view = view_for(ruleset, game.state, Role.PLAYER, revealed=False)
        head = records[-1]
        guesses[quality] = receipt_state_hash(head["seq"], head["hash"], view)
        guesses[f"{quality} (whole game)"] = state_hash(game)
    return guesses


@pytest.mark.parametrize("quality", ["green", "ace"])
def test_the_spectators_log_holds_no_hash_of_the_players_view(
    redis_server: EmbeddedRedis, prefix: str, tmp_path: Path, quality: str
) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO), "REDIS_URL": redis_server.url,
           "UMPIRE_PREFIX": prefix, "COLUMNS": "400", "UMPIRE_DATA_DIR": str(tmp_path)}  # fmt: skip
    setup = json.dumps(_setup(quality))
    game = json.loads(_umpire(env, "new", NAME, "--json", "--setup", setup))["game_id"]
    logged = _umpire(env, "log", game, "--as", "spectator", "--json")
    seen = [json.loads(line) for line in logged.splitlines()]
    assert "pilot_quality" not in json.dumps(seen[0]["payload"])  # the spectator's GameCreated
    guesses = _guessed_hashes(seen)
    assert len(set(guesses.values())) == 2 * len(QUALITIES)  # each guess its own hashes
    printed = _umpire(env, "log", game, "--as", "spectator")
    assert "state hash (spectator)" in printed
    found = [q for q, digest in guesses.items() if digest in HASH.findall(printed)]
    assert not found, (
        f"umpire log --as spectator printed the hash of the player's view, which names "
        f"a1's pilot as {found}:\n{printed}"
    )


@pytest.mark.parametrize("quality", ["green", "ace"])
def test_replay_as_the_spectator_prints_no_hash_of_the_whole_game(
    redis_server: EmbeddedRedis, prefix: str, tmp_path: Path, quality: str
) -> None:
    """`replay --at` printed the hash of the whole game (every secret in it) whatever the
    role it showed: now the state hash of the role's view, as its receipt holds it."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "REDIS_URL": redis_server.url,
           "UMPIRE_PREFIX": prefix, "COLUMNS": "400", "UMPIRE_DATA_DIR": str(tmp_path)}  # fmt: skip
    setup = json.dumps(_setup(quality))
    game = json.loads(_umpire(env, "new", NAME, "--json", "--setup", setup))["game_id"]
    logged = _umpire(env, "log", game, "--as", "spectator", "--json")
    seen = [json.loads(line) for line in logged.splitlines()]
    guesses = _guessed_hashes(seen)
    head = str(seen[-1]["seq"])
    printed = _umpire(env, "replay", game, "--at", head, "--as", "spectator")
    printed += _umpire(env, "replay", game, "--at", head, "--as", "spectator", "--json")
    found = [q for q, digest in guesses.items() if digest in HASH.findall(printed)]
    assert not found, f"umpire replay --as spectator names a1's pilot as {found}:\n{printed}"
    # What it prints instead: the spectator's own receipt of that seq, as `log` says it.
    receipt = re.search(r"state hash \(spectator\): ([0-9a-f]{64})", _umpire(env, "log", game))
    assert receipt is None  # the player's log shows the player's receipt alone
    mine = _umpire(env, "log", game, "--as", "spectator")
    receipt = re.search(r"state hash \(spectator\): ([0-9a-f]{64})", mine)
    assert receipt is not None and f"state hash {receipt.group(1)}" in printed
