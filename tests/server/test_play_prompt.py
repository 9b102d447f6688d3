"""`umpire play` at a terminal prompts for each line (`umpire> `); with its commands piped in
it prints no prompt, so a script's output holds the answers alone."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

from tests.support.processes import REPO, client_env, start_gateway
from umpire.clients import UmpireClient
from umpire.server.embedded import EmbeddedRedis


async def test_a_terminal_gets_a_prompt_and_a_pipe_none(
    redis_server: EmbeddedRedis, prefix: str, tmp_path: Path
) -> None:
    # Fails without the fix: at a terminal, nothing said it waited for a command.
    gateway, port = start_gateway(redis_server.url, prefix)
    url = f"ws://127.0.0.1:{port}/ws"
    env = client_env(tmp_path)
    try:
        async with UmpireClient(url) as owner:
            created = await owner.create("counter", {"target": 1000})
        argv = [sys.executable, "-m", "umpire.server.cli", "play", "--url", url,
                "--credential", created.player_credential]  # fmt: skip
        leader, follower = pty.openpty()
        try:
            os.write(leader, b"Add amount=2\nquit\n")
            at_terminal = subprocess.run(
                argv, stdin=follower, capture_output=True, text=True, timeout=60, env=env,
                cwd=REPO,
            )  # fmt: skip
        finally:
            os.close(leader)
            os.close(follower)
        assert at_terminal.returncode == 0, at_terminal.stderr
        assert at_terminal.stdout.count("umpire> ") >= 2, at_terminal.stdout
        assert "accepted: seqs" in at_terminal.stdout, at_terminal.stdout
        piped = subprocess.run(
            argv, input="Add amount=2\n", capture_output=True, text=True, timeout=60, env=env,
            cwd=REPO,
        )  # fmt: skip
        assert piped.returncode == 0 and "accepted: seqs" in piped.stdout, piped.stderr
        assert "umpire> " not in piped.stdout, piped.stdout
    finally:
        gateway.terminate()
        gateway.wait(20)
