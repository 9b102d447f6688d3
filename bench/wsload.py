"""The load generator's parts: gateway subprocesses and a lean websocket client.

Gateways run as `python -m umpire.server.cli serve` subprocesses, so the load generator never
shares their event loop or their core's time slices within one interpreter. The client
decodes only the few fields it needs (msgspec skips the rest), so one Python process can
drive thousands of connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import resource
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect

from umpire.server.embedded import free_port

REPO = Path(__file__).resolve().parents[1]
OPERATOR = "bench-operator-" + "k" * 24


class Reply(msgspec.Struct):
    """The fields of a server message the benchmarks read (all others are skipped)."""

    type: str
    id: str | None = None
    game_id: str | None = None
    seq: int | None = None
    command_id: str | None = None
    player_credential: str | None = None
    head: int | None = None
    seqs: list[int] | None = None
    code: str | None = None
    message: str | None = None


_decode = msgspec.json.Decoder(Reply).decode
_encode = msgspec.json.Encoder().encode


def raise_open_files(want: int = 65536) -> int:
    """Raise RLIMIT_NOFILE (inherited by the gateways we start) as far as allowed."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = min(want, hard) if hard != resource.RLIM_INFINITY else want
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gateway exited with {process.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise TimeoutError(f"gateway on {port} did not listen in {timeout}s")


class GatewayProcess:
    """One `umpire serve` subprocess on a free loopback port."""

    def __init__(
        self,
        redis_url: str | None,
        log_dir: Path,
        *,
        prefix: str,
        cluster: bool = False,
        workers: int | None = 1,
    ):
        """`redis_url` None: `umpire serve` runs its embedded Valkey in `log_dir`/data, as
        a deployment does; `workers` None: its default number of workers."""
        self.port = free_port()
        self.workers = workers
        env = {
            **os.environ,
            "REDIS_URL": redis_url or "",
            "UMPIRE_DATA_DIR": str(log_dir / "data"),
            "UMPIRE_REDIS_CLUSTER": "true" if cluster else "false",
            "UMPIRE_PORT": str(self.port),
            "UMPIRE_PREFIX": prefix,
            "UMPIRE_OPERATOR_TOKEN": OPERATOR,
            "UMPIRE_EXTRA_RULESETS": "umpire_counter:RULESET",
            "UMPIRE_MAX_CONNECTIONS_PER_ADDRESS": "100000",
            "UMPIRE_MAX_MESSAGES_PER_SECOND": "100000",
            "UMPIRE_MAX_BURST": "100000",
            "UMPIRE_MAX_SUBSCRIPTIONS": "100000",
            # The load generator is one loopback address standing in for thousands of
            # clients: the per-address and per-connection budgets (docs/operations.md,
            # Admission) are lifted as the per-address connection limit is above.
            "UMPIRE_COST_PER_SECOND": "1e9",
            "UMPIRE_COST_BURST": "1e9",
            "UMPIRE_ADDRESS_COST_PER_SECOND": "1e9",
            "UMPIRE_ADDRESS_COST_BURST": "1e9",
            "UMPIRE_CREATES_PER_MINUTE": "1e9",
            "UMPIRE_CREATE_BURST": "1e9",
            "UMPIRE_MAX_GRANTS_PER_CONNECTION": "100000",
            "PYTHONPATH": str(REPO),
            # One gateway process unless told: bench/workers.py measures more.
            "UMPIRE_WORKERS": str(workers or ""),
        }
        self.log = open(log_dir / f"gateway-{self.port}.log", "wb")  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, "-m", "umpire.server.cli", "serve"],
            cwd=REPO,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_for_port(self.port, self.process)
        except BaseException:
            self.stop()
            raise

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def worker_pids(self, timeout: float = 30.0) -> list[int]:
        """The gateway processes: the workers' pids from the parent's banner (`umpire
        serve --workers N`), or the one process."""
        if self.workers == 1:
            return [self.process.pid]
        log = Path(self.log.name)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.log.flush()
            for line in log.read_text(errors="replace").splitlines():
                if "workers: pids " in line:
                    return [int(p) for p in line.split("workers: pids ")[1].rstrip(")").split()]
            time.sleep(0.05)
        raise TimeoutError("the workers' banner did not come")

    def collector(self) -> dict[str, list[float]]:
        """The gateway's garbage-collector figures from /metrics: collections, and the
        longest pause in seconds, per generation."""
        import re
        import urllib.request

        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=10) as r:
            text = r.read().decode()

        def per_generation(name: str) -> list[float]:
            found = re.findall(rf'^{name}{{generation="(\d)"}} (\S+)$', text, re.M)
            return [float(v) for _, v in sorted(found)]

        return {
            "collections": per_generation("umpire_gc_collections_total"),
            "longest_pause_s": per_generation("umpire_gc_pause_longest_seconds"),
        }

    def rss(self) -> int:
        """Resident memory of the gateway process, in bytes (Linux: /proc, no psutil)."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise RuntimeError("no VmRSS in /proc: memory figures need Linux")

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it lingers."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.log.close()


class CpuMeter:
    """CPU used by given processes, and by the whole machine, between start and stop
    (Linux /proc): the limit a throughput figure is measured against."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids
        self._tick = os.sysconf("SC_CLK_TCK")

    def _process(self, pid: int) -> float:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / self._tick  # utime + stime

    def _machine(self) -> tuple[float, float, float]:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
        # guest time is counted inside user time already: only the first 8 columns add up.
        values = values[:8]
        idle = values[3] + values[4]  # idle + iowait
        steal = values[7]  # time the hypervisor gave our virtual CPUs to someone else
        return (sum(values) - idle) / self._tick, sum(values) / self._tick, steal / self._tick

    def start(self) -> None:
        """Take the first reading."""
        self._wall = time.perf_counter()
        self._before = [self._process(p) for p in self.pids]
        self._machine_before = self._machine()

    def stop(self) -> dict[str, float]:
        """Cores used by the processes (together), the machine's busy fraction, and the
        fraction of it the hypervisor stole for other machines (a noisy host)."""
        wall = time.perf_counter() - self._wall
        used = sum(self._process(p) for p in self.pids) - sum(self._before)
        busy, total, steal = (
            a - b for a, b in zip(self._machine(), self._machine_before, strict=True)
        )
        return {
            "gateway_cores": round(used / wall, 2),
            "machine_busy": round(busy / total, 2) if total else 0.0,
            "machine_steal": round(steal / total, 3) if total else 0.0,
        }


# The move a closed loop sends, by ruleset: the counter's `Add` (the counter logs `Added`
# and the bot's d6), or what ../shared/peer-bench's umpire adapter sends (adapters.js): a
# Downtown game from its default scenario, `RollDice` d6 (the command and the roll).
BENCH_MOVES: dict[str, dict[str, Any]] = {
    "counter": {"type": "Add", "amount": 1},
    "downtown": {"type": "RollDice", "dice": "d6", "purpose": "bench"},
}


class Conn:
    """One websocket: requests matched to replies by id, event frames to a callback."""

    _ids = itertools.count(1)

    def __init__(self) -> None:
        self.ws: ClientConnection | None = None
        self.pending: dict[str, asyncio.Future[Reply]] = {}
        self.on_event: Callable[[Reply, float], None] | None = None
        self.reader: asyncio.Task[None] | None = None
        self.moves: dict[str, dict[str, Any]] = {}

    @classmethod
    async def open(cls, url: str) -> Conn:
        """Connect and read the welcome."""
        conn = cls()
        conn.ws = await connect(url, max_size=None, open_timeout=30)
        await conn.ws.recv()
        conn.reader = asyncio.create_task(conn._read())
        return conn

    async def _read(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                now = time.perf_counter()
                reply = _decode(raw)
                if reply.type == "event":
                    if self.on_event is not None:
                        self.on_event(reply, now)
                elif reply.id is not None:
                    future = self.pending.pop(reply.id, None)
                    if future is not None and not future.done():
                        future.set_result(reply)
        for future in self.pending.values():
            if not future.done():
                future.set_exception(ConnectionError("connection closed"))

    async def request(self, message: dict[str, Any], timeout: float = 30.0) -> Reply:
        """Send `message` and wait for its reply; error replies raise."""
        assert self.ws is not None
        request_id = f"r{next(self._ids)}"
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self.pending[request_id] = future
        await self.ws.send(_encode({**message, "id": request_id}).decode())
        reply = await asyncio.wait_for(future, timeout)
        if reply.type == "error":
            raise RuntimeError(f"{reply.code}: {reply.message}")
        return reply

    async def create(self, target: int = 1_000_000, ruleset: str = "counter") -> str:
        """Create a game of `ruleset` (this connection becomes its player) and bind a client
        seed to its dice, as the clients do (docs/audit.md 4.1); its id. A counter game
        runs to `target`; any other ruleset starts from its default scenario (`setup: {}`,
        as the peer bench creates its Downtown games), and `move` sends its BENCH_MOVES."""
        setup = {"target": target} if ruleset == "counter" else {}
        reply = await self.request({"type": "create", "ruleset": ruleset, "setup": setup})
        assert reply.game_id is not None
        self.moves[reply.game_id] = BENCH_MOVES[ruleset]
        await self.request(
            {"type": "bind_seed", "game_id": reply.game_id, "client_seed": secrets.token_hex(16)}
        )
        return reply.game_id

    async def add(self, game_id: str, command_id: str) -> Reply:
        """One `Add` command (the counter ruleset logs `Added` and the bot's reply)."""
        return await self.request(
            {
                "type": "command",
                "game_id": game_id,
                "command_id": command_id,
                "command": {"type": "Add", "amount": 1},
                # The command's own entropy, as the umpire clients send it (a game that
                # binds client entropy refuses a command without one: docs/security.md).
                "nonce": secrets.token_hex(16),
            }
        )

    async def move(self, game_id: str, command_id: str) -> Reply:
        """One bench move in a game this connection created: its ruleset's BENCH_MOVES."""
        return await self.request(
            {
                "type": "command",
                "game_id": game_id,
                "command_id": command_id,
                "command": self.moves[game_id],
                "nonce": secrets.token_hex(16),
            }
        )

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(BaseException):
                await self.reader


async def open_many(url: str, count: int, batch: int = 100) -> list[Conn]:
    """`count` connections, opened `batch` at a time."""
    conns: list[Conn] = []
    for start in range(0, count, batch):
        n = min(batch, count - start)
        conns.extend(await asyncio.gather(*(Conn.open(url) for _ in range(n))))
    return conns


async def close_all(conns: list[Conn]) -> None:
    for start in range(0, len(conns), 200):
        await asyncio.gather(*(c.close() for c in conns[start : start + 200]))


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by nearest rank; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))
    return ordered[index]
