"""What websockets' asyncio receive path costs a message, against its sans-I/O protocol.

`python -m bench.ws_layer` serves the same echo-like exchange up to five ways
(`--kinds`, default a,b) and prints their figures side by side (docs/benchmarks.md,
"ninth session: a websocket layer of our own, measured"):

- (A) websockets' asyncio `serve`, the handler reading each text frame with `async for`
  as server/connection.py does, and writing its reply straight to the transport as the
  gateway's `_write_now` does (server/framing.py `text_frame`);
- (B) an `asyncio.Protocol` whose `data_received` feeds websockets' sans-I/O
  `ServerProtocol` and answers each text frame in that callback (no task, no future, no
  queue per message), writing `data_to_send()` and the reply to the transport;
- (C) (B) with each text frame answered in a task of its own: a gateway's command awaits
  the store, so its work cannot end inside the callback;
- (D) websockets' asyncio connection (`create_connection=` a subclass) whose
  `process_event` takes each text frame before the library's message assembler and
  answers it in a task, as (C): the same cut without a layer of our own;
- (E) the same hook putting each message in a deque of its own, which the handler task
  reads as the gateway's reader does (server/inbox.py).

Each takes the text as `str` (UTF-8 checked, as the gateway receives it) and writes the
same reply frame. Per message, for one client and for `--clients` clients in flight
(each a closed loop in one load process, which is not counted):

- instructions of the server process under valgrind's cachegrind, a run of `--messages`
  messages in all less a run of `--base` (so start-up, handshakes and closes cancel);
- CPU of the server process a message, without valgrind (`time.process_time` from the
  fifth of the run to its end), the median of `--runs` runs alternated.

The load is websockets' asyncio client with `compression=None`. A server here is not a
gateway: no session, no store; it answers one question, what the connection layer costs.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import websockets
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import Event, State
from websockets.server import ServerProtocol

# Run as a file (`python bench/ws_layer.py`), this folder is on sys.path; as part of the
# bench package (the tests, `python -m bench.ws_layer`), it is not.
try:
    from cachegrind import VALGRIND, counted
except ImportError:
    from bench.cachegrind import VALGRIND, counted

from umpire.server.framing import text_frame

# About a command frame and its `accepted` reply (the peer bench's move: ~230 and ~330 B).
MESSAGE = (
    '{"type":"command","id":"c-000001","game_id":"g-0123456789abcdef",'
    '"command":{"type":"RollDice","kind":"d6","count":1,"purpose":"move"},'
    '"expected_seq":12,"command_id":"0123456789abcdef0123456789abcdef","nonce":"' + "n" * 64 + '"}'
)
KINDS = ("a", "b", "c", "d", "e")
TITLES = {
    "a": "(A) asyncio serve, async for",
    "b": "(B) sans-I/O, in data_received",
    "c": "(C) sans-I/O, a task a frame",
    "d": "(D) asyncio, process_event hook, a task a frame",
    "e": "(E) asyncio, process_event hook, an inbox read",
}
REPLY = text_frame(
    (
        '{"type":"accepted","id":"c-000001","game_id":"g-0123456789abcdef","seqs":[13,14],'
        '"receipt":{"seq":14,"state_hash":"' + "h" * 64 + '","signature":"' + "s" * 120 + '"}}'
    ).encode()
)


class Counter:
    """Messages served, and the process's CPU from the `warm`-th on."""

    def __init__(self, warm: int, clients: int) -> None:
        self.warm = warm
        self.count = 0
        self.started = 0.0
        self.open = clients
        self.done = asyncio.get_running_loop().create_future()

    def message(self) -> None:
        self.count += 1
        if self.count == self.warm:
            self.started = time.process_time()

    def closed(self) -> None:
        self.open -= 1
        if self.open == 0 and not self.done.done():
            self.done.set_result(None)

    def report(self) -> str:
        spent = time.process_time() - self.started
        return f"{self.count} {spent / max(1, self.count - self.warm):.9f}"


async def serve_a(port: int, counter: Counter) -> None:
    """(A): websockets' asyncio server, one handler task a connection reading `async for`."""

    async def handler(ws: ServerConnection) -> None:
        transport = ws.transport
        try:
            async for message in ws:
                assert isinstance(message, str)
                counter.message()
                transport.write(REPLY)
        finally:
            counter.closed()

    async with serve(handler, "127.0.0.1", port, compression=None, ping_interval=None):
        print("ready", flush=True)
        await counter.done


class Layer(asyncio.Protocol):
    """(B): websockets' sans-I/O protocol under an `asyncio.Protocol`, each text frame
    answered in `data_received`."""

    def __init__(self, counter: Counter) -> None:
        self.counter = counter
        self.protocol = ServerProtocol(max_size=2**20)
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        protocol = self.protocol
        transport = self.transport
        assert transport is not None
        protocol.receive_data(data)
        for event in protocol.events_received():
            if type(event) is Frame:
                if event.opcode is Opcode.TEXT:
                    message = event.data.decode()  # checked UTF-8, as (A)'s str
                    assert isinstance(message, str)
                    self.counter.message()
                    transport.write(REPLY)
            elif type(event) is Request:  # the handshake
                protocol.send_response(protocol.accept(event))
        self._flush()

    def _flush(self) -> None:
        assert self.transport is not None
        for chunk in self.protocol.data_to_send():
            if chunk:
                self.transport.write(chunk)
            elif self.transport.can_write_eof():
                self.transport.write_eof()
        if self.protocol.close_expected():
            self.transport.close()

    def eof_received(self) -> bool:
        self.protocol.receive_eof()
        self._flush()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.counter.closed()


class TaskLayer(Layer):
    """(C): (B), each text frame answered in a task of its own, as a gateway's command
    must be (it awaits the store): what a frame costs when its work cannot finish in the
    callback."""

    def data_received(self, data: bytes) -> None:
        protocol = self.protocol
        protocol.receive_data(data)
        for event in protocol.events_received():
            if type(event) is Frame:
                if event.opcode is Opcode.TEXT:
                    asyncio.get_running_loop().create_task(self.answer(event.data.decode()))
            elif type(event) is Request:  # the handshake
                protocol.send_response(protocol.accept(event))
        self._flush()

    async def answer(self, message: str) -> None:
        assert self.transport is not None
        self.counter.message()
        self.transport.write(REPLY)


class FrameHook(ServerConnection):
    """(D): websockets' asyncio connection, its text frames taken in `process_event`
    (before its message assembler) and answered in a task each, as in (C); the handshake,
    pings, close and backpressure stay the library's."""

    counter: Counter

    def process_event(self, event: Event) -> None:
        if type(event) is Frame and event.opcode is Opcode.TEXT and event.fin:
            self.loop.create_task(self.answer(event.data.decode()))
        else:
            super().process_event(event)

    async def answer(self, message: str) -> None:
        self.counter.message()
        self.transport.write(REPLY)


async def serve_d(port: int, counter: Counter) -> None:
    """(D): the handler only waits for the connection's end."""

    class Hooked(FrameHook):
        pass

    Hooked.counter = counter

    async def handler(ws: ServerConnection) -> None:
        try:
            await ws.wait_closed()
        finally:
            counter.closed()

    async with serve(handler, "127.0.0.1", port, compression=None, ping_interval=None,
                     create_connection=Hooked):  # fmt: skip
        print("ready", flush=True)
        await counter.done


class Inbox(ServerConnection):
    """(E): websockets' asyncio connection whose `process_event` puts each text frame's
    text in a deque of its own (not the library's assembler), which the handler task reads
    as the gateway's reader does: one frame at a time, a future only while it waits."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.inbox: collections.deque[str] = collections.deque()
        self.waiter: asyncio.Future[None] | None = None

    def process_event(self, event: Event) -> None:
        if type(event) is Frame and event.opcode is Opcode.TEXT and event.fin:
            self.inbox.append(event.data.decode())
            waiter = self.waiter
            if waiter is not None and not waiter.done():
                waiter.set_result(None)
        else:
            super().process_event(event)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    async def next_text(self) -> str | None:
        inbox = self.inbox
        while not inbox:
            if self.state is State.CLOSED:
                return None
            self.waiter = self.loop.create_future()
            await self.waiter
            self.waiter = None
        return inbox.popleft()


async def serve_e(port: int, counter: Counter) -> None:
    """(E): the handler reads (E)'s inbox."""

    async def handler(ws: ServerConnection) -> None:
        assert isinstance(ws, Inbox)
        transport = ws.transport
        try:
            while await ws.next_text() is not None:
                counter.message()
                transport.write(REPLY)
        finally:
            counter.closed()

    async with serve(handler, "127.0.0.1", port, compression=None, ping_interval=None,
                     create_connection=Inbox):  # fmt: skip
        print("ready", flush=True)
        await counter.done


async def serve_b(port: int, counter: Counter, kind: type[Layer] = Layer) -> None:
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: kind(counter), "127.0.0.1", port)
    async with server:
        print("ready", flush=True)
        await counter.done


def server_main(kind: str, port: int, clients: int, warm: int) -> None:
    async def run() -> None:
        counter = Counter(warm, clients)
        if kind == "a":
            await serve_a(port, counter)
        elif kind == "b":
            await serve_b(port, counter)
        elif kind == "c":
            await serve_b(port, counter, TaskLayer)
        elif kind == "d":
            await serve_d(port, counter)
        else:
            await serve_e(port, counter)
        print(counter.report(), flush=True)

    asyncio.run(run())


async def load(port: int, clients: int, messages: int) -> None:
    """`clients` closed loops of `messages` messages each, then a clean close."""

    async def one() -> None:
        async with connect(f"ws://127.0.0.1:{port}/ws", compression=None) as ws:
            for _ in range(messages):
                await ws.send(MESSAGE)
                await ws.recv()

    await asyncio.gather(*(one() for _ in range(clients)))


def server_argv(kind: str, port: int, clients: int, warm: int) -> list[str]:
    here = Path(__file__).resolve().parent
    return [sys.executable, str(here / "ws_layer.py"), "--serve", kind, "--port", str(port),
            "--clients", str(clients), "--warm", str(warm)]  # fmt: skip


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def run_server(kind: str, clients: int, messages: int, warm: int, valgrind: bool) -> str:
    """Start a server (under cachegrind if `valgrind`), wait for its "ready", run the
    load, and return what it wrote when every client had closed (and valgrind's report)."""
    port = free_port()
    argv = server_argv(kind, port, clients, warm)
    process = subprocess.Popen(
        [*VALGRIND, *argv] if valgrind else argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    if process.stdout.readline().strip() != "ready":
        process.kill()
        raise RuntimeError(f"server {kind} did not start: {process.communicate()[1][-500:]}")
    asyncio.run(load(port, clients, messages))
    out, err = process.communicate()
    if process.returncode != 0:
        raise RuntimeError(f"server {kind} failed: {err[-500:]}")
    return out + err


def instructions_a_message(kind: str, clients: int, messages: int, base: int) -> float:
    """The server's instructions a message: a run of `messages` a client less one of `base`."""
    long = counted(run_server(kind, clients, messages, 1, valgrind=True))
    short = counted(run_server(kind, clients, base, 1, valgrind=True))
    return (long - short) / (clients * (messages - base))


def cpu_a_message(kind: str, clients: int, messages: int) -> float:
    """Seconds of the server's CPU a message (no valgrind), from the fifth of the run on."""
    warm = clients * messages // 5
    out = run_server(kind, clients, messages, warm, valgrind=False)
    return float(out.split()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--serve", choices=KINDS, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--warm", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--clients", type=int, default=20, help="clients in flight, 2nd row")
    parser.add_argument("--messages", type=int, default=1300, help="a client, under valgrind")
    parser.add_argument("--base", type=int, default=300, help="a client, the run subtracted")
    parser.add_argument("--cpu-messages", type=int, default=40000, help="in all, a CPU run")
    parser.add_argument("--runs", type=int, default=3, help="CPU runs of each, alternated")
    parser.add_argument("--no-valgrind", action="store_true", help="CPU only")
    parser.add_argument("--no-cpu", action="store_true", help="instructions only")
    parser.add_argument("--kinds", default="a,b", help="which servers, of a,b,c,d")
    options = parser.parse_args()
    if options.serve:
        server_main(options.serve, options.port, options.clients, options.warm)
        return
    kinds = options.kinds.split(",")
    rows: list[tuple[str, list[str]]] = []
    for clients in (1, options.clients):
        label = f"{clients} client{'s' if clients > 1 else ''} in flight"
        if not options.no_valgrind:
            messages, base = options.messages, options.base
            if clients > 1:  # the same messages in all, shared by the clients
                messages, base = max(messages // clients, 2), max(base // clients, 1)
            counts = [instructions_a_message(k, clients, messages, base) for k in kinds]
            cells = [f"{counts[0]:,.0f}"]
            cells += [f"{c:,.0f} ({c - counts[0]:+,.0f})" for c in counts[1:]]
            rows.append((f"instructions a message, {label}", cells))
        if not options.no_cpu:
            per: dict[str, list[float]] = {k: [] for k in kinds}
            for _ in range(options.runs):
                for kind in kinds:
                    per[kind].append(cpu_a_message(kind, clients, options.cpu_messages // clients))
            rows.append((f"CPU µs a message, {label} (median of {options.runs})", [
                f"{statistics.median(per[k]) * 1e6:.1f} ("
                + " · ".join(f"{x * 1e6:.1f}" for x in per[k]) + ")"
                for k in kinds
            ]))  # fmt: skip
    for name, cells in rows:
        print(name)
        for kind, cell in zip(kinds, cells, strict=True):
            print(f"    {TITLES[kind]:50} {cell}")
    version = sys.version.split()[0]
    print(f"python {version}, websockets {websockets.__version__}, {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
