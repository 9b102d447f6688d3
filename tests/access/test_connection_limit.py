"""Connections per client: one over `max_connections_per_address` is closed with 4029
before its welcome; a slot frees when a connection closes; other clients are served. On
loopback the client is this test's local account (events/local_users.py)."""

from __future__ import annotations

import asyncio
import os

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.support.waiting import until
from umpire.events.wire import CLOSE_TOO_MANY_CONNECTIONS
from umpire.server.admission import client_key
from umpire.server.app import running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.gateways import gateway_settings


async def test_connection_over_the_per_address_limit_closes_4029(
    redis_server: EmbeddedRedis, prefix: str
) -> None:
    settings = gateway_settings(prefix, max_connections_per_address=3)
    async with running_gateway(settings, redis_server.url) as running:
        url = f"ws://127.0.0.1:{running.port}/ws"
        me = client_key("127.0.0.1", os.getuid())
        held = [await connect(url) for _ in range(3)]
        for ws in held:
            assert '"welcome"' in await asyncio.wait_for(ws.recv(), 5)
        extra = await connect(url)
        with pytest.raises(ConnectionClosed) as info:
            await asyncio.wait_for(extra.recv(), 5)
        assert info.value.rcvd is not None and info.value.rcvd.code == CLOSE_TOO_MANY_CONNECTIONS
        assert "at most 3 connections per local account" in info.value.rcvd.reason
        # The held connections are unaffected.
        await held[0].send('{"type": "list_games", "id": "a"}')
        assert '"games"' in await asyncio.wait_for(held[0].recv(), 5)
        # A slot frees when one closes.
        await held[1].close()
        await until(  # the server sees the close shortly after
            lambda: running.gateway.clients.open.get(me) == 2,
            what="the server saw the close",
        )
        again = await connect(url)
        assert '"welcome"' in await asyncio.wait_for(again.recv(), 5)
        assert running.gateway.metrics.errors["too_many_connections"] == 1
        for ws in (held[0], held[2], again):
            await ws.close()
        await until(lambda: running.gateway.clients.open == {}, what="every connection gone")
