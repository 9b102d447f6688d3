"""Real gateway subprocesses for fault tests: started, drained and killed by the test."""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.processes import start_gateway


class GatewayProcess:
    """`umpire serve` as a child; its output is drained in a thread (a full pipe would
    block the server) and kept for failure messages."""

    def __init__(self, redis_url: str, prefix: str, **env: str) -> None:
        self.process, self.port = start_gateway(redis_url, prefix, **env)
        self.url = f"ws://127.0.0.1:{self.port}/ws"
        self.output: list[str] = []
        self._drain = threading.Thread(target=self._read, daemon=True)
        self._drain.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line.decode(errors="replace"))
            del self.output[:-200]

    @property
    def pid(self) -> int:
        return self.process.pid

    def rss_kib(self) -> int:
        """Resident memory of the gateway process (VmRSS, KiB)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError("no VmRSS")

    def kill(self) -> None:
        """kill -9."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it lingers."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()


@contextmanager
def gateways(redis_url: str, prefix: str, count: int, **env: str) -> Iterator[list[GatewayProcess]]:
    """`count` gateways on one Redis; all are stopped (or killed) on exit."""
    started: list[GatewayProcess] = []
    try:
        for _ in range(count):
            started.append(GatewayProcess(redis_url, prefix, **env))
        yield started
    finally:
        for g in started:
            g.stop()
