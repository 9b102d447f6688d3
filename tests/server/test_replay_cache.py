"""Past states from the nearest checkpoint (server/replay_cache.py), against the real
store: the same state as a fold from seq 1, bounded work once checkpoints exist, bounded
memory, and a log that changed under a checkpoint is folded again."""

from __future__ import annotations

import msgspec

from umpire.engine.game import ruleset_of, state_hash
from umpire.engine.replay import game_at
from umpire.events.redis_store import RedisEventStore
from umpire.server.games import Games
from umpire.server.replay_cache import EVERY, ReplayCache


async def _game(games: Games, events: int) -> str:
    created = await games.create("counter", {"target": 10**6})
    n = 0
    while await games.store.version(created.game_id) < events:
        await games.handle(created.game_id, f"p{n}", {"type": "Push"})
        n += 1
    return created.game_id


async def test_states_match_a_fold_from_the_start(games: Games, store: RedisEventStore) -> None:
    game_id = await _game(games, 3 * EVERY + 20)
    log = await store.read(game_id, 1)
    ruleset = ruleset_of(log[0])
    cache = ReplayCache(store)
    for seq in (1, EVERY, 3 * EVERY + 7, 2 * EVERY + 50, 3 * EVERY + 20):
        got = await cache.game_at(game_id, ruleset, seq)
        assert state_hash(got) == state_hash(game_at(log, seq, ruleset)), seq
    # Checkpoints now sit every EVERY events: a replay folds at most EVERY - 1 of them.
    assert sorted(cache.checkpoints[game_id]) == [EVERY, 2 * EVERY, 3 * EVERY]
    key = (game_id, 3 * EVERY + 12, "player", False)
    assert cache.distance(game_id, 3 * EVERY + 12, key) == 12
    before = cache.folded
    await cache.game_at(game_id, ruleset, 3 * EVERY + 12)
    assert cache.folded - before == 12


async def test_memory_is_bounded(games: Games, store: RedisEventStore) -> None:
    game_id = await _game(games, 5 * EVERY)
    ruleset = ruleset_of((await store.read(game_id, 1, 1))[0])
    cache = ReplayCache(store, max_checkpoints=2, max_answers=3)
    await cache.game_at(game_id, ruleset, 5 * EVERY)
    assert cache.count == 2 and len(cache.checkpoints[game_id]) == 2
    for seq in range(1, 6):
        cache.remember((game_id, seq, "player", False), "h", {})
    assert len(cache.answers) == 3


async def test_a_log_changed_under_a_checkpoint_is_folded_again(
    games: Games, store: RedisEventStore
) -> None:
    game_id = await _game(games, 2 * EVERY + 5)
    ruleset = ruleset_of((await store.read(game_id, 1, 1))[0])
    cache = ReplayCache(store)
    await cache.game_at(game_id, ruleset, 2 * EVERY)
    # Forge the checkpoint's hash: the next event no longer links to it.
    forged = cache.checkpoints[game_id][2 * EVERY]
    bad = type(forged)(msgspec.structs.replace(forged.meta, last_hash="0" * 64), forged.state)
    cache.checkpoints[game_id][2 * EVERY] = bad
    got = await cache.game_at(game_id, ruleset, 2 * EVERY + 5)
    log = await store.read(game_id, 1)
    assert state_hash(got) == state_hash(game_at(log, 2 * EVERY + 5, ruleset))
