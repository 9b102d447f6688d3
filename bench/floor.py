"""The floor under issue #33's ratios: the least a Python server on umpire's libraries does.

`python -m bench.floor [--store] [--workers N]` serves just enough of umpire's protocol
(docs/protocol.md: `create`, `bind_seed`, `auth`, `subscribe`, `command`) for
`../shared/peer-bench`'s umpire adapter to run its `seq` and `tput` scenarios against it,
on `UMPIRE_PORT` (and `/healthz`), with N processes on one port (SO_REUSEPORT, as `umpire
serve --workers N`). A move is a d6 from `secrets` and an `accepted` frame. With `--store`
it is also one XADD to the game's stream before the ack, pipelined per event-loop turn
through redis-py's asyncio client with hiredis, in an embedded Valkey
(`UMPIRE_APPENDFSYNC`, default everysec) or the Redis at `REDIS_URL`. Nothing else: no
rules, credentials, hash chain, dedupe, admission, receipt, fan-out or audit.

It is not a server to use. It answers one question with a measurement: how many moves a
second can any server built on Python, asyncio, websockets and redis-py carry on this
machine, beside Colyseus in the same bench? The peer bench starts `$UMPIRE_BIN serve`, so
point it at a two-line wrapper (docs/benchmarks.md, "The floor").
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import os
import secrets
import signal
import subprocess
import sys
import tempfile
from http import HTTPStatus
from typing import Any

import hiredis
import msgspec
import redis.asyncio as redis
from websockets.asyncio.server import ServerConnection, serve
from websockets.http11 import Request, Response

from umpire.events.resp import pack
from umpire.server.embedded import EmbeddedRedis

decode = msgspec.json.Decoder().decode
encode = msgspec.json.Encoder().encode


class Appends:
    """XADDs gathered while the loop runs, sent as one pipeline (one round trip) per
    batch: the cheapest durable append redis-py offers."""

    def __init__(self, client: redis.Redis) -> None:
        self.client = client
        self.pending: list[tuple[str, bytes, asyncio.Future[Any]]] = []
        self.flushing: asyncio.Task[None] | None = None  # held: the loop keeps weak refs

    async def add(self, stream: str, event: bytes) -> Any:
        future = asyncio.get_running_loop().create_future()
        self.pending.append((stream, event, future))
        if self.flushing is None:
            self.flushing = asyncio.get_running_loop().create_task(self._flush())
        return await future

    async def _flush(self) -> None:
        try:
            while self.pending:
                batch, self.pending = self.pending, []
                pipe = self.client.pipeline(transaction=False)
                for stream, event, _ in batch:
                    pipe.xadd(stream, {"e": event})
                for (_, _, future), entry in zip(batch, await pipe.execute(), strict=True):
                    future.set_result(entry)
        finally:
            self.flushing = None


class RawAppends(asyncio.Protocol):
    """The same XADD without redis-py: packed by hand, written at once on a unix socket,
    replies parsed by hiredis in order (`--raw`: how much of the append is the client)."""

    def __init__(self) -> None:
        self.reader = hiredis.Reader()
        self.waiting: collections.deque[asyncio.Future[Any]] = collections.deque()
        self.transport: asyncio.Transport | None = None

    @classmethod
    async def open(cls, url: str) -> RawAppends:
        """Connect to the unix socket of `url` (no password: the embedded store's own)."""
        if not url.startswith("unix://") or "@" in url:
            raise SystemExit(f"--raw speaks to a unix socket without a password, not {url!r}")
        path = url.removeprefix("unix://").partition("?")[0]
        _, protocol = await asyncio.get_running_loop().create_unix_connection(cls, path)
        return protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while (reply := self.reader.gets()) is not False:
            future = self.waiting.popleft()
            if isinstance(reply, hiredis.ReplyError):
                future.set_exception(reply)
            else:
                future.set_result(reply)

    async def call(self, packed: bytes) -> Any:
        """One packed command's reply (replies come back in the order of the writes)."""
        assert self.transport is not None
        future = asyncio.get_running_loop().create_future()
        self.waiting.append(future)
        self.transport.write(packed)
        return await future

    async def add(self, stream: str, event: bytes) -> Any:
        return await self.call(pack("XADD", stream, "*", "e", event))


async def health(connection: ServerConnection, request: Request) -> Response | None:
    """`/healthz` answers ok (the peer bench waits for it); any other path upgrades."""
    if request.path == "/healthz":
        return connection.respond(HTTPStatus.OK, "ok\n")
    return None


async def worker(port: int, store_url: str, raw: bool) -> None:
    """One process of the floor: the websocket server on `port`, appending to `store_url`
    (none when empty) through redis-py or, `raw`, the bare protocol."""
    appends: Appends | RawAppends | None = None
    if store_url:
        appends = (
            await RawAppends.open(store_url) if raw else Appends(redis.Redis.from_url(store_url))
        )
    moves: dict[str, int] = {}

    async def play(ws: ServerConnection) -> None:
        async for text in ws:
            message = decode(text)
            kind, id_ = message.get("type"), message.get("id")
            if kind == "command":
                game = message["game_id"]
                face = secrets.randbelow(6) + 1
                seq = moves[game] = moves.get(game, 0) + 1
                if appends is not None:
                    await appends.add(f"floor:{game}", encode({"seq": seq, "face": face}))
                reply = {"type": "accepted", "id": id_, "seqs": [seq], "face": face}
            elif kind == "create":
                game = secrets.token_hex(8)
                reply = {"type": "created", "id": id_, "game_id": game,
                         "player_credential": secrets.token_hex(16),
                         "spectator_credential": secrets.token_hex(16)}  # fmt: skip
            elif kind == "auth":
                reply = {"type": "authenticated", "id": id_}
            elif kind == "subscribe":
                reply = {"type": "subscribed", "id": id_}
            else:  # bind_seed
                reply = {"type": "accepted", "id": id_}
            await ws.send(encode(reply).decode())

    async with serve(play, "127.0.0.1", port, reuse_port=True, process_request=health,
                     compression=None) as server:  # fmt: skip
        await server.serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", action="store_true", help="one XADD a move, before its ack")
    parser.add_argument("--raw", action="store_true", help="the XADD without redis-py")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("serve", nargs="?", help="ignored: the peer bench's UMPIRE_BIN serve")
    options = parser.parse_args()
    port = int(os.environ.get("UMPIRE_PORT", "8765"))
    if options.worker:
        # The store's URL (it may carry a password) comes on stdin, not the command line.
        asyncio.run(worker(port, sys.stdin.readline().strip(), options.raw))
        return
    with tempfile.TemporaryDirectory(prefix="umpire-floor-") as tmp:
        valkey = None
        url = os.environ.get("REDIS_URL", "") if options.store else ""
        if options.store and not url:
            fsync = os.environ.get("UMPIRE_APPENDFSYNC", "everysec")
            valkey = EmbeddedRedis(tmp, appendfsync=fsync).start()
            url = valkey.url
        workers = []
        for _ in range(options.workers):
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "bench.floor",
                    "--worker",
                    *(["--raw"] if options.raw else []),
                ],
                stdin=subprocess.PIPE,
                text=True,
            )
            assert process.stdin is not None
            process.stdin.write(url + "\n")
            process.stdin.close()
            workers.append(process)
        signal.signal(signal.SIGTERM, lambda *_: [w.terminate() for w in workers])
        try:
            for w in workers:
                w.wait()
        except KeyboardInterrupt:
            for w in workers:
                w.terminate()
        finally:
            if valkey is not None:
                with contextlib.suppress(Exception):
                    valkey.stop()


if __name__ == "__main__":
    main()
