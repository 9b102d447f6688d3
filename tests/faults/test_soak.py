"""A compressed soak: steady mixed load (commands, subscriptions, views, connection churn)
on a real gateway subprocess for a bounded time, with its memory (RSS) and every
command's latency sampled. No command fails, every subscriber sees every event and memory
shows no growth trend. The latency is printed, not asserted (it is the machine's speed):
the round trip under steady load is `python -m bench`'s "round trip @ 1,000 cmd/s" row
(bench/path.py), printed beside its goal (p99 < 10 ms). The default suite runs a few
seconds; the long form is `pytest -m soak` (UMPIRE_SOAK_SECONDS, default 300). Keep it at
200 s or more: the gateway's memory grows for its first ~100 s while the shared game's
2,048-event feed window and the caches fill (measured: 50 -> 91 MiB, then flat within
20 KiB to 300 s), so a shorter run's growth check still sees the warm-up (120 s: 14.7 MiB,
a failure)."""

from __future__ import annotations

import asyncio
import os
import statistics
import time

import pytest

from tests.support.fleet import GatewayProcess, gateways
from umpire.events.redis_store import RedisEventStore
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.gateways import http_get
from umpire.testing.support.peer import Peer

CLIENTS = 10
RATE = 20.0  # commands per second per client


class Load:
    """The clients of one soak and what they measured."""

    def __init__(self, gateway: GatewayProcess, seconds: float, least: int = 0) -> None:
        self.gateway = gateway
        self.seconds = seconds
        self.least = least  # commands each client sends at least, however long it takes
        self.latencies: list[float] = []
        self.rss: list[tuple[float, int]] = []
        self.games: list[str] = []
        self.peers: list[Peer] = []
        self.churned = 0

    async def client(self, n: int, shared: str, shared_credential: str) -> None:
        peer = await Peer.open(self.gateway.url)
        self.peers.append(peer)
        created = await peer.ok({"type": "create", "client_entropy": "waived", "ruleset": "counter",
                                 "setup": {"target": 10**6}})  # fmt: skip
        gid = created["game_id"]
        self.games.append(gid)
        await peer.ok({"type": "subscribe", "game_id": gid, "from_seq": 0})
        await peer.ok({"type": "subscribe", "game_id": shared, "from_seq": 0,
                       "credential": shared_credential})  # fmt: skip
        end = time.monotonic() + self.seconds
        i = 0
        while time.monotonic() < end or i < self.least:
            target = shared if i % 4 == 0 else gid
            began = time.monotonic()
            await peer.ok({"type": "command", "game_id": target, "command_id": f"c{n}-{i}",
                           "command": {"type": "Add", "amount": 1}})  # fmt: skip
            self.latencies.append(time.monotonic() - began)
            if i % 25 == 0:
                await peer.ok({"type": "view", "game_id": gid})
            i += 1
            await asyncio.sleep(max(0.0, began + 1 / RATE - time.monotonic()))

    async def churn(self) -> None:
        """Short-lived connections: connect, create, play a little, go."""
        end = time.monotonic() + self.seconds
        while time.monotonic() < end:
            peer = await Peer.open(self.gateway.url)
            created = await peer.ok(
                {"type": "create", "client_entropy": "waived", "ruleset": "counter", "setup": {}}
            )
            await peer.ok({"type": "subscribe", "game_id": created["game_id"], "from_seq": 0})
            for j in range(3):
                await peer.ok({"type": "command", "game_id": created["game_id"],
                               "command_id": f"x{j}", "command": {"type": "Push"}})  # fmt: skip
            await peer.close()
            self.churned += 1
            await asyncio.sleep(0.1)

    async def sample(self) -> None:
        start = time.monotonic()
        while time.monotonic() - start < self.seconds:
            self.rss.append((time.monotonic() - start, self.gateway.rss_kib()))
            await asyncio.sleep(0.25)


async def metric(port: int) -> dict[str, float]:
    """The gateway's unlabelled metrics."""
    _, body = await http_get(port, "/metrics")
    pairs = (line.split() for line in body.splitlines() if line and not line.startswith("#"))
    return {p[0]: float(p[1]) for p in pairs if len(p) == 2 and "{" not in p[0]}


def growth_kib(samples: list[tuple[float, int]]) -> float:
    """RSS growth over the run after warm-up: median of the last quarter of the samples
    minus the median of the second quarter."""
    values = [kib for _, kib in samples]
    q = max(1, len(values) // 4)
    return statistics.median(values[-q:]) - statistics.median(values[q : 2 * q])


async def soak(
    redis_url: str, prefix: str, store: RedisEventStore, seconds: float, least: int = 0
) -> Load:
    with gateways(redis_url, prefix, 1) as (gateway,):
        owner = await Peer.open(gateway.url)
        shared = await owner.ok({"type": "create", "client_entropy": "waived", "ruleset": "counter",
                                 "setup": {"target": 10**6}})  # fmt: skip
        load = Load(gateway, seconds, least)
        await asyncio.wait_for(
            asyncio.gather(
                *(load.client(n, shared["game_id"], shared["player_credential"])
                  for n in range(CLIENTS)),
                load.churn(),
                load.sample(),
            ),
            seconds + 60,
        )  # fmt: skip
        for gid in [shared["game_id"], *load.games]:
            head = await store.version(gid)
            for peer in load.peers:
                if any(f.get("game_id") == gid for f in peer.frames if f["type"] == "subscribed"):
                    await peer.wait_for(lambda f, g=gid, h=head: f["type"] == "event"
                                        and f["game_id"] == g and f["seq"] == h, 10)  # fmt: skip
                    assert [e["seq"] for e in peer.events(gid)] == list(range(1, head + 1))
        errors = [f for p in load.peers for f in p.frames if f["type"] == "error"]
        assert not errors, errors[:3]
        for peer in [owner, *load.peers]:
            await peer.close()
        assert gateway.process.poll() is None
        # Every subscription of a closed connection is gone (a pump that outlived its
        # connection once leaked and held shutdown forever).
        deadline = time.monotonic() + 10
        while (gauges := await metric(gateway.port))["umpire_subscriptions"] != 0:
            assert time.monotonic() < deadline, gauges
            await asyncio.sleep(0.1)
        assert gauges["umpire_connections_open"] == 0
        gateway.process.terminate()
        assert await asyncio.to_thread(gateway.process.wait, 15) == 0  # a prompt drain
    return load


def report(load: Load) -> float:
    """Print what the soak measured; the memory growth after warm-up (KiB)."""
    lat = sorted(load.latencies)
    p99 = lat[int(len(lat) * 0.99) - 1]
    growth = growth_kib(load.rss)
    print(
        f"\nsoak {load.seconds:.0f} s: {len(lat)} commands, {load.churned} churned connections, "
        f"latency p50 {statistics.median(lat) * 1000:.1f} ms p99 {p99 * 1000:.1f} ms "
        f"max {lat[-1] * 1000:.1f} ms; RSS {load.rss[0][1]} -> {load.rss[-1][1]} KiB, "
        f"growth after warm-up {growth:.0f} KiB"
    )
    return growth


async def test_compressed_soak_short(
    redis_server: EmbeddedRedis, prefix: str, store: RedisEventStore
) -> None:
    # At least half the commands 4 s at RATE would give, however slow the machine: a
    # loaded 2-core runner served 314 in 4 s (the soak then proved too little, and the
    # count was asserted on the machine's speed); the clients now keep on until they have
    # sent them, and the time only bounds the run from below.
    least = int(RATE * 4 * 0.5)
    load = await soak(redis_server.url, prefix, store, 4.0, least)
    growth = report(load)
    assert len(load.latencies) >= CLIENTS * least
    assert growth < 6 * 1024


@pytest.mark.soak
async def test_compressed_soak_long(
    redis_server: EmbeddedRedis, prefix: str, store: RedisEventStore
) -> None:
    seconds = float(os.environ.get("UMPIRE_SOAK_SECONDS", "300"))
    load = await soak(redis_server.url, prefix, store, seconds)
    growth = report(load)
    assert growth < 8 * 1024
