"""events/redis_channels.py `PubSubChannels`: a listener with no game watched waits for
one without arming a timer (a 50-ms poll woke every idle worker 20 times a second), hears
a game watched later, and goes quiet again once the last game is unwatched."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import redis.asyncio as aioredis

from umpire.events.backoff import Backoff
from umpire.events.redis_keys import game_keys
from umpire.events.redis_store import RedisEventStore
from umpire.server.embedded import EmbeddedRedis


def _armed_timers() -> list[asyncio.TimerHandle]:
    """The timers the running loop holds, not cancelled (asyncio's own list: no public
    accessor says whether a task sleeps on a timer or waits on an event)."""
    scheduled: list[asyncio.TimerHandle] = vars(asyncio.get_running_loop())["_scheduled"]
    return [handle for handle in scheduled if not handle.cancelled()]


async def _until(condition: Callable[[], bool]) -> None:
    """Wait for `condition` (at most 10 s), arming no timer while it is looked at: each
    sleep's timer has fired and gone by then, which an `asyncio.timeout` would not."""
    deadline = time.monotonic() + 10
    while not condition():
        assert time.monotonic() < deadline, "the condition did not come in 10 s"
        await asyncio.sleep(0.01)


async def test_an_idle_listener_arms_no_timer_and_hears_a_game_watched_later(
    redis_server: EmbeddedRedis, prefix: str
) -> None:
    store = RedisEventStore.from_url(redis_server.url, prefix=prefix)
    publisher = aioredis.Redis.from_url(redis_server.url)
    heard: list[str] = []
    channels = store.notifications.game_channels(heard.append, Backoff(), Backoff)
    try:
        channels.start()
        for _ in range(10):  # the listener's first steps, up to its wait
            await asyncio.sleep(0)
        assert _armed_timers() == []

        game_id = "g0123456789abcdef"
        await channels.watch(game_id)
        channel = game_keys(game_id, prefix).channel
        # Published until heard: the listener subscribes as it wakes.
        async with asyncio.timeout(10):
            while not heard:
                await publisher.publish(channel, "1")
                await asyncio.sleep(0.02)
        assert set(heard) == {game_id}

        await channels.unwatch(game_id)
        # Its read of the channel (a timeout of 1 s) ends, then it waits untimed again.
        await _until(lambda: _armed_timers() == [])
    finally:
        await channels.close()
        await publisher.aclose()
        await store.close()
