"""Durable acknowledgement: every append waits (WAITAOF, on the connection that wrote it)
for the fsyncs asked for; unconfirmed, the command is answered `durability_unconfirmed`
and is in the log, so a retry of its id returns it. On private servers (a master and a real
replica), so the counts and the replica's absence are this test's own."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from umpire.events.durability import Durability
from umpire.events.errors import DurabilityUnconfirmed
from umpire.events.redis_store import RedisEventStore
from umpire.server.app import running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.store_contract import NOW, append, create, pending
from umpire.testing.support.gateways import gateway_settings
from umpire.testing.support.peer import Peer


async def _append(store: RedisEventStore, command_id: str, version: int):
    return await append(
        store, "g1", pending(2), expected_version=version, command_id=command_id, recorded_at=NOW
    )


async def _replica_up(replica: EmbeddedRedis, timeout: float = 20.0) -> None:
    client = aioredis.Redis.from_url(replica.url)
    try:
        for _ in range(int(timeout / 0.05)):
            info = await client.info("replication")
            if info.get("master_link_status") == "up":
                return
            await asyncio.sleep(0.05)
        raise TimeoutError("the replica did not sync")
    finally:
        await client.aclose()


async def test_every_append_waits_for_the_local_fsync(tmp_path: Path) -> None:
    # everysec: without the wait an acknowledged append could still be in the page cache.
    with EmbeddedRedis(tmp_path / "m", appendfsync="everysec") as master:
        store = RedisEventStore.from_url(
            master.url, prefix="d", durability=Durability(local_fsync=True)
        )
        admin = aioredis.Redis.from_url(master.url)
        try:
            await create(store, "g1")
            await admin.config_resetstat()
            for n in range(5):
                result = await _append(store, f"c{n}", 1 + 2 * n)
                assert result.seqs == [2 + 2 * n, 3 + 2 * n]
            stats = await admin.info("commandstats")
            assert stats["cmdstat_waitaof"]["calls"] == 5
            assert stats["cmdstat_evalsha"]["calls"] == 5
        finally:
            await admin.aclose()
            await store.close()


async def test_concurrent_appends_share_one_wait(tmp_path: Path) -> None:
    """WAITAOF waits for every earlier write of its connection, so the appends that share
    a script call share its one wait."""
    with EmbeddedRedis(tmp_path / "m", appendfsync="everysec") as master:
        store = RedisEventStore.from_url(
            master.url, prefix="d", durability=Durability(local_fsync=True)
        )
        admin = aioredis.Redis.from_url(master.url)
        try:
            games = [f"g{n}" for n in range(20)]
            await asyncio.gather(*(create(store, g) for g in games))
            await admin.config_resetstat()
            results = await asyncio.gather(
                *(
                    append(store, g, pending(1), expected_version=1, command_id="c",
                                 recorded_at=NOW)
                    for g in games
                )
            )  # fmt: skip
            assert [r.seqs for r in results] == [[2]] * 20
            stats = await admin.info("commandstats")
            # The appends of a turn are one script call, each call followed by one wait.
            calls = stats["cmdstat_evalsha"]["calls"]
            assert calls < 5 and stats["cmdstat_waitaof"]["calls"] == calls
        finally:
            await admin.aclose()
            await store.close()


async def test_a_replica_must_confirm_or_the_command_is_answered_unconfirmed(
    tmp_path: Path,
) -> None:
    # The master listens on loopback TCP too (port=0): a replica connects over TCP.
    with EmbeddedRedis(tmp_path / "m", appendfsync="everysec", port=0) as master:
        replica = EmbeddedRedis(
            tmp_path / "r", extra_args=("--replicaof", master.host, str(master.port))
        ).start()
        # A replica's first fsync after its initial sync can take a while (it rewrites
        # its AOF), hence the long wait here and the short one once it is gone.
        patient = Durability(local_fsync=True, replicas=1, timeout_ms=10_000)
        store = RedisEventStore.from_url(master.url, prefix="d", durability=patient)
        brief = Durability(local_fsync=True, replicas=1, timeout_ms=300)
        hasty = RedisEventStore.from_url(master.url, prefix="d", durability=brief)
        try:
            await _replica_up(replica)
            await create(store, "g1")
            assert (await _append(store, "c1", 1)).seqs == [2, 3]

            replica.stop()
            with pytest.raises(DurabilityUnconfirmed, match="1 local and 0 replica") as info:
                await _append(hasty, "c2", 3)
            assert info.value.details["first_seq"] == 4 and info.value.details["replicas"] == 0
            assert await store.version("g1") == 5  # appended, only not confirmed
            again = await _append(hasty, "c2", 3)  # a retry answers with the first result
            assert again.duplicate and again.seqs == [4, 5]
        finally:
            await hasty.close()
            await store.close()
            replica.stop()


async def test_the_gateway_answers_durability_unconfirmed_and_a_retry_is_safe(
    tmp_path: Path,
) -> None:
    with EmbeddedRedis(tmp_path / "m") as master:
        settings = gateway_settings("dur", wait_replicas=1, wait_timeout_ms=100)
        async with running_gateway(settings, master.url) as running:
            peer = await Peer.open(f"ws://127.0.0.1:{running.port}/ws")
            created = await peer.request(
                {
                    "type": "create",
                    "client_entropy": "waived",
                    "ruleset": "counter",
                    "setup": {"target": 99},
                }
            )
            assert created["type"] == "error" and created["code"] == "durability_unconfirmed"
            gid = created["details"]["game_id"]
            assert await running.gateway.store.version(gid) == 1  # created, unconfirmed
            await peer.close()
