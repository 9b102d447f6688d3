"""A client that stops reading is closed with the resync code; nobody else waits for it."""

from __future__ import annotations

import asyncio

import msgspec

from umpire.clients import UmpireClient
from umpire.events.wire import CLOSE_RESYNC
from umpire.server.app import running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.gateways import append_added, gateway_settings
from umpire.testing.support.raw_ws import RawWebSocket


async def test_a_client_that_never_reads_is_closed_for_resync(
    redis_server: EmbeddedRedis, prefix: str
) -> None:
    settings = gateway_settings(
        prefix, send_queue_limit=100, slow_consumer_seconds=2.0, socket_send_buffer=16384
    )
    async with running_gateway(settings, redis_server.url) as running:
        url = f"ws://127.0.0.1:{running.port}/ws"
        async with UmpireClient(url) as owner:
            created = await owner.create("counter", {"target": 1_000_000}, client_entropy="waived")
            # The stalled client completes the handshake, subscribes, then never reads.
            loop = asyncio.get_running_loop()
            # Built in a thread: its blocking handshake must not stall this event loop.
            stalled = await loop.run_in_executor(None, RawWebSocket, running.port)
            stalled.send_json({"type": "auth", "credential": created.spectator_credential})
            stalled.send_json({"type": "subscribe", "game_id": created.game_id, "from_seq": 0})
            seen: list[int] = []

            async def healthy() -> None:
                async for frame in owner.subscribe(created.game_id, 0):
                    seen.append(frame.seq)

            watcher = asyncio.create_task(healthy())
            # Keep appending until the gateway gives up on the stalled client (bounded).
            produced = 0
            while not running.gateway.metrics.errors["resync"] and produced < 200_000:
                await append_added(running, created.game_id, 1_000, batch=100, label=f"b{produced}")
                produced += 1_000
                await asyncio.sleep(0.5)
            total = 1 + produced
            for _ in range(600):  # the healthy client gets everything (bounded wait)
                if seen and seen[-1] == total:
                    break
                await asyncio.sleep(0.1)
            watcher.cancel()
            assert seen == list(range(1, total + 1))
            # Now read what the stalled one was sent: it must end with the resync close.
            last, close_code = 0, None
            while close_code is None:
                opcode, payload = await loop.run_in_executor(None, stalled.read_frame)
                if opcode == 0x8:  # close frame: 2-byte code first
                    close_code = int.from_bytes(payload[:2], "big")
                elif opcode == 0x1:
                    frame = msgspec.json.decode(payload)
                    if frame.get("type") == "event":
                        assert frame["seq"] == last + 1
                        last = frame["seq"]
            stalled.close()
            assert close_code == CLOSE_RESYNC
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
