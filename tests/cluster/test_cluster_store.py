"""The store contract, unchanged, on a real 3-master Redis Cluster (redis-py RedisCluster)."""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from bench.cluster import LocalCluster
from umpire.events.redis_store import RedisEventStore
from umpire.events.store import Snapshot
from umpire.server.config import Settings
from umpire.server.embedded import StorePasswords
from umpire.server.store_access import make_store
from umpire.testing.store_contract import NOW, StoreContract, append, create, pending


class TestClusterStoreContract(StoreContract):
    """Every contract test, against the cluster."""

    @pytest.fixture
    async def store(self, cluster_store: RedisEventStore) -> AsyncIterator[RedisEventStore]:
        yield cluster_store


async def test_a_games_keys_share_one_slot_and_games_spread_over_every_master(
    cluster: LocalCluster, cluster_store: RedisEventStore
) -> None:
    owners = set()
    for n in range(30):
        keys = cluster_store.keys(f"spread{n}")
        slots = {
            cluster.slot_of(k)
            for k in (keys.stream, keys.meta, keys.commands, keys.secret, keys.snapshot)
        }
        slots.add(cluster.slot_of(keys.channel))
        assert len(slots) == 1, "one game's keys must hash to one slot"
        owners.add(cluster.owner(slots.pop()))
    assert owners == set(cluster.ports)


async def test_snapshots_round_trip_on_the_cluster(cluster_store: RedisEventStore) -> None:
    await create(cluster_store, "snap")
    await cluster_store.save_snapshot(
        "snap", Snapshot(seq=1, last_hash="h1", state_hash="s1", state=b"one")
    )
    await cluster_store.save_snapshot(
        "snap", Snapshot(seq=0, last_hash="h0", state_hash="s0", state=b"old")
    )
    held = await cluster_store.load_snapshot("snap")
    assert held is not None and (held.seq, held.state) == (1, b"one")


async def test_the_cluster_store_publishes_sharded(cluster_store: RedisEventStore) -> None:
    assert cluster_store.cluster
    await create(cluster_store, "pub")
    node = cluster_store.redis.get_node_from_key(cluster_store.keys("pub").channel)
    direct = aioredis.Redis(host=node.host, port=node.port)
    pubsub = direct.pubsub()
    try:
        await pubsub.ssubscribe(cluster_store.keys("pub").channel)
        assert (await pubsub.get_message(timeout=2))["type"] == "ssubscribe"
        await append(
            cluster_store, "pub", pending(2), expected_version=1, command_id="c1", recorded_at=NOW
        )
        message = await pubsub.get_message(timeout=2)
        assert message is not None and message["type"] == "smessage"
        assert message["data"] == b"3"
    finally:
        await pubsub.aclose()
        await direct.aclose()


@pytest.fixture
async def durable_cluster_store(
    cluster: LocalCluster, prefix: str
) -> AsyncIterator[RedisEventStore]:
    """A cluster store whose appends wait for the owning master's fsync (WAITAOF)."""
    settings = Settings(cluster=True, prefix=prefix, wait_local_fsync=True)
    store = make_store(cluster.url, settings)
    try:
        yield store
    finally:
        await store.close()


class TestDurableClusterStoreContract(StoreContract):
    """Every contract test again with WAITAOF: the append and the wait go to the master
    that owns the game's slot, on one connection (events/durability.py)."""

    @pytest.fixture
    async def store(self, durable_cluster_store: RedisEventStore) -> AsyncIterator[RedisEventStore]:
        yield durable_cluster_store


async def test_a_durable_append_follows_its_game_to_another_master(
    cluster: LocalCluster, durable_cluster_store: RedisEventStore
) -> None:
    store = durable_cluster_store
    await create(store, "wander")
    first = await append(
        store, "wander", pending(2), expected_version=1, command_id="c1", recorded_at=NOW
    )
    slot = cluster.slot_of(store.keys("wander").stream)
    target = next(p for p in cluster.ports if p != cluster.owner(slot))
    cluster.migrate_slot(slot, target)
    # With the link given (as Games gives it) nothing else touches the slot first: the
    # durable append itself meets the MOVED reply and follows it.
    result = await append(
        store, "wander", pending(2), expected_version=3, command_id="c2", recorded_at=NOW,
        prev_hash=first.last_hash,
    )  # fmt: skip
    assert result.seqs == [4, 5]
    assert store.durable is not None and store.durable.moves_followed >= 1
    assert [e.seq for e in await store.read("wander")] == [1, 2, 3, 4, 5]


async def test_an_append_goes_straight_to_its_master_and_follows_a_move(
    cluster: LocalCluster, cluster_store: RedisEventStore
) -> None:
    """Appends are written straight to the slot's master (events/cluster_append.py). A
    MOVED reply (the slot migrated) or a NOSCRIPT (the master lost the script) is handed
    to the cluster client, which follows it; the next append goes straight to the new
    master. Nothing is lost or written twice."""
    store = cluster_store
    straight = store.straight
    assert straight is not None
    await create(store, "straight")
    link = (await append(
        store, "straight", pending(1), expected_version=1, command_id="c1", recorded_at=NOW
    )).last_hash  # fmt: skip
    assert straight.sent >= 1
    slot = cluster.slot_of(store.keys("straight").stream)
    target = next(p for p in cluster.ports if p != cluster.owner(slot))
    cluster.migrate_slot(slot, target)
    followed = straight.followed
    version = 2
    for n in range(2, 5):
        if n == 4:  # the new master forgets the script: NOSCRIPT, then loaded again
            node = aioredis.Redis(port=target)
            await node.script_flush()
            await node.aclose()
            followed = straight.followed
        answered = straight.sent
        result = await append(
            store, "straight", pending(1), expected_version=version, command_id=f"c{n}",
            recorded_at=NOW, prev_hash=link,
        )  # fmt: skip
        assert result.seqs == [version + 1] and not result.duplicate
        version, link = result.last_seq, result.last_hash
        if n in (2, 4):  # MOVED, NOSCRIPT: the cluster client's way
            assert straight.followed == followed + 1
            assert straight.sent == answered
        else:  # straight to the new master, its slot map updated by the move
            assert straight.sent == answered + 1
    assert [e.seq for e in await store.read("straight")] == [1, 2, 3, 4, 5]


async def test_a_durable_append_on_a_cluster_with_passwords(prefix: str) -> None:
    """With a durability setting each append and its WAITAOF go to the game's master on
    one connection. That connection authenticates as the cluster client does: made from
    host and port alone, it was refused (NOAUTH) on a cluster whose nodes want a
    password, and every append failed."""
    passwords = StorePasswords(admin="admin-" + "x" * 24, gateway="gateway-" + "y" * 24)
    with tempfile.TemporaryDirectory(prefix="umpire-test-cluster-auth-") as tmp:
        local = LocalCluster(tmp, masters=3, passwords=passwords).start()
        try:
            settings = Settings(cluster=True, prefix=prefix, wait_local_fsync=True)
            store = make_store(local.url, settings)
            try:
                for n in range(6):  # games on every master
                    game = f"auth{n}"
                    await create(store, game)
                    result = await append(
                        store,
                        game,
                        pending(2),
                        expected_version=1,
                        command_id="c1",
                        recorded_at=NOW,
                    )
                    assert result.seqs == [2, 3]
                    assert [e.seq for e in await store.read(game)] == [1, 2, 3]
            finally:
                await store.close()
        finally:
            local.stop()
