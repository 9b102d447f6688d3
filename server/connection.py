"""One client's websocket on the gateway (server/gateway.py): a `Connection`, speaking
events/wire.py.

The protocol itself (grants, admission, dispatch) is the connection's `Session`
(server/session.py, no I/O); the connection reads frames into it through the driver
(server/driver.py), which performs the session's requests, and carries out what it leaves
in its outbox.
Each connection has a bounded outgoing queue drained by one writer task. A subscription
catches up in a task of its own (from the feed's window or the stream), then goes live:
the game's feed puts each new frame straight into the queue (server/game_feed.py). Both go by
the next expected seq, so the hand-over has no gap and no repeat. A live subscription
whose queue is full goes back to catching up, and a client that stays full for
`slow_consumer_seconds` is closed with CLOSE_RESYNC; it resumes from its last seq.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from umpire.events.wire import CLOSE_RESYNC
from umpire.server.delivery import CLEANUP_SECONDS, Delivery, SlowConsumer
from umpire.server.driver import serve_frame, stop_catch_up
from umpire.server.framing import Batch, text_frame, writable_now
from umpire.server.inbox import InboxConnection
from umpire.server.requests import Close, Follow, Output, Unfollow
from umpire.server.session import Session
from umpire.server.subscription import Subscription

if TYPE_CHECKING:
    # The gateway makes its connections: it imports this module, not this module it.
    from umpire.server.gateway import Gateway

# A ping is a few bytes into the socket; this bounds the rare one that meets a full buffer.
PING_SEND_SECONDS = 0.05

# Queued after a direct write that filled the socket (server/framing.py): no frame, the
# writer waits for the socket to drain.
_FILLED = b""


class Connection(Delivery):
    """One client's socket: reads its frames into its `Session` (server/session.py), and
    writes what the session answers through a bounded queue, with backpressure."""

    # Slots: one per open socket, most of them idle (see Session's). A weak reference is
    # how tests see a connection freed.
    __slots__ = (
        "__weakref__", "_closing", "_lost", "blocked_since", "gw", "out", "session",
        "settings", "writer", "ws",
    )  # fmt: skip

    def __init__(self, gateway: Gateway, ws: ServerConnection, client: str) -> None:
        if not isinstance(ws, InboxConnection):  # its reader reads the inbox
            raise TypeError("serve the gateway with create_connection=InboxConnection")
        self.gw = gateway
        self.ws = ws
        # The session's budgets are its client's: an address, or a local account.
        self.session = Session(gateway, client, self, time.monotonic())
        self.settings = gateway.settings
        self.out: asyncio.Queue[bytes | None] = asyncio.Queue(gateway.settings.send_queue_limit)
        self.writer: asyncio.Task[None] | None = None
        self._closing: asyncio.Task[None] | None = None
        # When the writer started waiting on a full socket (None while it is not).
        self.blocked_since: float | None = None
        # Subscriptions a revocation dropped, until `lose_game` has finished them.
        self._lost: dict[str, Subscription] = {}

    @property
    def subs(self) -> dict[str, Subscription]:
        """The session's subscriptions, by game id."""
        return self.session.subs

    # -- lifecycle -------------------------------------------------------------------------

    async def run(self) -> None:
        self.writer = asyncio.create_task(self._write())
        session = self.session
        outbox = session.outbox
        gw = self.gw
        ws = self.ws
        await self.send(session.welcome())
        try:
            # Read from the connection's own inbox, not websockets' assembler
            # (server/inbox.py): None once it has closed.
            while (raw := await ws.next_message()) is not None:
                if self._closing is not None:
                    continue  # keep reading (and dropping) so the close handshake completes
                gw.inflight += 1
                try:
                    await serve_frame(gw, session, raw)
                    for item in outbox:  # inline: one reply is the common case
                        if type(item) is bytes:
                            # Written at once (no coroutine) when nothing is queued.
                            if not self._write_now(item):
                                await self.send(item)
                        else:
                            await self._carry_out(item)
                except SlowConsumer:
                    pass  # the resync close is under way; the reader keeps draining
                finally:
                    outbox.clear()
                    gw.inflight -= 1
                wait = session.paused_until - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
        except ConnectionClosed:
            pass
        if self._closing is not None:
            # Returning would let websockets close with 1000 before our code goes out.
            with contextlib.suppress(Exception):
                await self._closing

    async def _carry_out(self, effect: Output) -> None:
        """Carry out one of the session's effects."""
        if isinstance(effect, Follow):
            sub = effect.sub
            # Not if a revocation or a rewind ended it since the session attached it.
            if self.session.subs.get(sub.feed.game_id) is sub:
                sub.task = asyncio.create_task(self._catch_up(sub))
        elif isinstance(effect, Unfollow):
            await self._finish(effect.sub)
        elif isinstance(effect, Close):
            self.close_soon(effect.code, effect.reason)

    async def cleanup(self) -> None:
        session = self.session
        for game_id in list(session.subs):
            sub = session.unsubscribe(game_id)
            if sub is not None:
                stop_catch_up(sub.task)
                await self._finish(sub)
        for sub in list(self._lost.values()):
            await self._finish(sub)
        self._lost.clear()
        session.forget_grants()  # at once: a revocation must not reach a closed connection
        writer = self.writer
        if writer is not None:
            writer.cancel()
            # Waited for, not awaited: a cancellation of this handler (shutdown ends a
            # handler that outstays it) must not be taken for the writer's and swallowed.
            await asyncio.wait({writer}, timeout=CLEANUP_SECONDS)
            if writer.done() and not writer.cancelled():
                writer.exception()  # retrieved: the writer ends on ConnectionClosed
            # Let go of the ended task: its error's traceback holds the writer's frame, and
            # so this connection (a cycle otherwise, freed only by a full collection).
            self.writer = None
        session.detach()

    # -- output ----------------------------------------------------------------------------

    async def _write(self) -> None:
        me = asyncio.current_task()
        try:
            # Checking `cancelling()`: a cancellation swallowed by the library's send must
            # still end the writer (cleanup waits for it before the handler returns).
            while me is None or not me.cancelling():
                frame = await self.out.get()
                if frame is None:
                    return
                self.blocked_since = time.monotonic()
                if not frame:  # _FILLED: a direct write filled the socket; wait as a send would
                    await self.ws.drain()
                    self.blocked_since = None
                    continue
                # Already UTF-8 JSON: sent as a text frame without a decode per subscriber.
                await self.ws.send(frame, text=True)
                self.blocked_since = None
                self.gw.metrics.frames_sent += 1
        except ConnectionClosed:
            return
        finally:
            # A cancelled writer keeps its CancelledError, whose traceback holds this frame:
            # with `me` (this task) still in it, task, error and frame would form a cycle
            # that only a full collection frees, and with it the whole connection.
            me = None

    def _write_now(self, frame: bytes) -> bool:
        """Write `frame` to the socket at once when nothing is queued or being sent
        before it (server/framing.py): a reply skips the writer task's wake-up and the
        library's framing."""
        idle = self.out.empty() and self.blocked_since is None and self._closing is None
        if idle and writable_now(self.ws):
            self.ws.transport.write(text_frame(frame))
            self.gw.metrics.frames_sent += 1
            self._check_filled()
            return True
        return False

    def _check_filled(self) -> None:
        """After a direct write: if the socket is now full, the writer waits for it to
        drain, blocked as if it had sent the frame itself, so later frames queue behind
        it, the slow-consumer limit applies and the sweep finds a peer that never reads."""
        if self.ws.paused:
            self.out.put_nowait(_FILLED)

    def offer(self, batch: Batch) -> bool:
        """Send a feed's live frames now, in one write shared with the other subscribers,
        or queue them all if there is room (the feed never waits on one client)."""
        count = len(batch.frames)
        idle = self.out.empty() and self.blocked_since is None and self._closing is None
        if idle and writable_now(self.ws):
            self.ws.transport.write(batch.wire())
            self.gw.metrics.frames_sent += count
            self._check_filled()
        elif self.out.maxsize - self.out.qsize() >= count:
            for frame in batch.frames:
                self.out.put_nowait(frame)
        else:
            return False
        self.gw.metrics.events_delivered += count
        return True

    async def send(self, frame: bytes) -> None:
        """Queue a frame; a client that stays full for too long is closed for resync."""
        if self._write_now(frame):
            return
        if not self.out.full():  # the common case: no timeout context per frame
            self.out.put_nowait(frame)
            return
        try:
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for swallows a cancellation
            # that arrives as the put completes, and a pump cancelled that way ran forever.
            async with asyncio.timeout(self.settings.slow_consumer_seconds):
                await self.out.put(frame)
        except TimeoutError as exc:
            self.gw.metrics.error("resync")
            self.close_soon(CLOSE_RESYNC, "too slow: resume from last seq")
            raise SlowConsumer from exc

    async def ping(self) -> asyncio.Future[float] | None:
        """Send a keepalive ping; the future of its pong, or None if none was sent: the
        connection is closing, or the peer is not reading (the writer waits on a full
        socket, and the sweep judges that)."""
        closing = self._closing is not None or self.ws.state is not State.OPEN
        if closing or self.blocked_since is not None:
            return None
        try:
            async with asyncio.timeout(PING_SEND_SECONDS):
                # A future already (typed as an awaitable): ensure_future returns it as is.
                pong = asyncio.ensure_future(await self.ws.ping())
        except (TimeoutError, ConnectionClosed):
            return None
        # Retrieved here: a connection that closes fails its pending pong futures.
        pong.add_done_callback(lambda f: f.cancelled() or f.exception())
        return pong

    def close_soon(self, code: int, reason: str) -> None:
        """Start closing without blocking the reader (it must drain for the handshake).

        The writer is cancelled first: a writer stuck on a full socket would hold the
        connection's send lock, so the close frame could never be queued. What it had
        written stays in the transport buffer, and the close frame follows it; websockets'
        close_timeout then aborts a peer that never completes the handshake.
        """
        if self._closing is None:
            if self.writer is not None:
                self.writer.cancel()
            self._closing = asyncio.create_task(self.close(code, reason))

    async def close(self, code: int, reason: str) -> None:
        """Close with `code`, aborting the TCP connection if the handshake does not finish
        within `close_timeout`. websockets' own close waits for its send buffer to drain
        before its timeout starts, so a peer that never reads would hold it forever."""
        try:
            async with asyncio.timeout(self.settings.close_timeout):
                await self.ws.close(code, reason)
        except TimeoutError:
            self.abort()

    def abort(self) -> None:
        """Drop the TCP connection at once (the peer is gone or never reads)."""
        if self.ws.transport is not None:
            self.ws.transport.abort()

    async def flush(self, timeout: float) -> None:
        """Wait until queued frames are written (used on shutdown)."""
        deadline = time.monotonic() + timeout
        while not self.out.empty() and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
