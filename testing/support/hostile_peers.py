"""Websocket peers that misbehave at the socket: they vanish mid-frame, stall mid-frame,
never answer a ping, or subscribe and never read. A gateway must close each one
(keepalive, slow-consumer limit) while it keeps serving everyone else;
tests/faults/test_hostile_clients.py checks that it does and bench/hostile_clients.py
measures a well-behaved client beside them."""

from __future__ import annotations

import asyncio
import os
import socket
import struct
import time

from umpire.testing.support.gateways import http_get
from umpire.testing.support.raw_ws import RawWebSocket

# A gateway's limits tight enough that each kind is closed within a few seconds.
HOSTILE_ENV = {
    "UMPIRE_PING_INTERVAL": "1",
    "UMPIRE_PING_TIMEOUT": "1",
    "UMPIRE_CLOSE_TIMEOUT": "1",
    "UMPIRE_SLOW_CONSUMER_SECONDS": "1",
    "UMPIRE_SEND_QUEUE_LIMIT": "50",
    "UMPIRE_SOCKET_SEND_BUFFER": "4096",
}


def _partial_frame(sock: socket.socket, declared: int = 50_000, sent: int = 1_000) -> None:
    """Start a masked text frame of `declared` bytes and send only `sent` of them."""
    header = bytes([0x81, 0x80 | 127]) + struct.pack(">Q", declared) + os.urandom(4)
    sock.sendall(header + b"x" * sent)


def vanish_mid_frame(port: int, reset: bool) -> None:
    """Send half a frame, then go: FIN, or RST (SO_LINGER 0) like a crashed host."""
    ws = RawWebSocket(port)
    _partial_frame(ws.sock)
    if reset:
        ws.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    ws.close()


def stall_mid_frame(port: int) -> RawWebSocket:
    """Half a frame, then silence with the socket open (a peer gone without a FIN)."""
    ws = RawWebSocket(port)
    _partial_frame(ws.sock)
    return ws


def silent(port: int) -> RawWebSocket:
    """Handshake, then nothing ever: never reads, never answers a ping."""
    return RawWebSocket(port, rcvbuf=4096)


def never_reads(port: int, game_id: str, credential: str) -> RawWebSocket:
    """Subscribe from seq 0 to a long game and never read a byte."""
    ws = RawWebSocket(port, rcvbuf=4096)
    ws.send_json({"type": "subscribe", "game_id": game_id, "from_seq": 0,
                  "credential": credential})  # fmt: skip
    return ws


async def open_connections(port: int) -> int:
    """The gateway's open connections now (/metrics)."""
    _, body = await http_get(port, "/metrics")
    line = next(x for x in body.splitlines() if x.startswith("umpire_connections_open "))
    return int(float(line.split()[1]))  # prometheus-client writes 1.0


async def wave(
    port: int, game_id: str, credential: str, baseline: int, per_kind: int, within: float
) -> float:
    """One wave of `per_kind` peers of every kind at the gateway on `port`; seconds until it
    has closed them all (back to `baseline` open connections). TimeoutError past `within`
    seconds: a generous bound on the wait, not a speed."""
    held: list[RawWebSocket] = []

    def launch() -> None:
        for i in range(per_kind):
            vanish_mid_frame(port, reset=i % 2 == 0)
            held.append(stall_mid_frame(port))
            held.append(silent(port))
            held.append(never_reads(port, game_id, credential))

    started = time.monotonic()
    await asyncio.to_thread(launch)
    try:
        while await open_connections(port) > baseline:
            if time.monotonic() - started > within:
                raise TimeoutError(f"hostile clients left open after {within:g} s")
            await asyncio.sleep(0.2)
        return time.monotonic() - started
    finally:
        for ws in held:
            ws.close()
