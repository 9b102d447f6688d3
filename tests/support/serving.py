"""`umpire serve --workers 2` run by a test: its process and output, and connections
pinned to a worker (each worker names itself in the handshake's X-Umpire-Worker header)."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from pathlib import Path

from websockets.exceptions import InvalidHandshake

from tests.support.embedded_site import environment
from tests.support.processes import REPO, wait_for_port
from umpire.server.embedded import free_port
from umpire.testing.support.peer import Peer

OPERATOR = "workers-test-operator-token"
# The writers send as fast as they are answered: no rate limit or budget may close them.
ENV = {
    "UMPIRE_OPERATOR_TOKEN": OPERATOR,
    "UMPIRE_MAX_MESSAGES_PER_SECOND": "100000",
    "UMPIRE_MAX_BURST": "100000",
    "UMPIRE_COST_PER_SECOND": "1e9",
    "UMPIRE_COST_BURST": "1e9",
    "UMPIRE_ADDRESS_COST_PER_SECOND": "1e9",
    "UMPIRE_ADDRESS_COST_BURST": "1e9",
}
# A connection racing a worker's death or start may fail its handshake: try again.
REFUSED = (OSError, ConnectionError, TimeoutError, InvalidHandshake)


class Serve:
    """`umpire serve --workers 2` on a data directory, its output kept in a file (the
    workers write to it too: a pipe nobody drains would block them)."""

    def __init__(self, data_dir: Path, **env: str) -> None:
        self.port = free_port()
        self.log = data_dir.parent / "serve.log"
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "umpire.server.cli", "serve", "--workers", "2",
                 "--port", str(self.port)],
                cwd=REPO,
                env=environment(data_dir, UMPIRE_WORKERS="", **{**ENV, **env}),
                stdout=out,
                stderr=subprocess.STDOUT,
            )  # fmt: skip
        wait_for_port(self.port)
        self.url = f"ws://127.0.0.1:{self.port}/ws"

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def worker_pids(self) -> list[int]:
        """The workers' pids in worker order, from the banner."""
        deadline = time.monotonic() + 10
        while not (found := re.search(r"2 workers: pids (\d+) (\d+)", self.output())):
            assert time.monotonic() < deadline, self.output()
            time.sleep(0.05)
        return [int(found.group(1)), int(found.group(2))]

    def stop(self) -> str:
        if self.process.poll() is None:
            self.process.terminate()
        try:
            self.process.wait(40)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
        return self.output()


def worker_of(peer: Peer) -> str:
    """The worker that accepted the connection, from the handshake's response header."""
    assert peer.ws.response is not None
    return peer.ws.response.headers["X-Umpire-Worker"]


async def peers_on(url: str, wanted: list[str]) -> list[Peer]:
    """One connection on each of the `wanted` workers (the kernel spreads connections
    over the workers' sockets by their addresses: new ones until each is met; a worker
    still starting is waited for)."""
    found: dict[str, Peer] = {}
    spare: list[Peer] = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if len(spare) >= 20:
            for peer in spare:
                await peer.close()
            spare.clear()
            await asyncio.sleep(0.2)
        try:
            peer = await Peer.open(url)
        except REFUSED:
            await asyncio.sleep(0.1)
            continue
        worker = worker_of(peer)
        if worker in wanted and worker not in found:
            found[worker] = peer
        else:
            spare.append(peer)
        if len(found) == len(wanted):
            break
    for peer in spare:
        await peer.close()
    assert len(found) == len(wanted), f"connections reached only workers {sorted(found)}"
    return [found[w] for w in wanted]
