"""`umpire watch` and `umpire play` run for a long time, and a process's command line is
readable by every local user (/proc/PID/cmdline, `ps`): a credential given with
`--credential` there lets another local user command the player's game. They also take
it from UMPIRE_CREDENTIAL, which only the owner can read (/proc/PID/environ is 0400)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support.processes import REPO, start_gateway
from tests.support.waiting import until_sync
from umpire.clients import UmpireClient
from umpire.server.embedded import EmbeddedRedis


async def test_watch_and_play_take_the_credential_from_the_environment(
    redis_server: EmbeddedRedis, prefix: str
) -> None:
    # Fails on the previous commit: argparse requires --credential (exit 2).
    gateway, port = start_gateway(redis_server.url, prefix)
    url = f"ws://127.0.0.1:{port}/ws"
    env = {**os.environ, "PYTHONPATH": str(REPO),
           "UMPIRE_EXTRA_RULESETS": "umpire_counter:RULESET"}  # fmt: skip
    try:
        async with UmpireClient(url) as owner:
            created = await owner.create("counter", {"target": 1000}, client_entropy="waived")
        play = subprocess.Popen(
            [sys.executable, "-m", "umpire.server.cli", "play", "--url", url],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**env, "UMPIRE_CREDENTIAL": created.player_credential}, cwd=REPO,
        )  # fmt: skip
        # While it runs (it waits for its stdin), its command line (what another local user
        # sees) has no secret.
        cmdline = Path(f"/proc/{play.pid}/cmdline")
        until_sync(
            lambda: "umpire.server.cli" in cmdline.read_bytes().decode(),
            what="`umpire play` running",
        )
        seen = cmdline.read_bytes().decode()
        assert play.poll() is None and created.player_credential not in seen
        out, err = play.communicate('{"type": "Add", "amount": 2}\n', timeout=60)
        assert play.returncode == 0, err
        assert "accepted: seqs 2..3" in out, out
        watch = subprocess.run(
            [sys.executable, "-m", "umpire.server.cli", "watch", "--url", url, "--limit", "3"],
            capture_output=True, text=True, timeout=60, cwd=REPO,
            env={**env, "UMPIRE_CREDENTIAL": created.spectator_credential},
        )  # fmt: skip
        assert watch.returncode == 0, watch.stderr
        assert "as spectator" in watch.stdout
    finally:
        gateway.terminate()
        gateway.wait(20)


def test_watch_without_any_credential_says_where_to_put_one() -> None:
    env = {k: v for k, v in os.environ.items() if k != "UMPIRE_CREDENTIAL"}
    result = subprocess.run(
        [sys.executable, "-m", "umpire.server.cli", "watch", "--url", "ws://127.0.0.1:9/ws"],
        capture_output=True, text=True, timeout=60, cwd=REPO,
        env={**env, "PYTHONPATH": str(REPO), "COLUMNS": "400"},
    )  # fmt: skip
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "set UMPIRE_CREDENTIAL" in result.stderr and "--credential" in result.stderr
