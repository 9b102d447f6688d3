"""Appends that arrive in the same event-loop turn go to Redis as one script call.

The waiting appends of one turn (up to MAX_BATCH, of any games) are sent as one `EVALSHA`
of the many-games script (events/redis_store.py `MULTI_APPEND_SCRIPT`): one command for
Valkey to parse, look up and run, where each append was its own `EVALSHA` before. Inside
it each game's append is the one-game script's, run in turn and answered on its own, so
one refused append (a conflict, a duplicate, a revoked credential) stops no other, and
each caller gets its own game's answer. With a durability setting, one `WAITAOF` follows
the call: it waits for every earlier write of its connection, so the appends of one turn
share one wait, and no caller is answered before it.

The call is packed here, by hand, into one RESP write on a connection the batcher keeps
for itself: redis-py's pipeline spent most of a gateway's store time packing (its
`pack_command` encodes every argument through its `Encoder`, about 40% of the store's CPU
per command in the closed-loop profile, README "Gateway CPU per command") and taking a
pool connection (its observability hooks and a readiness check per batch). The replies
are read with redis-py's own connection, so parsing, health checks and the retry of a
lost connection are the same as a pipeline's.

The socket timeout is the batch's, not each write's and read's, and it costs no timer per
batch. redis-py on Python 3.11 wraps a write under a socket timeout in `asyncio.wait_for`
(a task of its own and two more turns of the loop) and arms a timer for each reply; one
`asyncio.timeout` per batch instead still arms and cancels a timer. So the batcher's
connections are made without a socket timeout, and one watchdog timer, armed only while a
batch is out and re-armed for the oldest one left, cancels a batch past the pool's
`socket_timeout`. Its expiry is what redis-py's own would be: the connection dropped
(redis-py drops it on any interruption of a write or read, so no half-read reply stays on
it), a redis-py TimeoutError, retried as before. CPU per sequential Downtown command in
`Games.handle` (in-process, 4,000 commands, three runs each): 198 µs with redis-py's
timeouts, 181 with `asyncio.timeout`, 175 with the watchdog, 166 with no timeout at all
(docs/benchmarks.md, 2026-11-26 night).
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable, Coroutine
from typing import Any

from redis.exceptions import NoScriptError, ResponseError

from umpire.events.durability import Durability
from umpire.events.resp import bulks, exchange_on, pack
from umpire.events.unreachable import StoreTimeout

MAX_BATCH = 256  # appends per call
MAX_CONNECTIONS = 32  # the batcher's own connections (batches in flight at once)
MAX_HEADS = 10_000  # games whose packed keys are kept

# One waiting append: the script's keys; its arguments' count and RESP bulks (the count
# of the append's own, then those: events/redis_store.py `append_packed`); what to call
# once it is written (or None); what its caller names it by (`on_replies`); and the
# future its caller awaits.
Waiting = tuple[
    tuple[str, ...], int, bytes, Callable[[], None] | None, Any, "asyncio.Future[tuple[Any, Any]]"
]


class AppendBatcher:
    """Sends every waiting append in one call of the many-games script, once per
    event-loop turn."""

    def __init__(
        self, client: Any, *, script: str, sha: str, wait: Durability | None = None
    ) -> None:
        self.client = client
        self.script = script
        self.sha = sha
        self.wait = wait if wait is not None and wait.active else None
        self._wait_command = pack(*self.wait.command) if self.wait is not None else b""
        self._waiting: list[Waiting] = []
        self._sending: set[asyncio.Task[None]] = set()
        self._idle: list[Any] = []  # the batcher's connections not in use
        self._made: list[Any] = []
        self._free: collections.deque[asyncio.Future[None]] = collections.deque()
        # Each game's keys packed (they never change): the same bytes every append of the
        # game would pack again.
        self._heads: dict[tuple[str, ...], bytes] = {}
        # The batch's deadline (None: none); the connections themselves are made without.
        self._timeout: float | None = client.connection_pool.connection_kwargs.get("socket_timeout")
        self._out: dict[asyncio.Task[Any], float] = {}  # batches out, by their deadline
        self._expired: set[asyncio.Task[Any]] = set()  # cancelled by the watchdog
        self._watchdog: asyncio.TimerHandle | None = None
        self.batches = 0  # script calls sent, one a write (a figure for the benchmark)
        self.calls = 0  # appends sent in them
        # Called with each batch's (tag, reply) pairs before any appender is answered:
        # the store's head checkpoints, one write a batch (events/redis_store.py).
        self.on_replies: Callable[[list[tuple[Any, Any]]], None] | None = None

    def run(
        self,
        keys: tuple[str, ...],
        count: int,
        packed: bytes,
        tag: Any = None,
        on_sent: Callable[[], None] | None = None,
    ) -> asyncio.Future[tuple[Any, Any]]:
        """The future of (the script's reply, WAITAOF's reply or None when not waiting)
        for one append of `keys` whose `count` arguments are `packed` (the first its own
        count); it holds the error the store gave. `tag` is what `on_replies` hears of this
        append; `on_sent` is called once its batch is written (again if it is written
        again). A future, not a coroutine: its caller awaits it, one frame less a move."""
        future: asyncio.Future[tuple[Any, Any]] = asyncio.get_running_loop().create_future()
        self._waiting.append((keys, count, packed, on_sent, tag, future))
        if len(self._waiting) == 1:
            # The turn's batch goes in a task whose first step, at the next turn, takes
            # every append waiting then (a callback that made the task then would cost the
            # batch one more loop turn before its write: ~8 us of a sequential move).
            self._start(self._send_turn())
        return future

    def _start(self, send: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(send)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send_turn(self) -> None:
        waiting, self._waiting = self._waiting, []
        for start in range(MAX_BATCH, len(waiting), MAX_BATCH):
            self._start(self._send(waiting[start : start + MAX_BATCH]))
        await self._send(waiting[:MAX_BATCH])

    async def _send(self, batch: list[Waiting]) -> None:
        for attempt in range(2):  # a second pass only after loading the script (NOSCRIPT)
            self.batches += 1
            self.calls += len(batch)
            try:
                replies, waited = await self._call(batch)
            except asyncio.CancelledError:
                for *_, future in batch:
                    future.cancel()
                raise
            except Exception as exc:  # the connection failed: each may or may not have run
                for *_, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                return
            if isinstance(replies, NoScriptError) and attempt == 0:  # the server lost it
                again = batch
            else:
                if isinstance(replies, NoScriptError):  # lost again at once: give up
                    replies = [replies] * len(batch)
                again = []
                if self.on_replies is not None:
                    self.on_replies(
                        [(tag, reply) for (*_, tag, _), reply in zip(batch, replies, strict=True)]
                    )
                for (*_, future), reply in zip(batch, replies, strict=True):
                    if future.done():
                        continue  # its caller went away; the append ran or not, as it would
                    if isinstance(reply, Exception):
                        future.set_exception(reply)
                    else:
                        future.set_result((reply, waited))
            if not again:
                return
            try:
                await self.client.script_load(self.script)
            except Exception as exc:
                for *_, future in again:
                    if not future.done():
                        future.set_exception(exc)
                return
            batch = again

    async def _call(self, batch: list[Waiting]) -> tuple[Any, Any]:
        """Each append's reply (an error in its place), or NoScriptError for the whole
        call; and WAITAOF's reply (None when not waiting). An error reply to the whole call
        (the script failed outside any one append) is each append's error."""
        heads = b"".join([self._head(keys) for keys, *_ in batch])
        args = b"".join([packed for _, _, packed, *_ in batch])
        numkeys = sum([len(keys) for keys, *_ in batch])
        count = numkeys + sum([count for _, count, *_ in batch])
        packed = b"*%d\r\n" % (3 + count) + bulks("EVALSHA", self.sha, numkeys) + heads + args
        if self.wait is not None:
            packed += self._wait_command
        conn = await self._connection()
        try:
            replies = await conn.retry.call_with_retry(
                lambda: self._exchange(conn, packed, 1 if self.wait is None else 2, batch),
                lambda _error: conn.disconnect(),
            )
        finally:
            self._release(conn)
        reply = replies[0]
        waited = replies[1] if self.wait is not None else None
        if isinstance(reply, NoScriptError):
            return reply, waited
        if isinstance(reply, Exception):
            return [reply] * len(batch), waited
        pairs = iter(reply)
        answers: list[Any] = list(zip(pairs, pairs, strict=True))  # (status, value) a game
        if b"error" in reply[::2]:
            answers = [_answer(status, value) for status, value in answers]
        return answers, waited

    async def _exchange(
        self, conn: Any, packed: bytes, count: int, batch: list[Waiting]
    ) -> list[Any]:
        """One attempt at the batch, within the socket timeout (the watchdog's)."""
        sent = _sent_callback(batch)
        task = asyncio.current_task()
        if self._timeout is None or task is None:
            return await exchange_on(conn, packed, count, sent)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._timeout
        self._out[task] = deadline
        if self._watchdog is None:
            self._watchdog = loop.call_at(deadline, self._watch)
        try:
            return await exchange_on(conn, packed, count, sent)
        except asyncio.CancelledError:
            if task not in self._expired:
                raise
            self._expired.discard(task)
            if task.uncancel() > 0:  # the watchdog's ends here; anyone else's goes on
                raise
            await conn.disconnect(nowait=True)  # as redis-py did already
            raise StoreTimeout("Timeout on the append connection") from None
        finally:
            self._out.pop(task, None)
            self._expired.discard(task)

    def _watch(self) -> None:
        """Cancel every batch out past its deadline; re-arm for the oldest left."""
        self._watchdog = None
        loop = asyncio.get_running_loop()
        now = loop.time()
        for task, deadline in list(self._out.items()):
            if deadline <= now and task not in self._expired:
                self._expired.add(task)
                task.cancel()
        left = [d for t, d in self._out.items() if t not in self._expired]
        if left:
            self._watchdog = loop.call_at(min(left), self._watch)

    def _head(self, keys: tuple[str, ...]) -> bytes:
        """A game's keys packed, once per game (MAX_HEADS kept)."""
        head = self._heads.get(keys)
        if head is None:
            if len(self._heads) >= MAX_HEADS:
                self._heads.clear()
            head = self._heads[keys] = bulks(*keys)
        return head

    async def _connection(self) -> Any:
        """One of the batcher's connections (made on demand, at most MAX_CONNECTIONS)."""
        while not self._idle:
            if len(self._made) < MAX_CONNECTIONS:
                conn = self.client.connection_pool.make_connection()
                conn.socket_timeout = None  # the batch's deadline stands for it (_exchange)
                self._made.append(conn)
                return conn
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._free.append(waiter)
            try:
                await waiter
            except asyncio.CancelledError:
                if waiter.done() and self._idle:
                    self._wake()  # the wake-up it was given goes to the next in line
                raise
        return self._idle.pop()

    def _release(self, conn: Any) -> None:
        self._idle.append(conn)
        self._wake()

    def _wake(self) -> None:
        while self._free:
            waiter = self._free.popleft()
            if not waiter.done():
                waiter.set_result(None)
                break

    async def close(self) -> None:
        """Disconnect the batcher's connections."""
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        for conn in self._made:
            await conn.disconnect()
        self._made.clear()
        self._idle.clear()


def _sent_callback(batch: list[Waiting]) -> Callable[[], None] | None:
    """What to call once `batch` is written: each append's `on_sent` (None: none has one)."""
    calls = [on_sent for _, _, _, on_sent, _, _ in batch if on_sent is not None]
    if not calls:
        return None
    if len(calls) == 1:
        return calls[0]

    def sent() -> None:
        for call in calls:
            call()

    return sent


def _answer(status: bytes, value: bytes) -> Any:
    """One game's part of the many-games script's flat answer: its (status, value), or
    the error that one command of its append met (status `error`), as an error reply."""
    if status == b"error":
        return ResponseError(value.decode(errors="replace"))
    return status, value
