"""Live delivery: a caught-up subscription is fed by its game's feed, with no task of its
own, and one whose queue overflows catches up alone and comes back live, with no gap and
no repeat."""

from __future__ import annotations

import asyncio
import socket

import msgspec
import websockets

from tests.support.waiting import until
from umpire.clients import UmpireClient
from umpire.server.app import running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.server.notifier import Notifier
from umpire.testing.support.gateways import append_added, consume_until, gateway_settings

SUBSCRIBERS = 50


async def _read_events(ws: websockets.ClientConnection, until: int) -> list[int]:
    """The seqs of the event frames `ws` receives, up to seq `until`."""
    seqs: list[int] = []
    while not seqs or seqs[-1] < until:
        frame = msgspec.json.decode(await asyncio.wait_for(ws.recv(), 10))
        if frame["type"] == "event":
            seqs.append(frame["seq"])
    return seqs


async def test_caught_up_subscriptions_hold_no_task(
    redis_server: EmbeddedRedis, prefix: str
) -> None:
    async with running_gateway(gateway_settings(prefix), redis_server.url) as running:
        url = f"ws://127.0.0.1:{running.port}/ws"
        async with UmpireClient(url) as owner:
            created = await owner.create("counter", {"target": 1_000_000})
            conns = [await websockets.connect(url) for _ in range(SUBSCRIBERS)]
            try:
                for ws in conns:
                    await ws.recv()  # welcome
                    await ws.send(
                        msgspec.json.encode(
                            {"type": "auth", "credential": created.spectator_credential}
                        ).decode()
                    )
                    await ws.recv()  # authenticated: an auth leaves no task behind
                before = len(asyncio.all_tasks())
                for ws in conns:
                    message = {"type": "subscribe", "game_id": created.game_id, "from_seq": 0}
                    await ws.send(msgspec.json.encode(message).decode())
                for ws in conns:
                    assert await _read_events(ws, 1) == [1]
                # One task per subscription would add 50; the feed's refreshes may add one.
                # (A catch-up's task may end just after its first event: waited for.)
                await until(
                    lambda: len(asyncio.all_tasks()) - before <= 2,
                    what="at most two tasks more than before the subscribes",
                )
                feed = running.gateway.notifier.feeds[created.game_id]
                assert len(feed.live) == SUBSCRIBERS
                # And live they get every new event, in order.
                for n in range(5):
                    await owner.send(
                        created.game_id, {"type": "Add", "amount": 1}, command_id=f"add-{n}"
                    )
                head = feed.head
                for ws in conns:
                    assert await _read_events(ws, head) == list(range(2, head + 1))
            finally:
                for ws in conns:
                    await ws.close()


async def test_an_overflowing_live_subscription_catches_up_and_goes_live_again(
    redis_server: EmbeddedRedis, prefix: str
) -> None:
    # A queue of 10 frames (the least allowed), and a small socket send buffer while the
    # client reads nothing: the socket fills, frames wait in the queue, and it overflows.
    # (A live frame is written straight to a socket with room, server/framing.py, so only
    # a client that does not read can overflow its queue.)
    settings = gateway_settings(prefix, send_queue_limit=10, slow_consumer_seconds=30.0)
    async with running_gateway(settings, redis_server.url) as running:
        url = f"ws://127.0.0.1:{running.port}/ws"
        async with UmpireClient(url) as client:
            created = await client.create("counter", {"target": 1_000_000})
            total = 1 + 3000
            received: list[int] = []
            consumer = asyncio.create_task(consume_until(client, created.game_id, total, received))
            await _until_live(running.gateway.notifier, created.game_id)
            transport = client._ws.transport  # type: ignore[union-attr]
            (conn,) = running.gateway.connections
            sent_from = conn.ws.transport.get_extra_info("socket")
            sent_from.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
            transport.pause_reading()
            await append_added(running, created.game_id, 3000, batch=100)
            # the live frames meet the full socket, queue, and overflow the queue
            await until(
                lambda: running.gateway.metrics.subscriptions_lagged >= 1,
                what="the subscription's queue overflowed (subscriptions_lagged)",
            )
            sent_from.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
            transport.resume_reading()
            await asyncio.wait_for(consumer, 60)
            assert received == list(range(1, total + 1))
            metrics = running.gateway.metrics
            assert metrics.subscriptions_lagged >= 1
            assert not metrics.errors["resync"]
            await _until_live(running.gateway.notifier, created.game_id)


async def _until_live(notifier: Notifier, game_id: str) -> None:
    """Wait (bounded) until the game's one subscription is live."""
    for _ in range(250):
        feed = notifier.feeds.get(game_id)
        if feed is not None and len(feed.live) == 1:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the subscription never went live")
