"""`python -m bench hostile_clients`: a well-behaved client's round trip while waves of
peers that misbehave at the socket (vanish or stall mid-frame, never answer a ping, never
read: testing/support/hostile_peers.py) hit the gateway. Goal: its worst round trip under
2 s, with more than 20 commands answered across the waves.

One Valkey, one gateway process with the tight limits those peers need to be closed
quickly (HOSTILE_ENV), a 1,200-event game the never-reading peers subscribe to, WAVES waves
of PER_KIND peers of each kind. Prints the client's p50/p99/max, how many commands it sent
and how long each wave took to close. tests/faults/test_hostile_clients.py checks the
behaviour (every peer closed, memory flat, the client answered through every wave), not
this speed.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.hostile import summary
from bench.wsload import REPO, wait_for_port
from umpire.engine.roles import Role
from umpire.events.redis_store import RedisEventStore
from umpire.server import credentials
from umpire.server.embedded import EmbeddedRedis, free_port
from umpire.server.games import Games
from umpire.testing.support.hostile_peers import HOSTILE_ENV, open_connections, wave
from umpire.testing.support.peer import Peer

PER_KIND = 25
WAVES = 3
CLOSE_WITHIN = 120.0  # a generous bound on each wave's wait
GOAL_WORST_SECONDS = 2.0
GOAL_LEAST_COMMANDS = 20
PREFIX = "bhc"


async def _measure(port: int, long_game: str, spectate: str) -> dict[str, Any]:
    url = f"ws://127.0.0.1:{port}/ws"
    good = await Peer.open(url)
    created = await good.ok({"type": "create", "ruleset": "counter", "client_entropy": "waived",
                             "setup": {"target": 10**6}})  # fmt: skip
    gid = created["game_id"]
    samples: list[float] = []
    stop = asyncio.Event()

    async def steady() -> None:
        while not stop.is_set():
            began = time.perf_counter()
            await good.ok({"type": "command", "game_id": gid, "command_id": f"g{len(samples)}",
                           "command": {"type": "Add", "amount": 1}})  # fmt: skip
            samples.append(time.perf_counter() - began)
            await asyncio.sleep(0.05)  # a steady player's pace

    worker = asyncio.create_task(steady())
    baseline = await open_connections(port)
    closing = [
        round(await wave(port, long_game, spectate, baseline, PER_KIND, CLOSE_WITHIN), 2)
        for _ in range(WAVES)
    ]
    stop.set()
    await asyncio.wait_for(worker, 60)
    await good.close()
    return {"client": summary(samples), "wave_close_seconds": closing}


async def run() -> dict[str, Any]:
    """The measurement: figures as a dict (ms, s)."""
    with tempfile.TemporaryDirectory(prefix="umpire-bench-hostile-clients-") as name:
        tmp = Path(name)
        server = EmbeddedRedis(tmp / "redis", appendfsync="everysec").start()
        store = RedisEventStore.from_url(server.url, prefix=PREFIX)
        gateway: subprocess.Popen[bytes] | None = None
        try:
            games = Games(store)
            long_game = (await games.create("counter", {"target": 10**6})).game_id
            for i in range(600):  # 1,200 events: more than a never-reading peer's buffers
                await games.handle(long_game, f"fill{i}", {"type": "Add", "amount": 1})
            spectate = await credentials.issue(store, long_game, Role.SPECTATOR)
            port = free_port()
            env = {**os.environ, **HOSTILE_ENV, "REDIS_URL": server.url,
                   "UMPIRE_PORT": str(port), "UMPIRE_PREFIX": PREFIX,
                   "UMPIRE_EXTRA_RULESETS": "umpire_counter:RULESET",
                   "PYTHONPATH": str(REPO), "UMPIRE_WORKERS": "1"}  # fmt: skip
            with open(tmp / "gateway.log", "wb") as log:  # a file: an undrained pipe blocks
                gateway = subprocess.Popen(
                    [sys.executable, "-m", "umpire.server.cli", "serve"],
                    cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
                )  # fmt: skip
            wait_for_port(port, gateway)
            figures = await _measure(port, long_game, spectate)
        finally:
            if gateway is not None:
                gateway.terminate()
                gateway.wait(20)
            await store.close()
            server.stop()
    return {**figures, "machine_load_1min": round(os.getloadavg()[0], 2)}


def rows(figures: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(figure, measured, goal) for the table."""
    s = figures["client"]
    return [
        (f"well-behaved client beside {WAVES} waves of {4 * PER_KIND} hostile peers",
         f"p50 {s.get('p50_ms')} / p99 {s.get('p99_ms')} / max {s.get('max_ms')} ms "
         f"(n={s.get('n')})",
         f"max < {GOAL_WORST_SECONDS * 1000:g} ms, n > {GOAL_LEAST_COMMANDS} "
         f"(load now {figures['machine_load_1min']})"),
        ("seconds to close each wave", ", ".join(map(str, figures["wave_close_seconds"])),
         "— (ping 1 s + timeout 1 s + slow consumer 1 s + close 1 s)"),
    ]  # fmt: skip
