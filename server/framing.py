"""A websocket text frame built once and written to many connections.

A server's frames are not masked (RFC 6455 5.1), so without an extension (per-message
deflate, which compresses per connection) the bytes of one message's frame are the same
on every connection. The fan-out writes them straight to each subscriber's transport
instead of handing each subscriber's writer task the message to frame and send: no task
wake-up, no frame object and no serialisation per subscriber. That path is taken only
while it is equivalent to the library's own send: the connection is open, no extension
was negotiated, no fragmented message is being sent, and the transport is not holding
back (a connection whose buffer is full goes through its queue and writer as before).
"""

from __future__ import annotations

from websockets.asyncio.server import ServerConnection
from websockets.protocol import State

_TEXT_FIN = 0x81  # FIN + opcode 1 (text)
_UNKNOWN = object()


def text_frame(payload: bytes) -> bytes:
    """The whole unmasked text frame of `payload` (UTF-8 JSON), header included."""
    size = len(payload)
    if size < 126:
        return bytes((_TEXT_FIN, size)) + payload
    if size < 1 << 16:
        return bytes((_TEXT_FIN, 126)) + size.to_bytes(2, "big") + payload
    return bytes((_TEXT_FIN, 127)) + size.to_bytes(8, "big") + payload


def writable_now(ws: ServerConnection) -> bool:
    """Whether a frame written to `ws`'s transport now is exactly what `ws.send` would
    write: open, no extension, nothing fragmented under way, no backpressure."""
    protocol = ws.protocol
    transport = ws.transport
    # Read defensively: should a websockets release rename these, every frame takes the
    # library's own path (tests/server/test_fan_out_writes.py then fails, saying so).
    return (
        protocol.state is State.OPEN
        and not protocol.extensions
        and getattr(protocol, "expect_continuation_frame", True) is False
        and getattr(ws, "send_in_progress", _UNKNOWN) is None
        and getattr(ws, "paused", True) is False
        and transport is not None
        and not transport.is_closing()
    )


class Batch:
    """The frames one push owes every live subscriber of one role that is at the same
    seq: gathered once, and written to each such subscriber's socket as one buffer (one
    system call per subscriber per push, however many events the push carries)."""

    __slots__ = ("_wire", "frames")

    def __init__(self, frames: list[bytes]) -> None:
        self.frames = frames
        self._wire: bytes | None = None

    def wire(self) -> bytes:
        """Every frame, header included, back to back (built on first use, then shared)."""
        if self._wire is None:
            self._wire = b"".join(text_frame(frame) for frame in self.frames)
        return self._wire
