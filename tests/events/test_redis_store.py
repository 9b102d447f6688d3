"""The Redis Streams store against the store contract, plus Redis-specific behaviour.
Like the contract (events/), these tests use nothing of server/: a credential is a digest
the store keeps (`store.credentials.grant`), however server/ makes it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import pytest

from umpire.events.durability import Durability
from umpire.events.errors import Unauthorized
from umpire.events.redis_store import RedisEventStore
from umpire.events.store import Credential
from umpire.testing.store_contract import NOW, StoreContract, append, create, pending

if TYPE_CHECKING:
    from umpire.server.embedded import EmbeddedRedis  # the suite's Valkey (tests/conftest.py)


class TestRedisStoreContract(StoreContract):
    """Runs every contract test on a real Valkey started by the suite."""


class TestDurableRedisStoreContract(StoreContract):
    """Every contract test again with appends that wait for the fsync (WAITAOF)."""

    @pytest.fixture
    async def store(
        self, redis_server: EmbeddedRedis, prefix: str
    ) -> AsyncIterator[RedisEventStore]:
        durable = RedisEventStore.from_url(
            redis_server.url, prefix=prefix, durability=Durability(local_fsync=True)
        )
        try:
            yield durable
        finally:
            await durable.close()


async def test_an_append_under_a_revoked_or_foreign_credential_writes_nothing(
    store: RedisEventStore,
) -> None:
    """The append checks the credential in the same atomic step as the version: no window
    between a check and the write, and no round trip of its own (tests/server/
    test_command_cost.py)."""
    await create(store, "g1")
    player, spectator, other = "a1" * 32, "b2" * 32, "c3" * 32  # digests of three tokens
    await store.credentials.grant("g1", player, "player")
    await store.credentials.grant("g1", spectator, "spectator")
    await store.credentials.grant("g2", other, "player")
    as_player = Credential(player, "player")
    first = await append(
        store, "g1", pending(2), expected_version=1, command_id="c1", recorded_at=NOW,
        credential=as_player,
    )  # fmt: skip
    assert first.seqs == [2, 3] and await store.holds("g1", as_player)

    with pytest.raises(Unauthorized, match="no longer valid"):  # a spectator's digest
        await append(
            store, "g1", pending(1), expected_version=3, command_id="c2", recorded_at=NOW,
            credential=Credential(spectator, "player"),
        )  # fmt: skip
    with pytest.raises(Unauthorized):  # game g2's player credential on g1
        await append(
            store, "g1", pending(1), expected_version=3, command_id="c3", recorded_at=NOW,
            credential=Credential(other, "player"),
        )  # fmt: skip

    await store.redis.hdel(store.keys("g1").credentials, player)
    assert not await store.holds("g1", as_player)
    for command_id, expected in (("c4", 3), ("c1", 1)):  # a new id, and a retried one
        with pytest.raises(Unauthorized, match="revoked"):
            await append(
                store, "g1", pending(1), expected_version=expected, command_id=command_id,
                recorded_at=NOW, credential=as_player,
            )  # fmt: skip
    assert await store.version("g1") == 3
    assert await store.command_result("g1", "c4") is None
