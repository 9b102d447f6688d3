"""A bare-socket websocket client for tests that need a peer which truly never reads
(a library client keeps reading into its own buffers), and for the benches that need one."""

from __future__ import annotations

import base64
import os
import socket
import struct

import msgspec


class RawWebSocket:
    """Handshake, send masked text frames, and later read raw frames off the socket."""

    def __init__(self, port: int, *, rcvbuf: int = 8192) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(head.decode(errors="replace"))
        self.buffer = b""

    def send_json(self, message: dict[str, object]) -> None:
        """Send one masked text frame."""
        payload = msgspec.json.encode(message)
        mask = os.urandom(4)
        header = bytes([0x81])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def _need(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("socket closed")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def read_frame(self) -> tuple[int, bytes]:
        """(opcode, payload) of the next frame from the server (unmasked)."""
        b0, b1 = self._need(2)
        n = b1 & 0x7F
        if n == 126:
            (n,) = struct.unpack(">H", self._need(2))
        elif n == 127:
            (n,) = struct.unpack(">Q", self._need(8))
        return b0 & 0x0F, self._need(n)

    def close(self) -> None:
        self.sock.close()
