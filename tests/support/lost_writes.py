"""Make a store look as if Redis lost a game's last acknowledged writes (a crash under
`appendfsync everysec`, a restore from an older file): only event 1 is left."""

from __future__ import annotations

from umpire.events.redis_store import RedisEventStore


async def lose_writes_after_seq_1(store: RedisEventStore, game_id: str, lost: list[str]) -> str:
    """Keep only event 1 of `game_id` (its stream, version and hash link) and forget the
    command ids in `lost`; the hash of event 1."""
    keys = store.keys(game_id)
    first = (await store.read(game_id, 1, 1))[0]
    (_, fields), *_ = await store.redis.xrange(keys.stream, "1-0", "1-0")
    await store.redis.delete(keys.stream)
    await store.redis.xadd(keys.stream, fields, id="1-0")
    await store.redis.hset(keys.meta, mapping={"version": 1, "last_hash": first.hash})
    await store.redis.hdel(keys.commands, *lost)
    return first.hash
