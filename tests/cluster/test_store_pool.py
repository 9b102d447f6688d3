"""The store's connection pool: a burst beyond its size waits for a free connection rather
than failing, and a pool held busy for too long fails as `store_unavailable`."""

from __future__ import annotations

import asyncio
import time

import pytest
import redis.asyncio as aioredis
from redis.exceptions import MaxConnectionsError

from umpire.events.errors import StoreUnavailable
from umpire.events.redis_store import RedisEventStore, WaitingConnectionPool
from umpire.server.embedded import EmbeddedRedis


def small_store(url: str, prefix: str, size: int, wait: float) -> RedisEventStore:
    pool = WaitingConnectionPool.from_url(url, max_connections=size, wait_timeout=wait)
    return RedisEventStore(aioredis.Redis.from_pool(pool), prefix=prefix)


async def test_a_burst_beyond_the_pool_waits_and_all_succeed(
    redis_server: EmbeddedRedis, prefix: str
) -> None:
    store = small_store(redis_server.url, prefix, 4, 10.0)
    try:
        versions = await asyncio.gather(*(store.version(f"g{i}") for i in range(300)))
        assert versions == [0] * 300
        assert len(store.redis.connection_pool._in_use_connections) == 0
        assert len(store.redis.connection_pool._available_connections) <= 4
    finally:
        await store.close()


async def test_a_pool_busy_past_its_wait_fails_as_store_unavailable(
    redis_server: EmbeddedRedis, prefix: str
) -> None:
    store = small_store(redis_server.url, prefix, 2, 0.2)
    blockers = [
        asyncio.create_task(store.redis.xread({f"{prefix}:idle{i}": "$"}, block=1500))
        for i in range(2)
    ]
    await asyncio.sleep(0.1)
    try:
        started = time.monotonic()
        with pytest.raises(StoreUnavailable, match="MaxConnectionsError"):
            await store.version("g")
        # It waited for a free connection first (a lower bound: load cannot break it).
        assert time.monotonic() - started > 0.15
        with pytest.raises(MaxConnectionsError):
            await store.redis.ping()
    finally:
        await asyncio.gather(*blockers)
        await store.close()
