"""`python -m bench.spectators URL GAME COUNT`: the spectators of stage (c) in a process of
their own, so the player's acknowledgements are never read behind the decoding of 200
spectators' frames (the load generator measuring itself).

Each spectator is a bare websocket over an asyncio stream: the handshake, the operator's
`auth` and a `subscribe`, then frames parsed by hand (a server's frames are unmasked) and
only the command id looked for in each, so one process keeps up with 200 spectators at 200
frames/s each (a full websocket client per connection could not on two shared cores).

Prints `ready` once all are subscribed; then reads the number of frames to expect from
stdin, waits for them (at most 10 s more) and prints each frame's command id and arrival
time (`time.perf_counter`: the system-wide monotonic clock on Linux, so the player's
process subtracts its own send times) as JSON.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import sys
import time
from urllib.parse import urlsplit

from bench.wsload import OPERATOR

_MARK = b'"command_id":"'
# The stage's commands' ids start with this: only their frames are counted and timed.
COMMAND_PREFIX = "spec-"
_PREFIXED = _MARK + COMMAND_PREFIX.encode()


def _client_frame(payload: bytes, opcode: int = 0x1) -> bytes:
    """A masked client frame (a zero mask: the payload goes as is; RFC 6455 allows it)."""
    size = len(payload)
    if size < 126:
        header = bytes((0x80 | opcode, 0x80 | size))
    else:
        header = bytes((0x80 | opcode, 0x80 | 126)) + size.to_bytes(2, "big")
    return header + b"\0\0\0\0" + payload


class Spectator:
    """One subscribed connection and the frames it has received."""

    def __init__(self, seen: list[tuple[str, float]]) -> None:
        self.seen = seen
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.replies = 0

    async def open(self, host: str, port: int, game: str) -> None:
        self.reader, self.writer = await asyncio.open_connection(host, port, limit=2**22)
        key = base64.b64encode(os.urandom(16)).decode()
        self.writer.write(
            f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        await self.reader.readuntil(b"\r\n\r\n")
        for message in (
            {"type": "auth", "credential": OPERATOR, "id": "a"},
            {"type": "subscribe", "game_id": game, "id": "s"},
        ):
            self.writer.write(_client_frame(json.dumps(message).encode()))

    async def read(self) -> None:
        """Parse frames until the connection ends; note each event's command id."""
        assert self.reader is not None and self.writer is not None
        buffer = b""
        while True:
            chunk = await self.reader.read(1 << 20)
            if not chunk:
                return
            now = time.perf_counter()
            buffer += chunk
            at = 0
            while len(buffer) - at >= 2:
                opcode, size = buffer[at] & 0x0F, buffer[at + 1] & 0x7F
                start = at + 2
                if size == 126:
                    size, start = int.from_bytes(buffer[at + 2 : at + 4], "big"), at + 4
                elif size == 127:
                    size, start = int.from_bytes(buffer[at + 2 : at + 10], "big"), at + 10
                if len(buffer) < start + size:
                    break
                payload = buffer[start : start + size]
                at = start + size
                if opcode == 0x9:  # ping: answer, or the keepalive closes us
                    self.writer.write(_client_frame(payload, 0xA))
                elif opcode == 0x1:
                    found = payload.find(_PREFIXED)
                    if found >= 0:
                        begin = found + len(_MARK)
                        cid = payload[begin : payload.index(b'"', begin)].decode()
                        self.seen.append((cid, now))
                    elif not payload.startswith(b'{"type":"event"'):
                        self.replies += 1
            buffer = buffer[at:]


async def main(url: str, game: str, count: int) -> None:
    where = urlsplit(url)
    host, port = where.hostname or "127.0.0.1", where.port or 80
    seen: list[tuple[str, float]] = []
    spectators = [Spectator(seen) for _ in range(count)]
    for start in range(0, count, 100):
        await asyncio.gather(*(s.open(host, port, game) for s in spectators[start : start + 100]))
    readers = [asyncio.create_task(s.read()) for s in spectators]
    deadline = time.perf_counter() + 60
    while sum(s.replies for s in spectators) < 3 * count:  # welcome, auth, subscribed
        assert time.perf_counter() < deadline, "the spectators were not all subscribed"
        await asyncio.sleep(0.05)
    print("ready", flush=True)
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    expected = int(line)
    deadline = time.perf_counter() + 10
    while len(seen) < expected and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    for spectator in spectators:
        if spectator.writer is not None:
            spectator.writer.close()
    for reader in readers:
        reader.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    print(json.dumps(seen), flush=True)


if __name__ == "__main__":
    try:
        import uvloop

        runner = uvloop.run
    except ImportError:
        runner = asyncio.run
    runner(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
