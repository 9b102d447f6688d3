"""Appends of one event-loop turn share a pipeline (events/append_batch.py): each is still
its own atomic script call with its own answer, and a lost script is loaded again."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from umpire.events.chain import verify_chain
from umpire.events.errors import StoreUnavailable, VersionConflict
from umpire.events.redis_store import RedisEventStore, WaitingConnectionPool
from umpire.events.store import AppendResult
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.store_contract import NOW, append, create, pending, sealed


async def _append(store: RedisEventStore, game: str, command_id: str, version: int):
    return await append(
        store, game, pending(2, command_id), expected_version=version, command_id=command_id,
        recorded_at=NOW,
    )  # fmt: skip


async def test_concurrent_appends_share_round_trips_and_keep_their_own_answers(
    store: RedisEventStore,
) -> None:
    games = [f"b{n}" for n in range(40)]
    await asyncio.gather(*(create(store, g) for g in games))
    batcher = store._batcher
    assert batcher is not None
    before_batches, before_calls = batcher.batches, batcher.calls
    # One of them is stale: it alone is refused, the rest of its pipeline is written.
    results = await asyncio.gather(
        *(_append(store, g, "c1", 1) for g in games),
        _append(store, "b0", "stale", 0),
        return_exceptions=True,
    )
    assert [r.seqs for r in results[:40]] == [[2, 3]] * 40
    assert isinstance(results[40], VersionConflict)
    assert batcher.calls - before_calls == 41
    assert batcher.batches - before_batches < 10, "calls of one turn share pipelines"
    for game in games:
        events = await store.read(game)
        verify_chain(events)
        assert [e.payload for e in events[1:]] == [b"c10", b"c11"]


async def test_a_caller_that_goes_away_does_not_disturb_its_batch(store: RedisEventStore) -> None:
    await asyncio.gather(create(store, "k1"), create(store, "k2"))
    leaving = asyncio.create_task(_append(store, "k1", "c1", 1))
    staying = asyncio.create_task(_append(store, "k2", "c1", 1))
    await asyncio.sleep(0)  # both are waiting in the batch now
    leaving.cancel()
    assert (await staying).seqs == [2, 3]
    # The cancelled append ran or not, as any interrupted append: its id answers either way.
    again = await _append(store, "k1", "c1", 1)
    assert again.seqs == [2, 3]


async def test_appends_load_the_script_again_after_a_flush(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "r") as server:
        store = RedisEventStore.from_url(server.url, prefix="f")
        admin = aioredis.Redis.from_url(server.url)
        try:
            await asyncio.gather(*(create(store, f"s{n}") for n in range(5)))
            await admin.script_flush()
            lone = await _append(store, "s0", "c1", 1)  # a lone call
            assert lone.seqs == [2, 3]
            await admin.script_flush()
            batch = await asyncio.gather(*(_append(store, f"s{n}", "c1", 1) for n in range(1, 5)))
            assert [r.seqs for r in batch] == [[2, 3]] * 4
        finally:
            await admin.aclose()
            await store.close()


@pytest.mark.parametrize("size", [1, 300])
async def test_a_lost_connection_fails_every_append_of_the_batch_as_unavailable(
    tmp_path: Path, size: int
) -> None:
    from umpire.events.errors import StoreUnavailable

    with EmbeddedRedis(tmp_path / "r") as server:
        store = RedisEventStore.from_url(server.url, prefix="u")
        try:
            await asyncio.gather(*(create(store, f"u{n}") for n in range(size)))
            server.kill()
            results = await asyncio.gather(
                *(_append(store, f"u{n}", "c1", 1) for n in range(size)), return_exceptions=True
            )
            assert all(isinstance(r, StoreUnavailable) for r in results), results[:3]
        finally:
            await store.close()


def test_the_hand_packed_command_is_what_redis_py_would_send() -> None:
    from redis.asyncio.connection import Connection

    from umpire.events.resp import pack

    class Tag(str):
        pass

    args = ("EVALSHA", "a" * 40, 2, "k:{g}:1", "k:{g}:2", 0, "", "é", b"\x00\r\n" * 3000, -7)
    args += (Tag("player"), memoryview(b"m").tobytes())
    assert pack(*args) == b"".join(Connection().pack_command(*args))
    with pytest.raises(TypeError):
        pack("EVALSHA", True)


async def test_kept_keys_and_packed_heads_send_each_append_to_its_own_game(
    store: RedisEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from umpire.events import append_batch, redis_store

    # Small bounds, so the kept keys and packed heads are dropped and built again here.
    monkeypatch.setattr(redis_store, "MAX_KEPT_KEYS", 2)
    monkeypatch.setattr(append_batch, "MAX_HEADS", 2)
    games = [f"h{n}" for n in range(5)]
    await asyncio.gather(*(create(store, g) for g in games))
    for version, command_id in ((1, "c1"), (3, "c2")):
        for game in games:
            await _append(store, game, command_id, version)
    await asyncio.gather(*(_append(store, g, "c3", 5) for g in games))
    batcher = store._batcher
    assert batcher is not None
    assert len(store._keys) <= 2 and len(batcher._heads) <= 2
    for game in games:
        events = await store.read(game)
        verify_chain(events)
        assert [e.game_id for e in events] == [game] * 7
        assert [e.payload for e in events[1:]] == [b"c10", b"c11", b"c20", b"c21", b"c30", b"c31"]
    with pytest.raises(Exception, match="game"):
        await _append(store, "not a game id!", "c1", 0)


async def test_a_frozen_store_times_out_the_batch_drops_its_connection_and_recovers(
    tmp_path: Path,
) -> None:
    """The batcher's connections carry no socket timeout of their own: one watchdog timer
    holds every batch to the pool's (events/append_batch.py). A store that stops answering
    (SIGSTOP) while a batch is out must still fail the append as unavailable, not hang it,
    and the next append after it thaws must go through on a fresh connection."""
    with EmbeddedRedis(tmp_path / "r") as server:
        pool = WaitingConnectionPool.from_url(server.url, socket_timeout=0.5)
        store = RedisEventStore(aioredis.Redis.from_pool(pool), prefix="t")
        batcher = store._batcher
        assert batcher is not None

        async def append_after(command_id: str, version: int, head: str) -> AppendResult:
            # With the head's hash given, the append is the batch's one round trip.
            return await append(
                store, "t1", pending(2, command_id), expected_version=version,
                command_id=command_id, recorded_at=NOW, prev_hash=head,
            )  # fmt: skip

        try:
            await create(store, "t1")
            first = await _append(store, "t1", "c1", 1)
            assert first.seqs == [2, 3]
            assert all(conn.socket_timeout is None for conn in batcher._made)
            assert server.process is not None
            os.kill(server.process.pid, signal.SIGSTOP)
            try:
                with pytest.raises(StoreUnavailable):
                    await asyncio.wait_for(append_after("c2", 3, first.last_hash), timeout=30)
                assert not batcher._out and not batcher._expired
            finally:
                os.kill(server.process.pid, signal.SIGCONT)
            # "c2" may have reached the store before it froze: the retry finds it or
            # appends it, once either way.
            again = await append_after("c2", 3, first.last_hash)
            assert again.seqs == [4, 5]
            assert (await append_after("c3", 5, again.last_hash)).seqs == [6, 7]
        finally:
            await store.close()


async def test_a_turns_appends_are_written_at_the_next_turn_and_say_so(
    store: RedisEventStore,
) -> None:
    """The turn's batch is one task, written at its first step (a callback that made the
    task cost a turn more); `on_sent` is called once it is written, before the answer."""
    await create(store, "w1")
    batcher = store._batcher
    assert batcher is not None
    before = batcher.batches
    batch = await sealed(
        store, "w1", pending(2, "c1"), expected_version=1, command_id="c1", recorded_at=NOW
    )
    said: list[int] = []
    task = asyncio.create_task(store.append(batch, on_sent=lambda: said.append(batcher.batches)))
    await asyncio.sleep(0)  # the append waits in the batcher now
    await asyncio.sleep(0)  # the next turn: its batch is written
    assert batcher.batches == before + 1
    assert said == [before + 1] and not task.done()
    assert (await task).seqs == [2, 3]
