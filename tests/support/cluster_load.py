"""Concurrent writers on a game and the checks every written log must pass afterwards."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from umpire.events.chain import verify_chain
from umpire.events.errors import StoreUnavailable, VersionConflict
from umpire.events.redis_store import RedisEventStore
from umpire.testing.store_contract import NOW, append, create, pending

BATCH = 3


@dataclass
class Written:
    """What the writers of one game were told was appended."""

    game: str
    acked: dict[str, tuple[int, int]] = field(default_factory=dict)
    duplicates_checked: int = 0


async def write_game(
    store: RedisEventStore,
    game: str,
    *,
    writers: int,
    commands: int,
    deadline: float = 60.0,
    until: asyncio.Event | None = None,
) -> Written:
    """`writers` tasks each append `commands` BATCH-event commands to `game`, reading the
    version before each try and retrying conflicts; every third command is sent again
    afterwards and must come back as the same result, marked duplicate. With `until`, a
    writer stops early once that event is set (and after at least one command)."""
    await create(store, game)
    written = Written(game, {"create": (1, 1)})
    loop = asyncio.get_running_loop()
    stop_at = loop.time() + deadline

    async def writer(w: int) -> None:
        for i in range(commands):
            if until is not None and until.is_set() and i > 0:
                return
            command_id = f"{game}.w{w}.{i}"
            while True:
                if loop.time() > stop_at:
                    raise TimeoutError(f"{command_id} not appended in {deadline}s")
                try:
                    version = await store.version(game)
                    result = await append(
                        store, game, pending(BATCH, f"{command_id}/"), expected_version=version,
                        command_id=command_id, recorded_at=NOW,
                    )  # fmt: skip
                    break
                except VersionConflict:
                    await asyncio.sleep(0)
                except StoreUnavailable:
                    await asyncio.sleep(0.05)  # bounded by stop_at; the same id is safe
            assert not result.duplicate, f"{command_id} first sent but reported duplicate"
            written.acked[command_id] = (result.first_seq, result.last_seq)
            if i % 3 == 0:
                again = await append(
                    store, game, pending(BATCH, "other/"), expected_version=0,
                    command_id=command_id, recorded_at=NOW,
                )  # fmt: skip
                assert again.duplicate
                assert (again.first_seq, again.last_seq) == (result.first_seq, result.last_seq)
                written.duplicates_checked += 1

    await asyncio.gather(*(writer(w) for w in range(writers)))
    return written


async def check_game(store: RedisEventStore, written: Written) -> int:
    """Every invariant of the core log on what was written; returns the event count."""
    events = await store.read(written.game)
    total = verify_chain(events, game_id=written.game)  # contiguous seqs, links, hashes
    assert total == 1 + BATCH * (len(written.acked) - 1), "an event was lost or duplicated"
    assert await store.version(written.game) == total
    by_command: dict[str, list[int]] = {}
    for env in events:
        by_command.setdefault(env.command_id, []).append(env.seq)
    assert set(by_command) == set(written.acked), "a command is missing or unacknowledged"
    for command_id, seqs in by_command.items():
        first, last = written.acked[command_id]
        assert seqs == list(range(first, last + 1)), f"{command_id} interleaved or moved"
        if command_id != "create":
            body = [e.payload for e in events[first - 1 : last]]
            assert body == [f"{command_id}/{k}".encode() for k in range(BATCH)]
    return total


async def tail_until(store: RedisEventStore, game: str, last: int, timeout: float) -> list[int]:
    """The seqs `tail(game, 0)` yields up to `last` (fails on timeout)."""
    seen: list[int] = []
    await asyncio.wait_for(_consume(store, game, seen, last), timeout)
    return seen


async def _consume(store: RedisEventStore, game: str, seen: list[int], last: int | None) -> None:
    async for env in store.tail(game, 0):
        seen.append(env.seq)
        if last is not None and env.seq >= last:
            return


class Tail:
    """A tail running in the background from seq 0, stopped once it reaches a seq."""

    def __init__(self, store: RedisEventStore, game: str) -> None:
        self.store, self.game, self.seen = store, game, []  # type: list[int]
        self.task = asyncio.create_task(_consume(store, game, self.seen, None))

    async def until(self, last: int, timeout: float) -> list[int]:
        """Wait (bounded) until the tail has yielded `last`, stop it, return what it saw."""
        loop = asyncio.get_running_loop()
        stop_at = loop.time() + timeout
        while (not self.seen or self.seen[-1] < last) and loop.time() < stop_at:
            if self.task.done():
                self.task.result()
            await asyncio.sleep(0.02)
        self.task.cancel()
        return self.seen
