"""A cluster node's full connection pool makes a command wait, not fail
(events/redis_store.py `WaitingRedisCluster`): redis-py's cluster client raises
MaxConnectionsError at once, which turned a burst of creates on a loaded machine into
`store_unavailable` (CI, 2026-11-29)."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import MaxConnectionsError

from bench.cluster import LocalCluster
from umpire.events.redis_store import WaitingRedisCluster


async def _burst(client: RedisCluster, prefix: str) -> list[object]:
    # One key (one slot, one node): 40 commands at once on a pool of 2, once the client
    # knows the slots (a burst during redis-py's first initialisation is another matter:
    # the store's first calls are made before a gateway serves).
    key = f"{prefix}:{{burst}}:n"
    await client.initialize()
    try:
        return list(await asyncio.gather(*(client.incr(key) for _ in range(40))))
    finally:
        await client.aclose()


async def test_a_burst_past_a_nodes_pool_waits_for_a_connection(
    cluster: LocalCluster, prefix: str
) -> None:
    waiting = WaitingRedisCluster.from_url(cluster.url, max_connections=2)
    answers = await _burst(waiting, prefix + "w")
    assert sorted(answers) == list(range(1, 41))  # every command ran, once


async def test_the_plain_cluster_client_fails_the_same_burst(
    cluster: LocalCluster, prefix: str
) -> None:
    # The condition the waiting client exists for: without it the burst fails.
    plain = RedisCluster.from_url(cluster.url, max_connections=2)
    with pytest.raises(MaxConnectionsError):
        await _burst(plain, prefix + "p")
