"""Acknowledged appends survive a kill -9 of the embedded server (appendfsync always), and
a tail sees 10,000 concurrent appends with no gap and no repeat."""

from __future__ import annotations

import asyncio

from umpire.events.redis_store import RedisEventStore
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.store_contract import NOW, append, create, pending


async def test_acknowledged_appends_survive_kill_9_and_restart(tmp_path) -> None:
    server = EmbeddedRedis(tmp_path, appendfsync="always").start()
    try:
        store = RedisEventStore.from_url(server.url)
        await create(store, "durable")
        acknowledged = 1
        for i in range(300):
            result = await append(
                store, "durable", pending(2), expected_version=acknowledged, command_id=f"c{i}",
                recorded_at=NOW,
            )  # fmt: skip
            acknowledged = result.last_seq
        await store.close()
        server.kill()  # SIGKILL: no shutdown, no final flush
        server.start()  # same data directory and port
        store = RedisEventStore.from_url(server.url)
        events = await store.read("durable")
        assert [e.seq for e in events] == list(range(1, acknowledged + 1))
        assert await store.version("durable") == acknowledged
        assert (await store.command_result("durable", "c299")) is not None
        await store.close()
    finally:
        server.stop()


async def test_tail_from_k_sees_10000_concurrent_appends_in_order(store: RedisEventStore) -> None:
    await create(store, "tailed", n=5)
    k = 3
    seen: list[int] = []
    total = 5 + 10_000

    async def consume() -> None:
        async for env in store.tail("tailed", k):
            seen.append(env.seq)
            if env.seq == total:
                return

    consumer = asyncio.create_task(consume())

    async def writer(w: int) -> None:
        for i in range(250):
            while True:
                v = await store.version("tailed")
                try:
                    await append(
                        store, "tailed", pending(5, f"{w}-{i}-"), expected_version=v,
                        command_id=f"w{w}-{i}", recorded_at=NOW,
                    )  # fmt: skip
                    break
                except Exception as exc:  # VersionConflict: reload and retry
                    assert type(exc).__name__ == "VersionConflict"

    await asyncio.gather(*(writer(w) for w in range(8)))
    await asyncio.wait_for(consumer, 60)
    assert seen == list(range(k + 1, total + 1))
