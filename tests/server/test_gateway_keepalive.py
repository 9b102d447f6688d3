"""Keepalive: the gateway pings every connection from one task; a peer that answers stays,
a peer that never answers is closed with 1011 in bounded time."""

from __future__ import annotations

import asyncio
import time

import websockets

from umpire.events.wire import CLOSE_KEEPALIVE_TIMEOUT
from umpire.server.app import running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.gateways import gateway_settings
from umpire.testing.support.raw_ws import RawWebSocket

PING, CLOSE = 0x9, 0x8
INTERVAL = TIMEOUT = 0.3


def _frames_until_close(ws: RawWebSocket) -> tuple[int, int, float]:
    """Read (never answering) until the server's close: pings seen, close code, when."""
    pings = 0
    while True:
        opcode, payload = ws.read_frame()
        if opcode == PING:
            pings += 1
        elif opcode == CLOSE:
            return pings, int.from_bytes(payload[:2], "big"), time.monotonic()


async def test_a_silent_peer_is_closed_and_an_answering_one_stays(
    redis_server: EmbeddedRedis, prefix: str
) -> None:
    settings = gateway_settings(prefix, ping_interval=INTERVAL, ping_timeout=TIMEOUT)
    async with running_gateway(settings, redis_server.url) as running:
        url = f"ws://127.0.0.1:{running.port}/ws"
        # The library client answers pings; its own pings are off, so only ours flow.
        async with websockets.connect(url, ping_interval=None) as answering:
            await answering.recv()  # welcome
            started = time.monotonic()
            silent = await asyncio.to_thread(RawWebSocket, running.port)
            try:
                pings, code, closed_at = await asyncio.to_thread(_frames_until_close, silent)
            finally:
                silent.close()
            assert pings == 1  # one ping, never answered
            assert code == CLOSE_KEEPALIVE_TIMEOUT
            # Closed after its one unanswered ping, not before the timeout ran (how soon
            # after is the machine's speed, which no default test asserts).
            assert closed_at - started >= TIMEOUT
            await asyncio.sleep(4 * INTERVAL)  # several rounds of pings for the other one
            assert answering.state is websockets.State.OPEN
            assert running.gateway.metrics.errors["keepalive_timeout"] == 1
            # Its pongs came back: websockets measured their latency on the server side.
            answered = [c.ws.latency for c in running.gateway.connections]
            assert answered and all(latency > 0 for latency in answered)


async def test_connections_hold_no_keepalive_task_of_their_own(
    redis_server: EmbeddedRedis, prefix: str
) -> None:
    async with running_gateway(gateway_settings(prefix), redis_server.url) as running:
        url = f"ws://127.0.0.1:{running.port}/ws"
        # No wait: running_gateway has created its background tasks when it yields, and
        # none of them comes or goes on its own (only connections add tasks).
        before = len(asyncio.all_tasks())
        conns = [await websockets.connect(url, ping_interval=None) for _ in range(20)]
        try:
            for ws in conns:
                await ws.recv()  # welcome
            # Per connection: websockets' handler and our writer (the client side runs
            # none). A keepalive task of websockets' would make it three.
            assert len(asyncio.all_tasks()) - before == 2 * len(conns)
        finally:
            for ws in conns:
                await ws.close()
