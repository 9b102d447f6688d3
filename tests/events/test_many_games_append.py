"""The appends of one event-loop turn are one call of the many-games script
(events/redis_store.py `MULTI_APPEND_SCRIPT`, events/append_batch.py): each game's append
makes exactly the one-game script's checks, one refusal stops no other append of the call,
and each caller gets its own game's answer."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from redis.exceptions import ResponseError

from umpire.events.chain import verify_chain
from umpire.events.errors import CommandIdReused, GameExists, Unauthorized, VersionConflict
from umpire.events.redis_store import RedisEventStore
from umpire.events.store import AppendResult, Credential, SealedBatch
from umpire.testing.store_contract import NOW, SEED, create, pending, sealed

PLAYER = Credential("d" * 64, "player")


async def _batch(
    store: RedisEventStore, game: str, command_id: str, version: int, **terms: Any
) -> SealedBatch:
    return await sealed(
        store, game, pending(1, command_id), expected_version=version, command_id=command_id,
        recorded_at=NOW, **terms,
    )  # fmt: skip


async def _one_call(store: RedisEventStore, batches: list[SealedBatch]) -> list[Any]:
    """Append `batches` in one event-loop turn, checking they went as one script call."""
    batcher = store._batcher
    assert batcher is not None
    await store.redis.config_resetstat()
    before = batcher.batches
    answers = await asyncio.gather(*(store.append(b) for b in batches), return_exceptions=True)
    assert batcher.batches - before == 1, "the appends of one turn are one call"
    stats = await store.redis.info("commandstats")
    assert stats["cmdstat_evalsha"]["calls"] == 1
    return answers


async def test_one_call_appends_every_game_and_answers_each_caller_its_own(
    store: RedisEventStore,
) -> None:
    games = ["fine1", "stale", "dup", "reused", "revoked", "made", "fine2", "fine3"]
    await asyncio.gather(*(create(store, g) for g in games))
    await store.credentials.grant("revoked", PLAYER.digest, "player")
    for game in ("dup", "reused"):
        first = await _batch(store, game, "c1", 1, body_hash="aa" * 16)
        assert (await store.append(first)).seqs == [2]
    revoked = await _batch(store, "revoked", "c1", 1, credential=PLAYER)
    await store.credentials.withdraw("revoked", PLAYER.digest)
    batches = [
        await _batch(store, "fine1", "c1", 1),
        await _batch(store, "stale", "c1", 0, prev_hash="00" * 32),
        await _batch(store, "dup", "c1", 2, body_hash="aa" * 16),  # the same body again
        await _batch(store, "reused", "c1", 2, body_hash="bb" * 16),  # another body
        revoked,
        await _batch(store, "made", "create2", 0, secret=SEED),  # a creation, again
        await _batch(store, "fine2", "c1", 1),
        await _batch(store, "fine3", "c1", 1),
    ]
    answers = await _one_call(store, batches)
    fine1, stale, dup, reused, unauthorized, exists, fine2, fine3 = answers
    for landed in (fine1, fine2, fine3):
        assert isinstance(landed, AppendResult) and landed.seqs == [2] and not landed.duplicate
    assert isinstance(stale, VersionConflict) and stale.code == "version_conflict"
    assert isinstance(dup, AppendResult) and dup.duplicate and dup.seqs == [2]
    assert isinstance(reused, CommandIdReused) and reused.code == "command_id_reused"
    assert isinstance(unauthorized, Unauthorized)
    assert isinstance(exists, GameExists)
    # Each answer is its own game's: the landed ones name their own game's new head.
    for game, landed in (("fine1", fine1), ("fine2", fine2), ("fine3", fine3)):
        events = await store.read(game)
        verify_chain(events)
        assert landed.last_hash == events[-1].hash and events[-1].payload == b"c10"
    assert {g: await store.version(g) for g in games} == {
        "fine1": 2, "stale": 1, "dup": 2, "reused": 2, "revoked": 1, "made": 1,
        "fine2": 2, "fine3": 2,
    }  # fmt: skip


async def test_two_appends_of_one_game_in_a_call_run_in_turn(store: RedisEventStore) -> None:
    await create(store, "twice")
    first = await _batch(store, "twice", "c1", 1)
    # The second links to the first: it lands only because the first ran before it.
    second = await sealed(
        store, "twice", pending(2, "c2"), expected_version=2, command_id="c2",
        prev_hash=first.last_hash,
    )  # fmt: skip
    stale = await _batch(store, "twice", "c3", 1)  # written against the same head as c1
    answers = await _one_call(store, [first, second, stale])
    assert [a.seqs for a in answers[:2]] == [[2], [3, 4]]
    assert isinstance(answers[2], VersionConflict) and answers[2].actual == 4
    verify_chain(await store.read("twice"))


async def test_a_command_that_fails_inside_one_append_fails_that_append_alone(
    store: RedisEventStore,
) -> None:
    """An error inside one game's append (here its stream key holds a string, so XADD is
    refused WRONGTYPE) is that caller's answer; the games around it are appended."""
    games = ["before", "broken", "after"]
    await asyncio.gather(*(create(store, g) for g in games))
    broken = store.keys("broken").stream
    await store.redis.delete(broken)
    await store.redis.set(broken, "not a stream")
    batches = [
        await _batch(store, "before", "c1", 1),
        await _batch(store, "broken", "c1", 1, prev_hash=await store.last_hash("broken")),
        await _batch(store, "after", "c1", 1),
    ]
    before, failed, after = await _one_call(store, batches)
    assert isinstance(failed, ResponseError) and "WRONGTYPE" in str(failed)
    assert before.seqs == after.seqs == [2]
    assert await store.version("before") == await store.version("after") == 2


@pytest.mark.parametrize("size", [3, 300])
async def test_the_heads_recorded_are_each_game_s_own(store: RedisEventStore, size: int) -> None:
    """The head recorder hears each landed game's own head; a refused append records
    nothing (300: more than one call's MAX_BATCH)."""
    games = [f"r{n}" for n in range(size)]
    await asyncio.gather(*(create(store, g) for g in games))

    class Heads:
        def __init__(self) -> None:
            self.heads: dict[str, tuple[int, str]] = {}
            self.firsts: dict[str, int] = {}

        def record(
            self, heads: dict[str, tuple[int, str]], firsts: dict[str, int] | None = None
        ) -> None:
            self.heads.update(heads)
            self.firsts.update(firsts or {})

        async def note(self, game_id: str, seq: int, last_hash: str, first: int = 0) -> None:
            raise AssertionError("one node records per call, not per append")

        def credentials(self, game_id: str, changes: int, fields: int) -> None:
            pass  # the games' credentials are not this test's (test_store_integrity's are)

    heads = Heads()
    store.record_heads_in(heads)  # type: ignore[arg-type]
    batches = [await _batch(store, g, "c1", 1) for g in games]
    batches.append(await _batch(store, games[0], "stale", 0, prev_hash="00" * 32))  # refused
    answers = await asyncio.gather(*(store.append(b) for b in batches), return_exceptions=True)
    assert isinstance(answers[-1], VersionConflict)
    assert heads.heads == {g: (2, a.last_hash) for g, a in zip(games, answers, strict=False)}
    assert heads.firsts == dict.fromkeys(games, 2)  # each append's first seq
