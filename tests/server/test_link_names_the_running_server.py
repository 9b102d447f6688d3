"""`umpire new`'s viewer link, and `umpire play`'s gateway without --url, name the running
`umpire serve` of the data directory, started with `--port` while UMPIRE_PORT is unset
(server/public_address.py: it publishes its address in `<data dir>/gateway.url`); with
no server running, the link names UMPIRE_PORT's default and says nothing serves it yet."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.processes import REPO, client_env, umpire_out, wait_for_port
from umpire.server.embedded import EmbeddedRedis, free_port


def test_the_link_names_the_port_serve_was_started_with(
    redis_server: EmbeddedRedis, prefix: str, tmp_path: Path
) -> None:
    # Fails without the fix: the link read http://127.0.0.1:8765/#game=... (UMPIRE_PORT's
    # default) while the server served --port's, and play tried 8765 ("nothing answers").
    env = {**client_env(tmp_path), "REDIS_URL": redis_server.url, "UMPIRE_PREFIX": prefix,
           "UMPIRE_WORKERS": "1"}  # fmt: skip
    env.pop("UMPIRE_PORT", None)
    port = free_port()
    assert port != 8765
    serve = subprocess.Popen(
        [sys.executable, "-m", "umpire.server.cli", "serve", "--port", str(port)],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_for_port(port)
        created = json.loads(umpire_out(env, "new", "counter", "--json"))
        assert created["viewer"].startswith(f"http://127.0.0.1:{port}/#game="), created
        said = umpire_out(env, "new", "counter")
        assert f"viewer (player)      http://127.0.0.1:{port}/#game=" in said, said
        assert "no umpire serve runs" not in said, said
        played = umpire_out(
            env, "play", "--credential", created["player_credential"], typed="state\n"
        )
        assert f"game {created['game_id']} at seq 2, in play" in played, played
    finally:
        serve.terminate()
        serve.wait(20)
    assert not os.path.exists(tmp_path / "gateway.url")  # gone with its server
    said = umpire_out(env, "new", "counter")
    assert "viewer (player)      http://127.0.0.1:8765/#game=" in said, said
    assert "(no umpire serve runs for this data directory yet" in said, said


def test_a_killed_servers_address_names_nothing(
    redis_server: EmbeddedRedis, prefix: str, tmp_path: Path
) -> None:
    # A server killed with no time to remove its file: its pid is gone, so is its address.
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait(20)
    (tmp_path / "gateway.url").write_text(f"{dead.pid} http://127.0.0.1:1/\n")
    env = {**client_env(tmp_path), "REDIS_URL": redis_server.url, "UMPIRE_PREFIX": prefix}
    env.pop("UMPIRE_PORT", None)
    said = umpire_out(env, "new", "counter")
    assert "http://127.0.0.1:1/" not in said, said
    assert "viewer (player)      http://127.0.0.1:8765/#game=" in said, said
