"""`umpire serve --workers N` prints "umpire serving on ..." once it serves: a script (or
an operator) that waits for the banner and then connects is answered, where the banner
came before any worker listened (6 s before, on a loaded host)."""

from __future__ import annotations

import socket
import subprocess
import sys

from tests.support.processes import REPO
from umpire.server.embedded import EmbeddedRedis, free_port


def test_the_banner_comes_once_a_worker_listens(redis_server: EmbeddedRedis, prefix: str) -> None:
    # Fails without the fix: the connection right after the banner was refused
    # (ECONNREFUSED): the parent printed it as soon as it had started the workers.
    port = free_port()
    env = {"REDIS_URL": redis_server.url, "UMPIRE_PREFIX": prefix, "UMPIRE_PORT": str(port),
           "UMPIRE_WORKERS": "2", "PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}  # fmt: skip
    serve = subprocess.Popen(
        [sys.executable, "-m", "umpire.server.cli", "serve"],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        assert serve.stdout is not None
        seen = []
        for line in serve.stdout:  # the log's lines, then the banner
            seen.append(line)
            if line.startswith("umpire serving on"):
                break
        assert seen and seen[-1].startswith("umpire serving on"), seen
        with socket.create_connection(("127.0.0.1", port), timeout=10):
            pass  # refused, without the fix, until a worker listened
    finally:
        serve.terminate()
        serve.wait(40)
