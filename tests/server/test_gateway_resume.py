"""Resume: a client that loses its connection receives exactly the events it missed."""

from __future__ import annotations

import asyncio
import random

from umpire.clients import UmpireClient
from umpire.server.app import Running
from umpire.testing.support.gateways import append_added, consume_until


async def test_100_random_disconnects_during_5000_events(gateway: Running, ws_url: str) -> None:
    rng = random.Random(20261121)
    async with UmpireClient(ws_url, retry_delay=0.01) as client:
        created = await client.create("counter", {"target": 1_000_000})
        total = 1 + 5000
        received: list[int] = []
        consumer = asyncio.create_task(consume_until(client, created.game_id, total, received))
        producer = asyncio.create_task(append_added(gateway, created.game_id, 5000))
        drops = 0
        while drops < 100:
            await asyncio.sleep(rng.uniform(0.001, 0.02))
            ws = client._ws
            if ws is not None and ws.transport is not None and not ws.transport.is_closing():
                ws.transport.abort()  # an abrupt drop, as a network failure would cause
                drops += 1
        await producer
        await asyncio.wait_for(consumer, 60)
        assert received == list(range(1, total + 1))
        assert client.reconnects >= 50  # the drops really did force reconnections


async def test_resume_from_last_seq_on_a_new_connection(gateway: Running, ws_url: str) -> None:
    async with UmpireClient(ws_url) as first:
        created = await first.create("counter", {"target": 1_000_000})
        for i in range(5):
            await first.send(created.game_id, {"type": "Push"}, command_id=f"p{i}")
    async with UmpireClient(ws_url) as second:
        await second.auth(created.spectator_credential)
        seqs = []
        async for frame in second.subscribe(created.game_id, from_seq=9):
            seqs.append(frame.seq)
            if frame.seq == 16:
                break
        assert seqs == list(range(10, 17))


async def test_command_retried_after_a_drop_is_applied_once(gateway: Running, ws_url: str) -> None:
    async with UmpireClient(ws_url, retry_delay=0.01) as client:
        created = await client.create("counter", {"target": 1_000_000})
        send = asyncio.create_task(
            client.send(created.game_id, {"type": "Push"}, command_id="once")
        )
        await asyncio.sleep(0)  # the frame is on its way
        assert client._ws is not None and client._ws.transport is not None
        client._ws.transport.abort()
        accepted = await asyncio.wait_for(send, 10)
        again = await client.send(created.game_id, {"type": "Push"}, command_id="once")
        assert again.seqs == accepted.seqs and again.duplicate
        view = await client.view(created.game_id)
        assert view.state["pushes"] == 1
