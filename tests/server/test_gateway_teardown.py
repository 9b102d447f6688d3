"""Shutdown ends every connection handler, so the server's `wait_closed` returns: a
connection that opens while the gateway drains is closed with 1001 at once, and a
handler that outstays its cleanup is aborted and cancelled (server/gateway.py,
`Gateway.drain`), and the revocation listener stops however early it is stopped
(server/revocations.py)."""

from __future__ import annotations

import asyncio

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from umpire.events.redis_store import RedisEventStore
from umpire.events.wire import CLOSE_GOING_AWAY
from umpire.server import gateway as gateway_module
from umpire.server.app import running_gateway
from umpire.server.connection import Connection
from umpire.server.embedded import EmbeddedRedis
from umpire.server.revocations import RevocationListener
from umpire.testing.support.gateways import gateway_settings


async def test_a_connection_opened_while_draining_is_closed_going_away(
    redis_server: EmbeddedRedis, prefix: str
) -> None:
    async with running_gateway(gateway_settings(prefix), redis_server.url) as running:
        running.gateway.draining = True  # as between drain's close and the server's close
        async with connect(f"ws://127.0.0.1:{running.port}/ws") as ws:
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_GOING_AWAY
        assert not running.gateway.connections


async def test_a_handler_that_outstays_its_cleanup_is_ended_at_shutdown(
    redis_server: EmbeddedRedis, prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gateway_module, "CLEANUP_SECONDS", 0.2)
    stuck = asyncio.Event()

    async def cleanup_forever(self: Connection) -> None:
        stuck.set()
        await asyncio.Event().wait()  # a cleanup that never returns

    settings = gateway_settings(prefix, close_timeout=0.5)
    async with asyncio.timeout(30):  # without the fix, the server's wait_closed never returns
        async with running_gateway(settings, redis_server.url) as running:
            ws = await connect(f"ws://127.0.0.1:{running.port}/ws")
            await ws.recv()  # welcome
            # Every connection's (slots: no instance attribute), once this one is open.
            monkeypatch.setattr(Connection, "cleanup", cleanup_forever)
            await ws.close()
            await asyncio.wait_for(stuck.wait(), 5)
            assert running.gateway.handlers  # the handler is still running
        assert not running.gateway.handlers


async def test_the_revocation_listener_stops_when_cancelled_as_it_subscribes(
    redis_server: EmbeddedRedis, prefix: str
) -> None:
    # redis-py swallowed a cancellation that came while the subscribe connected: the
    # listener then listened forever and a gateway stopped within a few ms of starting
    # (a short test under load) never finished its teardown. Stopped at every moment
    # of its first 10 ms, on a new store as a gateway starts with, it ends each time.
    for step in range(20):
        store = RedisEventStore.from_url(redis_server.url, prefix=prefix)
        try:
            listener = RevocationListener(store, lambda game_id, digest: None, lambda: None)
            listener.start()
            await asyncio.sleep(step * 0.0005)
            stopping = asyncio.ensure_future(listener.stop())
            # Waited for, not wait_for: stop() suppresses the cancellation wait_for sends.
            done, _ = await asyncio.wait({stopping}, timeout=5)
            assert done and listener.task is not None and listener.task.done(), step
        finally:
            await store.close()
