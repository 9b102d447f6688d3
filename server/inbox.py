"""websockets' server connection, its messages handed to the gateway without the library's
message assembler.

websockets' asyncio connection puts every data frame into an assembler (a queue of
frames, a lock flag, a future per wait, an incremental UTF-8 decoder and an iterator per
message) that the handler task reads through `recv` or `async for`. A gateway reads its
client's messages one at a time, so all of that is ~11k instructions a message it does
not use (bench/ws_layer.py: (A) against (E)). `InboxConnection` is the library's own
connection (`serve(create_connection=...)`, its documented factory): the handshake,
`process_request`, `max_size`, compression, pings and pongs, the close handshake and its
timeout, write backpressure and its logs stay the library's. Only its `process_event`
is taken over for data frames: each whole message goes into a deque, and `next_message`
hands them to the reader, waiting on a future only when the deque is empty.
`process_event` is the library's own extension point for its subclasses, but not
documented API: should a websockets release change it, tests/server/test_inbox.py fails
(every message would reach the assembler, none the inbox).

Read backpressure is the assembler's: reading pauses once more than `max_queue` messages
wait (the gateway reads one at a time; a client that sends faster than it is served is
held at the socket), and resumes at a quarter of it. A text message that is not UTF-8
closes the connection with 1007 as the library's `recv` does, from the reader; a message
in more than MAX_FRAGMENTS frames closes it with 1009 as `recv` does, when the frame
comes (its bytes are bounded by `max_size`, and held as bytes, not a list of frames).
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from websockets.asyncio import messages as library_messages
from websockets.asyncio.server import ServerConnection
from websockets.frames import CloseCode, Frame, Opcode
from websockets.protocol import Event, State

_TEXT, _BINARY, _CONT = Opcode.TEXT, Opcode.BINARY, Opcode.CONT
# The most frames a message may come in, as the library's assembler allows (its
# WEBSOCKETS_MAX_FRAGMENTS; websockets before 15 had no limit, so this one's default):
# `max_size` bounds a message's bytes, not its frames, and empty continuation frames
# cost the server a frame's work each without adding a byte.
MAX_FRAGMENTS: int = getattr(library_messages, "MAX_FRAGMENTS", 4096)


class NotText:
    """A text message that is not UTF-8: the reader closes with 1007, saying where."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


class InboxConnection(ServerConnection):
    """A websockets server connection whose messages are read with `next_message`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.inbox: deque[str | bytes | NotText] = deque()
        self._waiter: asyncio.Future[None] | None = None
        # A fragmented message's bytes so far, and whether it is text (RFC 6455 5.4): one
        # buffer, not a list of frames, since `max_size` bounds a message's bytes but not
        # its frames (a client's endless empty continuations held a pointer each).
        self._parts = bytearray()
        self._text = False
        self._frames = 0  # the frames of the fragmented message so far
        self._refused = False  # closed 1009 for too many frames: later data is dropped
        self._paused = False
        high = self.max_queue_high
        low = getattr(self, "max_queue_low", None)  # before websockets 14: no low mark
        self._high = high
        self._low = low if low is not None or high is None else high // 4

    def process_event(self, event: Event) -> None:
        """A data frame goes to the inbox (a whole message at a time); anything else
        (the handshake's request, a pong) to the library."""
        if type(event) is not Frame:
            super().process_event(event)
            return
        opcode = event.opcode
        if self._refused and opcode in (_TEXT, _BINARY, _CONT):
            return
        if opcode is _TEXT or opcode is _BINARY:
            if event.fin:  # the common case: a message in one frame
                self._put(event.data, opcode is _TEXT)
            else:
                self._parts = bytearray(event.data)
                self._text = opcode is _TEXT
                self._frames = 1
        elif opcode is _CONT:
            # The protocol refuses a continuation without its first frame, and bounds a
            # message's size across its frames (`max_size`), before this sees it.
            if self._frames >= MAX_FRAGMENTS:
                self._too_many_frames()
                return
            self._frames += 1
            self._parts += event.data
            if event.fin:
                parts, self._parts = self._parts, bytearray()
                self._put(parts, self._text)
        else:
            super().process_event(event)

    def _too_many_frames(self) -> None:
        """Close 1009 "too many fragments", as the library's `recv` does (red team 9b:
        without it a client's endless empty continuations were read for ever)."""
        self._refused = True
        self._parts = bytearray()
        self.protocol.fail(CloseCode.MESSAGE_TOO_BIG, "too many fragments")
        try:
            # `data_received` wrote what the protocol had before these events: the close
            # frame is written here, as the library's `send_context` would.
            self.send_data()
        except Exception as exc:  # as `data_received`'s own write
            self.set_connection_exc(exc)

    def _put(self, data: bytes | bytearray | memoryview, text: bool) -> None:
        message: str | bytes | NotText
        if text:
            try:
                message = str(data, "utf-8")
            except UnicodeDecodeError as exc:
                message = NotText(f"{exc.reason} at position {exc.start}")
        else:
            message = bytes(data)
        inbox = self.inbox
        inbox.append(message)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
        high = self._high
        if high is not None and len(inbox) > high and not self._paused:
            self._paused = True
            self.transport.pause_reading()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def next_message(self) -> str | bytes | None:
        """The next message (text as `str`, binary as `bytes`), or None once the
        connection is closed and every message received before has been read."""
        inbox = self.inbox
        while not inbox:
            if self.protocol.state is State.CLOSED:
                return None
            self._waiter = self.loop.create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        message = inbox.popleft()
        if self._paused and len(inbox) <= (self._low or 0):
            self._paused = False
            self.transport.resume_reading()
        if isinstance(message, NotText):
            # As websockets' `recv` does with a text frame that is not UTF-8.
            await self.close(CloseCode.INVALID_DATA, message.reason)
            return None
        return message
