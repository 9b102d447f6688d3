"""Cluster fixtures: a real 3-master Valkey cluster on loopback ports, one per session."""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator, Iterator

import pytest

from bench.cluster import LocalCluster
from umpire.events.redis_store import RedisEventStore
from umpire.server.config import Settings
from umpire.server.store_access import make_store


@pytest.fixture(scope="session")
def cluster() -> Iterator[LocalCluster]:
    """Three masters, slots split evenly by `valkey-cli --cluster create`."""
    with tempfile.TemporaryDirectory(prefix="umpire-test-cluster-") as tmp:
        local = LocalCluster(tmp, masters=3).start()
        try:
            yield local
        finally:
            local.stop()


@pytest.fixture
async def cluster_store(cluster: LocalCluster, prefix: str) -> AsyncIterator[RedisEventStore]:
    """A store on the cluster through redis-py's asyncio RedisCluster (make_store)."""
    store = make_store(cluster.url, Settings(cluster=True, prefix=prefix))
    # The slot map loaded first, as a gateway's start-up does (events/redis_channels.py):
    # redis-py's first initialisation under a burst of commands closes connections in use.
    await store.redis.initialize()
    try:
        yield store
    finally:
        await store.close()
