"""`umpire log --as spectator` prints no hash over a view the spectator may not see.

Under its table `umpire log` prints the receipt of the head (server/render.py
`receipt_lines`): the head and the state hash of a role's view, SHA-256 over the seq, the
head hash and the view, with no blind. On main it printed the player's and the spectator's
whatever the role asked for, so the spectator's own output held a hash of the player's
view: in Down in Flames the player sees their own pilots' characteristics (9.1.11), the
spectator does not, and one who knows the rest of the player's view (all of it public: the
spectator's GameCreated, the head hash each frame carries) tries each pilot quality until
the hash matches, the attack docs/audit.md 8.4 blinds a receipt's leaves against. All
through the real `umpire` command line on the suite's Valkey.
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
from umpire.engine.game import apply, codec_for, start
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
    """What the spectator can compute from what it sees: the player's state hash at the
    head for each pilot quality a1 may have, its GameCreated completed with the guess."""
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
        for seq, event in enumerate(events[1:], start=2):
            game = apply(ruleset, game, event, seq=seq)
        view = view_for(ruleset, game.state, Role.PLAYER, revealed=False)
        head = records[-1]
        guesses[quality] = receipt_state_hash(head["seq"], head["hash"], view)
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
    assert len(set(guesses.values())) == len(QUALITIES)  # each guess makes its own view
    printed = _umpire(env, "log", game, "--as", "spectator")
    assert "state hash (spectator)" in printed
    found = [q for q, digest in guesses.items() if digest in HASH.findall(printed)]
    assert not found, (
        f"umpire log --as spectator printed the hash of the player's view, which names "
        f"a1's pilot as {found}:\n{printed}"
    )
