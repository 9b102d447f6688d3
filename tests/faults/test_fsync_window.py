"""kill -9 of Redis under load, with appendfsync everysec and always: how many acknowledged
events are lost. Behind the soak marker (`pytest -m soak tests/faults/test_fsync_window.py
-s` prints the figures; docs/operations.md records them).

Why everysec loses nothing to a *process* kill: Redis write()s the AOF buffer to the
kernel before it replies, so an acknowledged append is in the page cache, which outlives
the process. The one-second window of everysec is what an OS crash or power loss can take
(the fsync that had not happened yet); a test cannot pull the plug, so that figure comes
from Redis's own contract: up to about 1 s, up to 2 s when an fsync stalls.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from umpire.events.redis_store import RedisEventStore
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.store_contract import NOW, append, create, pending

WRITERS = 8
TRIALS = 3


async def trial(tmp_path, appendfsync: str, n: int) -> tuple[int, int, float]:
    """(acknowledged, lost, seconds of load before the kill)."""
    server = EmbeddedRedis(tmp_path / f"{appendfsync}{n}", appendfsync=appendfsync).start()
    acked: dict[str, int] = {}
    try:
        store = RedisEventStore.from_url(server.url)
        for w in range(WRITERS):
            await create(store, f"w{w}")
            acked[f"w{w}"] = 1
        stop = time.monotonic() + 1.5

        async def writer(game: str) -> None:
            i = 0
            while time.monotonic() < stop + 5:
                try:
                    result = await append(store, game, pending(1), expected_version=acked[game],
                                                command_id=f"c{i}", recorded_at=NOW)  # fmt: skip
                except Exception:
                    return  # the server is gone
                acked[game] = result.last_seq
                i += 1

        tasks = [asyncio.create_task(writer(g)) for g in list(acked)]
        started = time.monotonic()
        await asyncio.sleep(1.5)
        server.kill()
        loaded = time.monotonic() - started
        await asyncio.gather(*tasks)
        await store.close()
        server.start()
        store = RedisEventStore.from_url(server.url)
        lost = 0
        for game, seq in acked.items():
            lost += max(0, seq - await store.version(game))
        await store.close()
        return sum(acked.values()), lost, loaded
    finally:
        server.stop()


@pytest.mark.soak
@pytest.mark.parametrize("appendfsync", ["always", "everysec"])
async def test_kill_9_window(tmp_path, appendfsync: str) -> None:
    results = [await trial(tmp_path, appendfsync, n) for n in range(TRIALS)]
    total = sum(a for a, _, _ in results)
    lost = sum(x for _, x, _ in results)
    rate = total / sum(s for _, _, s in results)
    print(f"\nappendfsync {appendfsync}: {TRIALS} kill -9 under load, {total} acknowledged "
          f"events ({rate:.0f}/s), {lost} lost")  # fmt: skip
    if appendfsync == "always":
        assert lost == 0
