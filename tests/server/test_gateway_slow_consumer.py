"""A client that stops reading is closed with the resync code; nobody else waits for it."""

from __future__ import annotations

import asyncio
import socket

import msgspec
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from clients.client import UmpireClient
from events.wire import CLOSE_RESYNC
from server.app import running_gateway
from server.embedded import EmbeddedRedis
from tests.server.conftest import gateway_settings
from tests.server.test_gateway_resume import append_added
from tests.support.wire import text


async def test_a_client_that_never_reads_is_closed_for_resync(
    redis_server: EmbeddedRedis, prefix: str
) -> None:
    settings = gateway_settings(
        prefix, send_queue_limit=100, slow_consumer_seconds=2.0, socket_send_buffer=16384
    )
    async with running_gateway(settings, redis_server.url) as running:
        url = f"ws://127.0.0.1:{running.port}/ws"
        async with UmpireClient(url) as owner:
            created = await owner.create("counter", {"target": 1_000_000})
            total = 1 + 20_000
            # The stalled client: its library stops reading after 1 buffered frame, and a
            # fixed small receive buffer stops the kernel from absorbing megabytes for it.
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8192)
            sock.setblocking(False)
            await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", running.port))
            stalled = await connect(url, max_queue=1, sock=sock, compression=None)
            await stalled.recv()
            await stalled.send(text({"type": "auth", "credential": created.spectator_credential}))
            await stalled.send(text({"type": "subscribe", "game_id": created.game_id,
                                     "from_seq": 0}))  # fmt: skip
            seen: list[int] = []

            async def healthy() -> None:
                async for frame in owner.subscribe(created.game_id, 0):
                    seen.append(frame.seq)
                    if frame.seq == total:
                        return

            watcher = asyncio.create_task(healthy())
            await append_added(running, created.game_id, 20_000, batch=100)
            await asyncio.wait_for(watcher, 60)  # the healthy client got everything
            assert seen == list(range(1, total + 1))
            # Now read what the stalled one was sent: it must end with the resync close.
            last = 0
            with pytest.raises(ConnectionClosed) as info:
                while True:
                    frame = msgspec.json.decode(await asyncio.wait_for(stalled.recv(), 10))
                    if frame.get("type") == "event":
                        assert frame["seq"] == last + 1
                        last = frame["seq"]
            assert info.value.rcvd is not None and info.value.rcvd.code == CLOSE_RESYNC
            assert last < total
            assert running.gateway.metrics.errors["resync"] >= 1
        # It resumes from its last seq and gets exactly the rest.
        async with UmpireClient(url) as resumed:
            await resumed.auth(created.spectator_credential)
            rest = []
            async for frame in resumed.subscribe(created.game_id, last):
                rest.append(frame.seq)
                if frame.seq == total:
                    break
            assert rest == list(range(last + 1, total + 1))
