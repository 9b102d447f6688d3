"""A command that gave up as "busy" leaves no stale game behind (server/games.py
`Games.handle`): the retry the error asks for (same command id) is decided on the log,
not on the cache that lost every race, so it pays no further conflict."""

from __future__ import annotations

from typing import Any

import pytest

from umpire.events.errors import VersionConflict
from umpire.events.redis_store import RedisEventStore
from umpire.events.store import AppendResult
from umpire.server import games as games_module
from umpire.server.games import Games


class Appends:
    """The real store's `append`, counted: calls, and those refused as a conflict."""

    def __init__(self, store: RedisEventStore) -> None:
        self.append = store.append
        self.calls = 0
        self.conflicts = 0

    async def __call__(self, *args: Any, **kwargs: Any) -> AppendResult:
        self.calls += 1
        try:
            return await self.append(*args, **kwargs)
        except VersionConflict:
            self.conflicts += 1
            raise


async def test_the_retry_after_busy_is_decided_on_the_log(
    games: Games, store: RedisEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fails on main: the retry decided on the stale cache again, so its first append
    was refused (2 appends, 1 conflict; had BUSY_SECONDS stayed 0, it gave up again)."""
    created = await games.create("counter", {"target": 1000})
    gid = created.game_id
    await games.handle(gid, "a1", {"type": "Add", "amount": 1})  # cached at seq 3
    other = Games(store)  # another gateway writing the same game
    await other.handle(gid, "b1", {"type": "Add", "amount": 1})  # the log: seq 5

    # The deadline has passed at the first conflict: this writer gives up at once.
    with monkeypatch.context() as patch:
        patch.setattr(games_module, "BUSY_SECONDS", 0.0)
        with pytest.raises(VersionConflict, match="is busy"):
            await games.handle(gid, "a2", {"type": "Add", "amount": 1})

    appends = Appends(store)
    monkeypatch.setattr(store, "append", appends)
    retry = await games.handle(gid, "a2", {"type": "Add", "amount": 1})
    assert (appends.calls, appends.conflicts) == (1, 0)
    assert retry.seqs == [6, 7] and not retry.duplicate
    _, game = await games.load(gid)
    assert game.meta.seq == 7 and game.state.total == 3
