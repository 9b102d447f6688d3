"""Fan-out writes a push's frames to every live subscriber's socket in the feed's own step
(server/framing.py): one write per subscriber however many events, no subscriber's writer
task woken, nothing waiting in a queue, each event encoded once for all of them.

Fails on main: there the push put each frame into 30 queues and no frame was written
until 30 writer tasks had each run (frames_sent unchanged after the push), one write per
frame."""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import pytest
import websockets
from websockets.frames import Frame, Opcode

from umpire.server import event_frames
from umpire.server.app import running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.server.framing import text_frame
from umpire.testing.support.gateways import append_added, gateway_settings

SUBSCRIBERS = 30


@pytest.mark.parametrize("size", [0, 125, 126, 65535, 65536, 200_000])
def test_a_text_frame_is_the_bytes_the_library_writes(size: int) -> None:
    payload = b"x" * size
    assert text_frame(payload) == Frame(Opcode.TEXT, payload).serialize(mask=False)


async def test_live_frames_reach_every_socket_in_the_feeds_step(
    redis_server: EmbeddedRedis, prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    encoded = 0
    real_encode = event_frames.encode_frame

    def counting(*args: object) -> bytes | None:
        nonlocal encoded
        encoded += 1
        return real_encode(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(event_frames, "encode_frame", counting)
    async with running_gateway(gateway_settings(prefix), redis_server.url) as running:
        url = f"ws://127.0.0.1:{running.port}/ws"
        owner = await websockets.connect(url)
        await owner.recv()
        await owner.send('{"type":"create","ruleset":"counter","setup":{"target":1000000}}')
        created = msgspec.json.decode(await owner.recv())
        gid, spectator = created["game_id"], created["spectator_credential"]
        conns = [await websockets.connect(url) for _ in range(SUBSCRIBERS)]
        try:
            for ws in conns:
                await ws.recv()  # welcome
                await ws.send(
                    msgspec.json.encode(
                        {"type": "subscribe", "game_id": gid, "from_seq": 0,
                         "credential": spectator}
                    ).decode()
                )  # fmt: skip
            feeds = running.gateway.notifier.feeds
            for _ in range(1500):  # up to 30 s: returns when they are
                if gid in feeds and len(feeds[gid].live) == SUBSCRIBERS:
                    break
                await asyncio.sleep(0.02)
            feed = feeds[gid]
            assert len(feed.live) == SUBSCRIBERS
            # Every frame so far written (none queued, none being sent): the hook below
            # must count only what comes next, however slowly a loaded runner drains them.
            for _ in range(1500):
                if all(c.out.empty() and c.blocked_since is None
                       for c in running.gateway.connections):  # fmt: skip
                    break
                await asyncio.sleep(0.02)
            metrics = running.gateway.metrics
            writes = 0

            def counted(real: Any) -> Any:
                def write(data: bytes) -> None:
                    nonlocal writes
                    writes += 1
                    real(data)

                return write

            for conn in running.gateway.connections:
                conn.ws.transport.write = counted(conn.ws.transport.write)  # type: ignore[method-assign]
            # Held: the notification's own refresh waits, and this step does the push.
            async with feed._lock:
                await append_added(running, gid, 3, batch=3, label="three")
                fresh = await feed.store.read(gid, feed.head + 1)
                assert len(fresh) == 3
                for env in fresh:
                    feed.window[env.seq] = feed._cache(env)
                    feed.head = env.seq
                sent, encoded = metrics.frames_sent, 0
                feed._push()
                assert metrics.frames_sent - sent == 3 * SUBSCRIBERS
                assert writes == SUBSCRIBERS  # the three frames in one write each
                assert all(conn.out.empty() for conn in running.gateway.connections)
                assert encoded == 3  # one role: each event encoded once for everyone
            for ws in conns:
                while True:
                    frame = msgspec.json.decode(await asyncio.wait_for(ws.recv(), 10))
                    if frame["type"] == "event" and frame["seq"] == env.seq:
                        break
        finally:
            for ws in [owner, *conns]:
                await ws.close()
