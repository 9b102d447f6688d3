"""`python -m bench cluster_follow`: how soon a gateway's feed delivers a game's next events
after the game's slot moved to another master. Goal: under 0.5 s (a notification on the new
master, not the 1 s version poll, brings them).

A three-master LocalCluster (bench/cluster.py) and one in-process gateway, as
tests/cluster/test_cluster_gateway.py runs them; RUNS times: a game is created, its slot
migrated to another master, and once the feed has followed the channel there, one Push is
sent and the time until the subscriber holds its three events is taken. That test checks
the behaviour (with the poll stopped, the events still arrive), not this speed.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.cluster import LocalCluster
from umpire.clients import UmpireClient
from umpire.events.redis_channels import ShardChannels
from umpire.server.app import running_gateway
from umpire.testing.support.gateways import gateway_settings

GOAL_SECONDS = 0.5
RUNS = 5
PREFIX = "bcf"
WITHIN = 30.0  # a generous bound on each wait


async def _until(condition: Any, what: str) -> None:
    deadline = time.monotonic() + WITHIN
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        await asyncio.sleep(0.002)


async def _one(cluster: LocalCluster, client: UmpireClient, shards: ShardChannels, n: int) -> float:
    """Seconds from the Push after the move to its last event at the subscriber."""
    created = await client.create("counter", {"target": 1_000_000}, client_entropy="waived")
    slot = cluster.slot_of(f"{PREFIX}:{{{created.game_id}}}")
    seen: list[int] = []

    async def watch() -> None:
        async for frame in client.subscribe(created.game_id, 0):
            seen.append(frame.seq)

    watcher = asyncio.create_task(watch())
    try:
        await client.send(created.game_id, {"type": "Push"}, command_id=f"before{n}")
        await _until(lambda: len(seen) >= 4, "the first Push delivered")
        target = next(p for p in cluster.ports if p != cluster.owner(slot))
        await asyncio.to_thread(cluster.migrate_slot, slot, target)
        channel = f"{PREFIX}:{{{created.game_id}}}:appended"
        await _until(lambda: shards.channels.get(channel) == f"127.0.0.1:{target}",
                     "the feed following the slot")  # fmt: skip
        started = time.perf_counter()
        await client.send(created.game_id, {"type": "Push"}, command_id=f"after{n}")
        await _until(lambda: len(seen) >= 7, "the Push after the move delivered")
        return time.perf_counter() - started
    finally:
        watcher.cancel()


async def run() -> dict[str, Any]:
    """The measurement: seconds for each of RUNS moves."""
    with tempfile.TemporaryDirectory(prefix="umpire-bench-cluster-follow-") as tmp:
        cluster = LocalCluster(Path(tmp) / "cluster", masters=3).start()
        try:
            settings = gateway_settings(PREFIX, cluster=True)
            async with (
                running_gateway(settings, cluster.url) as gw,
                UmpireClient(f"ws://127.0.0.1:{gw.port}/ws") as client,
            ):
                shards = gw.gateway.notifier.channels
                assert isinstance(shards, ShardChannels)
                seconds = [await _one(cluster, client, shards, n) for n in range(RUNS)]
        finally:
            cluster.stop()
    return {"seconds": [round(s, 3) for s in seconds],
            "median_seconds": round(statistics.median(seconds), 3),
            "max_seconds": round(max(seconds), 3),
            "machine_load_1min": round(os.getloadavg()[0], 2)}  # fmt: skip


def rows(figures: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(figure, measured, goal) for the table."""
    return [
        (f"feed after its slot moved master: next events ({RUNS} moves)",
         f"median {figures['median_seconds']} / max {figures['max_seconds']} s",
         f"< {GOAL_SECONDS:g} s (load now {figures['machine_load_1min']})"),
    ]  # fmt: skip
