"""Real server processes for tests: `umpire serve` as a subprocess on a free port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from umpire.server.embedded import free_port

REPO = Path(__file__).resolve().parents[2]


def wait_for_port(port: int, timeout: float = 20.0, host: str = "127.0.0.1") -> None:
    """Wait until something accepts connections on `port` (of `host`)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port}")


def start_gateway(redis_url: str, prefix: str, **env: str) -> tuple[subprocess.Popen[bytes], int]:
    """Start `python -m umpire.server.cli serve` against `redis_url`; returns (process, port)."""
    port = free_port()
    environment = {
        **os.environ,
        "REDIS_URL": redis_url,
        "UMPIRE_PORT": str(port),
        "UMPIRE_PREFIX": prefix,
        "UMPIRE_EXTRA_RULESETS": "umpire_counter:RULESET",
        "PYTHONPATH": str(REPO),
        "UMPIRE_WORKERS": "1",  # one gateway process (tests of --workers set more)
        **env,
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "umpire.server.cli", "serve"],
        cwd=REPO,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for_port(port)
    except TimeoutError:
        process.kill()
        output = process.communicate(timeout=5)[0].decode(errors="replace")
        raise RuntimeError(f"gateway did not start: {output[-3000:]}") from None
    return process, port


def client_env(data_dir: Path) -> dict[str, str]:
    """The environment of a CLI client process (`umpire play`, `watch`, `send`) in the
    tests: this checkout's modules, a private data folder for its receipts, the counter
    ruleset known, and a wide terminal, so that no line wraps (a nonce of random hex could
    start a wrapped line with digits and read as an event's seq)."""
    return {**os.environ, "PYTHONPATH": str(REPO), "UMPIRE_DATA_DIR": str(data_dir),
            "UMPIRE_EXTRA_RULESETS": "umpire_counter:RULESET", "COLUMNS": "400"}  # fmt: skip


def umpire_out(env: dict[str, str], *argv: str, typed: str = "") -> str:
    """What `umpire ARGV...` prints, run as a client process with `env` (client_env) and
    `typed` on its standard input (play's lines); it must exit 0."""
    done = subprocess.run(
        [sys.executable, "-m", "umpire.server.cli", *argv],
        input=typed, capture_output=True, text=True, timeout=60, env=env, cwd=REPO,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout
