"""A subscription's catch-up task, cancelled when its client leaves mid catch-up, ends
cancelled (server/delivery.py `Delivery._catch_up`): whoever cancels it and waits sees a
cancelled task, as asyncio's contract for a task that catches CancelledError requires,
and a normal disconnect logs nothing at ERROR."""

from __future__ import annotations

import asyncio
import gc
import logging
import weakref

import pytest

from tests.support.waiting import until
from umpire.clients import UmpireClient
from umpire.server.app import Running, running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.server.game_feed import WINDOW
from umpire.testing.support.dice import seed_source
from umpire.testing.support.gateways import append_added, gateway_settings
from umpire.testing.support.peer import Peer


async def _catch_up_task(running: Running, game_id: str) -> asyncio.Task[None]:
    """The running catch-up task of the gateway's one subscription to `game_id`."""
    for _ in range(500):
        for conn in running.gateway.connections:
            sub = conn.subs.get(game_id)
            if sub is not None and sub.task is not None:
                return sub.task
        await asyncio.sleep(0.01)
    raise AssertionError("no catch-up task started")


async def test_a_client_leaving_mid_catch_up_ends_its_task_cancelled(
    redis_server: EmbeddedRedis,
    prefix: str,
    caplog: pytest.LogCaptureFixture,
    request: pytest.FixtureRequest,
) -> None:
    """Fails on main: the task caught its CancelledError and returned, so it ended
    `cancelled() is False`."""
    caplog.set_level(logging.INFO)
    # A budget of 30 units a connection, refilled at 0.1 a second: the create (20) is
    # paid, and the spectator's first two catch-up pages read from the stream (25 events,
    # 13 units each); the third waits over a minute for its budget, so the client leaves
    # while its catch-up runs, however loaded the machine.
    # No keepalive ping during the test (it takes over 20 s on a loaded machine): a ping
    # in flight when the client leaves is not what this test is about, and its waiter
    # may outlive the connection for a while.
    settings = gateway_settings(prefix, cost_per_second=0.1, cost_burst=30.0, ping_interval=3600.0)
    options = {"draw_seed": seed_source(request)}
    async with running_gateway(settings, redis_server.url, games_options=options) as running:
        url = f"ws://127.0.0.1:{running.port}/ws"
        async with UmpireClient(url) as player:
            created = await player.create("counter", {"target": 1_000_000})
        # Longer than a feed's window: the early events come from the stream, paced.
        await append_added(running, created.game_id, WINDOW + 200, batch=100)
        spectator = await Peer.open(url)
        await spectator.ok({"type": "auth", "credential": created.spectator_credential})
        await spectator.ok({"type": "subscribe", "game_id": created.game_id, "from_seq": 0})
        task = await _catch_up_task(running, created.game_id)
        await spectator.wait_for(lambda f: f["type"] == "event")
        assert not task.done()  # mid catch-up: paced, far from the head
        [conn] = running.gateway.connections
        connection = weakref.ref(conn)
        del conn
        gc.collect()
        gc.disable()
        try:
            await spectator.ws.close()
            await asyncio.wait({task}, timeout=10)
            assert task.done() and task.cancelled()
            del task
            gateway = running.gateway
            await until(
                lambda: not gateway.handlers and not gateway.connections,
                what="the connection's handler ended",
            )
            # The cancelled task's error holds its frame, and the frame its connection: no
            # cycle through the subscription keeps it for a full collection. (Its last
            # references go as the handler's callbacks run: waited for, gc still off.)
            await until(lambda: connection() is None, what="the Connection freed, gc off")
        finally:
            gc.enable()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]
