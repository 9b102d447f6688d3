"""The EventStore contract as tests. Every store's tests subclass StoreContract and provide
a `store` fixture; a store that fails these is not a store."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest

from events.envelope import GENESIS_HASH
from events.errors import ExpectedVersionAhead, GameExists, VersionConflict
from events.store import PendingEvent

NOW = "2026-01-01T00:00:00.000Z"


def pending(n: int, label: str = "x") -> list[PendingEvent]:
    """n opaque events (the store never looks inside payloads)."""
    return [PendingEvent("Opaque", 1, f"{label}{i}".encode()) for i in range(n)]


async def create(store: Any, game: str, n: int = 1) -> None:
    await store.append(
        game, pending(n, "c"), expected_version=0, command_id="create", recorded_at=NOW,
        secret=b"\x01" * 32,
    )  # fmt: skip


class StoreContract:
    """What any EventStore must do."""

    async def test_ordered_append_and_read(self, store: Any) -> None:
        await create(store, "g1")
        r = await store.append(
            "g1", pending(3), expected_version=1, command_id="c1", recorded_at=NOW
        )
        assert (r.first_seq, r.last_seq, r.duplicate) == (2, 4, False)
        events = await store.read("g1")
        assert [e.seq for e in events] == [1, 2, 3, 4]
        assert [e.payload for e in events[1:]] == [b"x0", b"x1", b"x2"]
        assert events[0].prev_hash == GENESIS_HASH
        assert all(b.prev_hash == a.hash for a, b in itertools_pairs(events))
        assert [e.seq for e in await store.read("g1", 3)] == [3, 4]
        assert [e.seq for e in await store.read("g1", 2, 3)] == [2, 3]
        assert await store.version("g1") == 4

    async def test_stale_version_conflicts_and_writes_nothing(self, store: Any) -> None:
        await create(store, "g2")
        await store.append("g2", pending(1), expected_version=1, command_id="a", recorded_at=NOW)
        with pytest.raises(VersionConflict) as info:
            await store.append(
                "g2", pending(2), expected_version=1, command_id="b", recorded_at=NOW
            )
        assert info.value.actual == 2
        assert await store.version("g2") == 2
        assert len(await store.read("g2")) == 2

    async def test_version_ahead_is_refused(self, store: Any) -> None:
        await create(store, "g3")
        with pytest.raises(ExpectedVersionAhead, match="ahead"):
            await store.append(
                "g3", pending(1), expected_version=5, command_id="a", recorded_at=NOW
            )
        assert await store.version("g3") == 1

    async def test_creating_twice_is_refused(self, store: Any) -> None:
        await create(store, "g4")
        with pytest.raises(GameExists):
            await store.append(
                "g4", pending(1), expected_version=0, command_id="other", recorded_at=NOW,
                secret=b"\x02" * 32,
            )  # fmt: skip
        assert await store.version("g4") == 1

    async def test_retried_command_id_returns_first_result(self, store: Any) -> None:
        await create(store, "g5")
        first = await store.append(
            "g5", pending(2), expected_version=1, command_id="same", recorded_at=NOW
        )
        again = await store.append(
            "g5", pending(5), expected_version=3, command_id="same", recorded_at=NOW
        )
        assert (again.first_seq, again.last_seq, again.duplicate) == (2, 3, True)
        assert first.last_hash == again.last_hash
        assert await store.version("g5") == 3

    async def test_batch_is_atomic_and_contiguous(self, store: Any) -> None:
        await create(store, "g6")

        async def writer(w: int) -> None:
            for i in range(10):
                while True:
                    v = await store.version("g6")
                    try:
                        await store.append(
                            "g6", pending(3, f"w{w}-{i}-"), expected_version=v,
                            command_id=f"w{w}-{i}", recorded_at=NOW,
                        )  # fmt: skip
                        break
                    except VersionConflict:
                        await asyncio.sleep(0)

        await asyncio.gather(*(writer(w) for w in range(5)))
        events = await store.read("g6")
        assert [e.seq for e in events] == list(range(1, 152))
        body = events[1:]
        for k in range(0, len(body), 3):
            ids = {e.command_id for e in body[k : k + 3]}
            assert len(ids) == 1, "a batch was interleaved"

    async def test_tail_has_no_gap_or_repeat(self, store: Any) -> None:
        await create(store, "g7")
        seen: list[int] = []

        async def consume() -> None:
            async for env in store.tail("g7", 1):
                seen.append(env.seq)
                if env.seq == 201:
                    return

        task = asyncio.create_task(consume())
        for i in range(200):
            await store.append(
                "g7", pending(1), expected_version=i + 1, command_id=f"t{i}", recorded_at=NOW
            )
        await asyncio.wait_for(task, 10)
        assert seen == list(range(2, 202))

    async def test_games_lists_created_games(self, store: Any) -> None:
        await create(store, "ga")
        await create(store, "gb")
        assert set(await store.games()) >= {"ga", "gb"}


def itertools_pairs(items: list[Any]) -> list[tuple[Any, Any]]:
    return list(itertools.pairwise(items))
