"""Concurrent writers on games spread over all three masters keep every core-log invariant,
and a reshard of a game's slot under load loses and duplicates nothing."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from bench.cluster import LocalCluster
from tests.support.cluster_load import BATCH, Tail, check_game, tail_until, write_game
from tests.support.waiting import until
from umpire.events.redis_store import RedisEventStore


def blocked_reads(cluster: LocalCluster) -> int:
    """Connections across the masters waiting in a blocking XREAD (a tail, waiting)."""
    return sum(1 for c in cluster.clients() if "b" in c["flags"] and c.get("cmd") == "xread")


def games_per_master(
    cluster: LocalCluster, store: RedisEventStore, per_master: int, label: str
) -> dict[int, list[str]]:
    """Game ids chosen so each master serves `per_master` of them."""
    chosen: dict[int, list[str]] = {port: [] for port in cluster.ports}
    for n in itertools.count():
        game = f"{label}{n}"
        owner = cluster.owner(cluster.slot_of(store.keys(game).stream))
        if len(chosen[owner]) < per_master:
            chosen[owner].append(game)
        if all(len(g) == per_master for g in chosen.values()):
            return chosen
        assert n < 1000
    raise AssertionError("unreachable")


async def test_concurrent_writers_on_all_three_shards_keep_the_log(
    cluster: LocalCluster, cluster_store: RedisEventStore
) -> None:
    chosen = games_per_master(cluster, cluster_store, 2, "spread")
    games = [g for gs in chosen.values() for g in gs]
    commands, writers = 8, 4
    final = 1 + BATCH * commands * writers
    tails = [asyncio.create_task(tail_until(cluster_store, g, final, 60)) for g in games]

    async def tails_waiting() -> bool:
        return await asyncio.to_thread(blocked_reads, cluster) >= len(games)

    # the tails start (and wait) before the games exist
    await until(tails_waiting, what="every tail in its blocking read")
    written = await asyncio.gather(
        *(write_game(cluster_store, g, writers=writers, commands=commands) for g in games)
    )
    for w in written:
        assert await check_game(cluster_store, w) == final
        assert w.duplicates_checked == writers * 3
    for seen in await asyncio.gather(*tails):
        assert seen == list(range(1, final + 1)), "tail gap or repeat"


async def reshard_under_load(
    cluster: LocalCluster, store: RedisEventStore, *, moves: int, pause: float
) -> int:
    """Writers on a hot game (and neighbours on the other masters) keep writing while the
    hot game's slot moves master to master `moves` times, one key per MIGRATE with `pause`
    between keys so the slot stays split for a while; then every invariant, and a tail that
    saw each event once. Returns how many appends were refused with TRYAGAIN and retried."""
    chosen = games_per_master(cluster, store, 1, f"hot{moves}x")
    games = [g for gs in chosen.values() for g in gs]
    hot = games[0]
    slot = cluster.slot_of(store.keys(hot).stream)
    done = asyncio.Event()
    tail = Tail(store, hot)
    load = asyncio.gather(
        *(write_game(store, g, writers=3, commands=5000, deadline=300, until=done) for g in games)
    )
    retries_before = store.reshard_retries
    moved_keys = 0

    async def written_on() -> None:
        """Until the hot game has 10 more commands (a count, not a time: the writers write
        between the moves however loaded the machine)."""
        mark = await store.version(hot)

        async def grown() -> bool:
            return await store.version(hot) >= mark + 10 * BATCH

        await until(grown, what="10 more commands on the hot game")

    try:
        for _ in range(moves):
            await written_on()
            source = cluster.owner(slot)
            target = cluster.ports[(cluster.ports.index(source) + 1) % len(cluster.ports)]
            moved_keys += await asyncio.to_thread(cluster.migrate_slot, slot, target, pause=pause)
            assert cluster.owner(slot) == target
        await written_on()
    finally:
        done.set()
        written = await load
    assert moved_keys >= 3 * moves, "the hot game's keys really moved"
    for w in written:
        total = await check_game(store, w)
        assert total > 1 + BATCH * 3 * 2, "writers kept writing through the reshard"
    final = await store.version(hot)
    assert await tail.until(final, 30) == list(range(1, final + 1)), "tail gap or repeat"
    return store.reshard_retries - retries_before


async def test_a_reshard_of_a_hot_slot_under_load_loses_and_duplicates_nothing(
    cluster: LocalCluster, cluster_store: RedisEventStore
) -> None:
    retried = await reshard_under_load(cluster, cluster_store, moves=2, pause=0.15)
    assert retried > 0, "no append met the split slot: the test did not test the reshard"


@pytest.mark.soak
async def test_many_reshards_under_load_lose_and_duplicate_nothing(
    cluster: LocalCluster, cluster_store: RedisEventStore
) -> None:
    retried = await reshard_under_load(cluster, cluster_store, moves=12, pause=0.3)
    assert retried > 0
