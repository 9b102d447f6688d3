"""server/inbox.py: websockets' server connection with its messages in an inbox of our own
(not the library's assembler), as the gateway serves every connection: whole messages in
order, fragmented or not, text and binary; 1007 for text that is not UTF-8; reading
paused while too many wait; None once closed; the gateway's connections are such."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Callable

import msgspec
import pytest
import websockets
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosedError
from websockets.frames import CloseCode

from umpire.server.app import Running
from umpire.server.inbox import MAX_FRAGMENTS, InboxConnection
from umpire.testing.support.wire import text


async def wait_for(condition: Callable[[], object], timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


class Echo:
    """A server of InboxConnections whose handler echoes what `next_message` gives,
    until it gives None, or waits on `hold` first."""

    def __init__(self) -> None:
        self.hold = asyncio.Event()
        self.hold.set()
        self.connections: list[InboxConnection] = []
        self.ended: list[str] = []

    async def handler(self, ws: ServerConnection) -> None:
        assert isinstance(ws, InboxConnection)
        self.connections.append(ws)
        while True:
            await self.hold.wait()
            message = await ws.next_message()
            if message is None:
                self.ended.append("none")
                return
            await ws.send(message)


@pytest.fixture
async def echo() -> AsyncIterator[tuple[Echo, str]]:
    server = Echo()
    async with serve(server.handler, "127.0.0.1", 0, create_connection=InboxConnection,
                     max_size=2**16, max_queue=4) as running:  # fmt: skip
        port = next(iter(running.sockets)).getsockname()[1]
        try:
            yield server, f"ws://127.0.0.1:{port}"
        finally:
            server.hold.set()  # a handler held by a failed test must end for the close


async def test_messages_come_whole_and_in_order(echo: tuple[Echo, str]) -> None:
    server, url = echo
    async with connect(url) as ws:
        await ws.send("one")
        await ws.send(["fr", "ag", "ments"])  # a text message in three frames
        await ws.send(b"\x00binary")
        await ws.send([b"bin", b"ary"])
        await ws.send("é")
        assert [await ws.recv() for _ in range(5)] == [
            "one", "fragments", b"\x00binary", b"binary", "é",
        ]  # fmt: skip
        # Nothing went through the library's assembler.
        assert not server.connections[0].recv_messages.frames


async def test_text_that_is_not_utf8_closes_with_1007(echo: tuple[Echo, str]) -> None:
    _, url = echo
    async with connect(url) as ws:
        # A text frame's bytes sent as they are: the client library would not send them.
        await ws.send(b"\xff\xfe", text=True)
        with pytest.raises(ConnectionClosedError) as closed:
            await asyncio.wait_for(ws.recv(), 5)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == CloseCode.INVALID_DATA
    assert "invalid start byte at position 0" in closed.value.rcvd.reason


async def test_reading_pauses_while_more_than_max_queue_wait(echo: tuple[Echo, str]) -> None:
    server, url = echo
    server.hold.clear()
    async with connect(url) as ws:
        await wait_for(lambda: server.connections)
        conn = server.connections[0]
        for n in range(8):
            await ws.send(str(n))
        # max_queue 4: reading pauses once a fifth waits (one read may bring them all).
        await wait_for(lambda: len(conn.inbox) > 4 and not conn.transport.is_reading())
        server.hold.set()
        assert [await ws.recv() for _ in range(8)] == [str(n) for n in range(8)]
        assert conn.transport.is_reading() is True


async def test_next_message_is_none_once_closed(echo: tuple[Echo, str]) -> None:
    server, url = echo
    async with connect(url) as ws:
        await ws.send("last")
        assert await ws.recv() == "last"
    await wait_for(lambda: server.ended == ["none"])


async def test_the_gateways_connections_read_from_their_inbox(
    gateway: Running, ws_url: str
) -> None:
    async with websockets.connect(ws_url) as ws:
        await ws.recv()  # welcome
        # A message in two frames is one message to the session.
        frame = text({"type": "list_games", "id": "l1"})
        await ws.send([frame[:10], frame[10:]])
        reply = msgspec.json.decode(await asyncio.wait_for(ws.recv(), 5))
        assert reply["id"] == "l1" and reply["type"] != "error"
        conns = list(gateway.gateway.connections)
        assert len(conns) == 1 and isinstance(conns[0].ws, InboxConnection)


async def test_a_message_in_more_frames_than_allowed_closes_1009(echo: tuple[Echo, str]) -> None:
    # Red team 9b: empty continuation frames add nothing to a message's size, so
    # `max_size` never refuses them; the library's assembler closes 1009 past
    # MAX_FRAGMENTS frames, and the inbox, which takes its place, read them for ever
    # (holding a pointer each): a client that never ends its message was never closed.
    server, url = echo

    async def fragments() -> AsyncIterator[str]:
        yield "a"
        for _ in range(MAX_FRAGMENTS + 10):
            yield ""
        yield "b"

    async with connect(url) as ws:
        with pytest.raises(ConnectionClosedError) as closed:
            await ws.send(fragments())
            await asyncio.wait_for(ws.recv(), 10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == CloseCode.MESSAGE_TOO_BIG
    assert closed.value.rcvd.reason == "too many fragments"
    await wait_for(lambda: server.ended == ["none"])
    assert len(server.connections[0].inbox) == 0


async def test_a_message_in_many_frames_holds_its_bytes_not_its_frames(
    echo: tuple[Echo, str],
) -> None:
    # Below the frame limit, a partial message holds its bytes (a frame list held a
    # pointer a frame: 8 bytes a frame beyond what `max_size` bounds).
    server, url = echo
    sent, finish = asyncio.Event(), asyncio.Event()

    async def fragments() -> AsyncIterator[str]:
        yield "a"
        for _ in range(MAX_FRAGMENTS - 3):  # the library ends with an empty frame
            yield ""
        sent.set()
        await finish.wait()
        yield "b"

    async with connect(url) as ws:
        sending = asyncio.create_task(ws.send(fragments()))
        await wait_for(lambda: server.connections)
        conn = server.connections[0]
        await asyncio.wait_for(sent.wait(), 30)
        # A ping between fragments: its pong says the server has read every frame before.
        await asyncio.wait_for(await ws.ping(), 30)
        assert sys.getsizeof(conn._parts) < 1024
        finish.set()
        await sending
        assert await asyncio.wait_for(ws.recv(), 5) == "ab"


async def test_the_gateway_closes_a_message_in_too_many_frames_and_serves_on(
    gateway: Running, ws_url: str
) -> None:
    # Red team 9b, at the gateway: on main its connection read the frames for ever.
    async def fragments() -> AsyncIterator[str]:
        yield '{"type": "list_games", '
        for _ in range(MAX_FRAGMENTS + 10):
            yield ""
        yield '"id": "l1"}'

    async with websockets.connect(ws_url) as ws:
        await ws.recv()  # welcome
        with pytest.raises(ConnectionClosedError) as closed:
            await ws.send(fragments())
            await asyncio.wait_for(ws.recv(), 10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == CloseCode.MESSAGE_TOO_BIG
    async with websockets.connect(ws_url) as ws:
        await ws.recv()  # welcome
        await ws.send(text({"type": "list_games", "id": "l2"}))
        reply = msgspec.json.decode(await asyncio.wait_for(ws.recv(), 5))
        assert reply["id"] == "l2" and reply["type"] != "error"
