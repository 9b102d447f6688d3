"""A test peer on a bare `websockets` connection that keeps every frame it receives.

Requests are matched to replies by id; every other frame (events, unsolicited errors) is
kept in order, so tests can inspect exactly what the server sent to one client.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from umpire.testing.support.nonces import nonce_of
from umpire.testing.support.wire import text


class Peer:
    """One websocket client; `frames` holds every decoded frame received, in order."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self._ids = itertools.count(1)
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._arrived = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, url: str, **kwargs: Any) -> Peer:
        """Connect and wait for the welcome frame."""
        ws = await connect(url, max_size=2**24, open_timeout=5, **kwargs)
        peer = cls(ws)
        await peer.wait_for(lambda f: f["type"] == "welcome")
        return peer

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                assert isinstance(raw, str)
                frame = msgspec.json.decode(raw)
                self.raw.append(raw)
                self.frames.append(frame)
                future = self._waiting.pop(frame.get("id") or "", None)
                if future is not None and not future.done():
                    future.set_result(frame)
                self._arrived.set()
        except ConnectionClosed:
            pass
        finally:
            for future in self._waiting.values():
                if not future.done():
                    future.set_exception(ConnectionError(f"connection closed{self._why()}"))
            self._arrived.set()

    def _why(self) -> str:
        """The close code and reason, if the close handshake gave them: a test that fails
        on a closed connection says who closed it and why (keepalive, rate limit, ...)."""
        code, reason = self.ws.close_code, self.ws.close_reason
        return "" if code is None else f" (code {code}, {reason!r})"

    async def request(self, message: dict[str, Any], timeout: float = 60.0) -> dict[str, Any]:
        """Send a message with a fresh id; the reply with that id (an error frame too).

        A `command` carries a nonce as the umpire clients' commands do (`nonce_of` its
        command id, so a re-sent command draws the same dice), unless the message gives its
        own; `"nonce": None` sends the command without one (docs/security.md)."""
        if message.get("type") == "command":
            if "nonce" not in message:
                message = {**message, "nonce": nonce_of(str(message.get("command_id", "")))}
            elif message["nonce"] is None:
                message = {k: v for k, v in message.items() if k != "nonce"}
        request_id = f"q{next(self._ids)}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        await self.ws.send(text({**message, "id": request_id}))
        return await asyncio.wait_for(future, timeout)

    async def ok(self, message: dict[str, Any], timeout: float = 60.0) -> dict[str, Any]:
        """`request`, failing the test on an error frame. `over_budget` is asked again
        after its `retry_after`, as the umpire clients do (nothing was done or written):
        on a loaded machine the rules' CPU, which admission charges, is larger."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            reply = await self.request(message, timeout)
            if reply.get("code") != "over_budget":
                break
            pause = float(reply["details"]["retry_after"])
            if asyncio.get_running_loop().time() + pause > deadline:
                break
            await asyncio.sleep(pause)
        assert reply["type"] != "error", reply
        return reply

    async def wait_for(self, predicate: Any, timeout: float = 60.0) -> dict[str, Any]:
        """The first frame received (so far or later) for which `predicate` holds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        seen = 0
        while True:
            for frame in self.frames[seen:]:
                if predicate(frame):
                    return frame
            seen = len(self.frames)
            if self._reader.done():
                raise ConnectionError(
                    f"closed{self._why()} before the frame came: {self.frames[-3:]}"
                )
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError(f"no such frame in {timeout}s; last: {self.frames[-3:]}")
            self._arrived.clear()
            if len(self.frames) == seen:
                try:
                    await asyncio.wait_for(self._arrived.wait(), left)
                except TimeoutError:
                    continue

    def events(self, game_id: str) -> list[dict[str, Any]]:
        """The event frames received for one game, in order."""
        return [f for f in self.frames if f["type"] == "event" and f["game_id"] == game_id]

    async def close(self) -> None:
        """Close and stop reading."""
        await self.ws.close()
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._reader
