"""Clients that vanish mid-frame, half-open connections (a peer that stops answering,
mid-frame or idle) and clients that never read. The gateway (a real subprocess with a
1 s keepalive and slow-consumer limit) closes every one of them, its memory does not grow
from wave to wave (RSS measured), and a well-behaved client beside them is answered all
through every wave and misses no event.

How fast the well-behaved client is answered meanwhile is the machine's speed, not
asserted here: `python -m bench hostile_clients` (bench/hostile_clients.py) prints its
p99 and worst round trip beside the goal."""

from __future__ import annotations

import asyncio
import time

from tests.support.fleet import gateways
from umpire.engine.roles import Role
from umpire.events.redis_store import RedisEventStore
from umpire.server import credentials
from umpire.server.embedded import EmbeddedRedis
from umpire.server.games import Games
from umpire.testing.support.gateways import http_get
from umpire.testing.support.hostile_peers import (
    HOSTILE_ENV,
    never_reads,
    open_connections,
    wave,
)
from umpire.testing.support.peer import Peer

PER_KIND = 25  # hostile clients of each kind per wave
WAVES = 3
# A generous bound on the wait, not a speed: the gateway's limits add to ~4 s (ping 1 s +
# timeout 1 s + slow consumer 1 s + close timeout 1 s); without them a wave stays open.
CLOSE_WITHIN = 120.0
GROWTH_LIMIT_KIB = 8 * 1024  # RSS growth allowed from the first wave to the last


async def test_hostile_clients_are_closed_and_memory_stays_bounded(
    redis_server: EmbeddedRedis, prefix: str, store: RedisEventStore
) -> None:
    games = Games(store)
    long_game = await games.create("counter", {"target": 10**6})
    for i in range(600):  # 1,200 events: far more than a never-reading peer's buffers
        await games.handle(long_game.game_id, f"fill{i}", {"type": "Add", "amount": 1})
    with gateways(redis_server.url, prefix, 1, **HOSTILE_ENV) as (gateway,):
        owner = await Peer.open(gateway.url)
        created = await owner.ok({"type": "create", "ruleset": "counter",
                                  "setup": {"target": 10**6},
                                  "client_entropy": "waived"})  # fmt: skip
        await owner.close()
        spectate = await credentials.issue(store, long_game.game_id, Role.SPECTATOR)
        good = await Peer.open(gateway.url)
        gid = created["game_id"]
        await good.ok({"type": "auth", "credential": created["player_credential"]})
        await good.ok({"type": "subscribe", "game_id": gid, "from_seq": 0})
        answered = 0  # the well-behaved client's commands answered so far
        stop = asyncio.Event()

        async def steady() -> None:
            nonlocal answered
            while not stop.is_set() and answered < 2000:
                await good.ok({"type": "command", "game_id": gid, "command_id": f"g{answered}",
                               "command": {"type": "Add", "amount": 1}})  # fmt: skip
                answered += 1
                await asyncio.sleep(0.05)  # a steady player's pace

        worker = asyncio.create_task(steady())
        baseline = await open_connections(gateway.port)
        rss: list[int] = [gateway.rss_kib()]
        closing: list[float] = []
        during: list[int] = []  # the well-behaved client's answers while each wave was open
        for _ in range(WAVES):
            before = answered
            closing.append(
                await wave(
                    gateway.port, long_game.game_id, spectate, baseline, PER_KIND, CLOSE_WITHIN
                )
            )
            during.append(answered - before)
            # The wave is closed; once the player is answered again, its memory is read.
            after = answered
            while answered == after and not worker.done():
                await asyncio.sleep(0.01)
            rss.append(gateway.rss_kib())
        stop.set()
        await asyncio.wait_for(worker, 10)
        head = await store.version(gid)
        await good.wait_for(lambda f: f["type"] == "event" and f["seq"] == head, 10)
        assert [e["seq"] for e in good.events(gid)] == list(range(1, head + 1))
        await good.close()
        assert gateway.process.poll() is None, "".join(gateway.output[-20:])
    print(f"\nRSS KiB by wave: {rss}; seconds to close each wave: {closing}")
    print(f"well-behaved client: {answered} commands, {during} while each wave was open")
    assert rss[-1] - rss[1] < GROWTH_LIMIT_KIB, rss
    # Answered all through: while every wave of hostile clients was being closed.
    assert all(n > 0 for n in during), during


async def test_a_peer_that_stops_reading_with_nothing_more_to_send_is_dropped(
    redis_server: EmbeddedRedis, prefix: str, store: RedisEventStore
) -> None:
    """A subscriber stops reading after a catch-up that fills the socket but not its queue:
    no slow-consumer close comes (nothing more is queued), and the keepalive ping waits
    behind the full buffer, so only the gateway's sweep can find it."""
    games = Games(store)
    game = await games.create("counter", {"target": 10**6})
    for i in range(400):  # ~800 frames: more than the socket holds, less than the queue
        await games.handle(game.game_id, f"f{i}", {"type": "Add", "amount": 1})
    spectate = await credentials.issue(store, game.game_id, Role.SPECTATOR)
    env = {**HOSTILE_ENV, "UMPIRE_SEND_QUEUE_LIMIT": "2000", "UMPIRE_SLOW_CONSUMER_SECONDS": "60"}
    with gateways(redis_server.url, prefix, 1, **env) as (gateway,):
        baseline = await open_connections(gateway.port)
        stuck = await asyncio.to_thread(never_reads, gateway.port, game.game_id, spectate)
        try:
            started = time.monotonic()
            while await open_connections(gateway.port) > baseline:
                assert time.monotonic() - started < CLOSE_WITHIN, "the stuck peer stayed"
                await asyncio.sleep(0.2)
        finally:
            stuck.close()
        _, body = await http_get(gateway.port, "/metrics")
        assert 'umpire_errors_total{code="peer_not_reading"} 1' in body
        assert 'code="resync"' not in body  # it was the sweep, not the slow-consumer close
