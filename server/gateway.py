"""The websocket gateway: one `Connection` per client, speaking events/wire.py.

Each connection has a bounded outgoing queue drained by one writer task. A subscription
catches up in a task of its own (from the feed's window or the stream), then goes live:
the game's feed puts each new frame straight into the queue (server/feed.py). Both go by
the next expected seq, so the hand-over has no gap and no repeat. A live subscription
whose queue is full goes back to catching up, and a client that stays full for
`slow_consumer_seconds` is closed with CLOSE_RESYNC; it resumes from its last seq.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import socket
import time
from typing import Any, NoReturn

import msgspec
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from engine import registry
from engine.actions import legal_actions
from engine.game import ruleset_of
from engine.map_view import drawn
from engine.redaction import view_for
from engine.replay import SeqOutOfRange
from engine.roles import Role
from events.errors import StoreUnavailable, UmpireError
from events.receipt import receipt_state_hash
from events.store import Credential
from events.wire import (
    CLOSE_GOING_AWAY,
    CLOSE_RATE_LIMIT,
    CLOSE_RESYNC,
    CLOSE_TOO_MANY_CONNECTIONS,
    PROTOCOL_VERSION,
    Accepted,
    Auth,
    Authenticated,
    BindSeed,
    Create,
    Created,
    Error,
    GameList,
    GameSummary,
    GetView,
    ListGames,
    Revoke,
    Revoked,
    SendCommand,
    Subscribe,
    Subscribed,
    Unsubscribe,
    Unsubscribed,
    ViewState,
    Welcome,
    client_decoder,
    encoder,
)
from server import credentials
from server.admission import (
    CREATE_COST,
    MESSAGE_COST,
    Admission,
    Budgets,
    OverBudget,
    Refusal,
    TooManyGrants,
    catch_up_cost,
    listing_cost,
    replay_cost,
)
from server.background import cancel_all
from server.config import Settings
from server.credentials import Unauthorized
from server.feed import Notifier, Subscription
from server.framing import Batch, text_frame, writable_now
from server.games import Games, game_id_for_create
from server.keepalive import Keepalive
from server.metrics import Metrics
from server.mistakes import MistakeLog
from server.nesting import MAX_DEPTH, too_deep
from server.replay_cache import ReplayCache
from server.revocations import RevocationListener

log = logging.getLogger("umpire.gateway")

_UNREACHABLE = (RedisConnectionError, RedisTimeoutError, ConnectionError, OSError)
# A ping is a few bytes into the socket; this bounds the rare one that meets a full buffer.
PING_SEND_SECONDS = 0.05
# After an over_budget refusal a connection is not read for the time until it could pay,
# within these bounds (a client that retries at once must not cost a refusal each time).
MIN_PAUSE = 0.25
MAX_PAUSE = 5.0
# How many revoked credentials a gateway remembers (refused locally without a store call).
REVOKED_REMEMBERED = 100_000
RULESET_NAMES_REMEMBERED = 100_000
# Events a catch-up sends per step: a page read from the stream is decoded and encoded in
# one go (~60 µs an event), so the page bounds how long it holds the event loop. 25 and 20
# (were 100 and 50): under 20 hostile connections a normal player's p99 fell from 24-35 to
# 18-26 ms for views, 23-25 to 11-17 ms for commands (python -m bench hostile, A/B).
CATCH_UP_PAGE = 25
LIST_PAGE = 20  # games whose versions one pipeline reads (redis-py parses ~60 µs each)
# The request id of a frame too deep to parse, found without parsing it (best effort).
_REQUEST_ID = re.compile(r'"id"\s*:\s*"([^"\\]{1,128})"')


# Queued after a direct write that filled the socket (server/framing.py): no frame, the
# writer waits for the socket to drain.
_FILLED = b""


class SlowConsumer(Exception):
    """The client did not read its frames in time."""


class Gateway:
    """State shared by every connection of one gateway process (none of it durable)."""

    def __init__(self, settings: Settings, games: Games, notifier: Notifier) -> None:
        self.settings = settings
        self.games = games
        self.store = games.store
        self.notifier = notifier
        self.metrics = Metrics()
        self.mistakes = MistakeLog(log)
        self.admission = Admission(
            Budgets(
                connection_rate=settings.cost_per_second,
                connection_burst=settings.cost_burst,
                address_rate=settings.address_cost_per_second,
                address_burst=settings.address_cost_burst,
                creates_per_minute=settings.creates_per_minute,
                create_burst=settings.create_burst,
            )
        )
        # Heavy work (a replay step, a catch-up page from the stream, a long listing) is
        # done one step at a time under this lock, so between any two turns of a normal
        # client's messages the event loop runs at most one such step (a few ms).
        self.heavy = asyncio.Lock()
        self.replays = ReplayCache(self.store, self.heavy)
        # game id -> ruleset name, for list_games (a game's ruleset never changes)
        self.ruleset_names: dict[str, str] = {}
        self.metrics.sources.append(self._admission_metrics)
        self.connections: set[Connection] = set()
        self.per_address: dict[str, int] = {}
        # (game id, credential digest) -> connections holding that credential
        self.holders: dict[tuple[str, str], set[Connection]] = {}
        # Credentials announced revoked (server/revocations.py): a token is never issued
        # twice, so once revoked always revoked; bounded, oldest forgotten first (the
        # store still refuses those).
        self.revoked: dict[tuple[str, str], None] = {}
        self.revocations = RevocationListener(self.store, self.revoked_now, self.recheck_soon)
        self._losing: set[asyncio.Task[None]] = set()
        self.draining = False
        self.inflight = 0
        self._tasks: list[asyncio.Task[None]] = []
        self.keepalive = Keepalive(settings.ping_interval, settings.ping_timeout, self.metrics)

    def start(self) -> None:
        """Start the background tasks: credential re-check, keepalive, dead-peer sweep."""
        self._tasks = [
            asyncio.create_task(self._recheck_credentials(), name="credentials"),
            asyncio.create_task(self.keepalive.run(), name="keepalive"),
            asyncio.create_task(self._sweep(), name="sweep"),
        ]
        self.metrics.gc.install()
        self.revocations.start()

    async def stop(self) -> None:
        """Stop the background tasks."""
        self.metrics.gc.remove()
        await self.revocations.stop()
        await cancel_all(self._tasks)
        await cancel_all(list(self._losing))

    def revoked_now(self, game_id: str, digest: str) -> None:
        """A credential was revoked (on any gateway, or by the CLI): every connection
        holding it loses the game before this returns, so its next message is refused and
        no further event is queued for it; the client is told in a task."""
        self.revoked[(game_id, digest)] = None
        while len(self.revoked) > REVOKED_REMEMBERED:
            del self.revoked[next(iter(self.revoked))]
        self.metrics.revocations_heard += 1
        for conn in self.holders.pop((game_id, digest), set()):
            conn.lose_game_now(game_id)
            task = asyncio.create_task(conn.lose_game(game_id))
            self._losing.add(task)
            task.add_done_callback(self._losing.discard)

    def _admission_metrics(self) -> list[str]:
        admission, replays = self.admission, self.replays
        lines = ["# TYPE umpire_cost_units_total counter"]
        for kind in sorted(admission.charged):
            lines.append(f'umpire_cost_units_total{{kind="{kind}"}} {admission.charged[kind]}')
        lines.append("# TYPE umpire_over_budget_total counter")
        for scope in ("connection", "address", "creates"):
            lines.append(f'umpire_over_budget_total{{scope="{scope}"}} {admission.refused[scope]}')
        lines += [
            "# TYPE umpire_replay_events_folded_total counter",
            f"umpire_replay_events_folded_total {replays.folded}",
            "# TYPE umpire_replay_answers_cached_total counter",
            f"umpire_replay_answers_cached_total {replays.hits}",
            "# TYPE umpire_replay_checkpoints gauge",
            f"umpire_replay_checkpoints {replays.count}",
            "# TYPE umpire_budget_addresses gauge",
            f"umpire_budget_addresses {len(admission.addresses)}",
        ]
        return lines

    def recheck_soon(self) -> None:
        """Re-check every grant now (revocations may have been missed)."""
        task = asyncio.create_task(self.recheck_credentials())
        self._losing.add(task)
        task.add_done_callback(self._losing.discard)

    async def _sweep(self) -> None:
        """Abort connections whose peer has accepted no data for a keepalive period.

        The keepalive ping cannot find such a peer: the ping waits behind the full send
        buffer, so its timeout never starts. A peer that reads nothing for
        ping_interval + ping_timeout is treated as gone, like one that misses a pong.
        """
        limit = self.settings.ping_interval + self.settings.ping_timeout
        while True:
            await asyncio.sleep(min(self.settings.ping_interval, limit / 2))
            now = time.monotonic()
            self.admission.forget_idle(now, set(self.per_address))
            for conn in list(self.connections):
                if conn.blocked_since is not None and now - conn.blocked_since > limit:
                    self.metrics.error("peer_not_reading")
                    conn.abort()

    async def _recheck_credentials(self) -> None:
        """Drop grants whose credential was revoked elsewhere (another gateway, the CLI)
        and whose announcement this gateway missed: the fallback to the push."""
        while True:
            await asyncio.sleep(self.settings.credential_recheck_seconds)
            await self.recheck_credentials()

    async def recheck_credentials(self) -> None:
        """Check every grant held here against the store once; drop the revoked ones."""
        grants = list(self.holders)
        try:
            for start in range(0, len(grants), 500):
                chunk = grants[start : start + 500]
                valid = await credentials.held(self.store, chunk)
                for grant, ok in zip(chunk, valid, strict=True):
                    if not ok:
                        await self.drop_grant(*grant)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the store away: try again next round
            log.warning("credential re-check: %s", exc)

    async def drop_grant(self, game_id: str, digest: str) -> int:
        """Every connection holding this credential loses the game; how many did."""
        holders = self.holders.pop((game_id, digest), set())
        for conn in list(holders):
            await conn.lose_game(game_id)
        return len(holders)

    def address_of(self, ws: ServerConnection) -> str:
        """The peer's IP address (the limit counts addresses, not ports)."""
        remote = ws.remote_address
        return str(remote[0]) if remote else "?"

    async def handle(self, ws: ServerConnection) -> None:
        """Serve one websocket connection until it closes."""
        address = self.address_of(ws)
        if self.per_address.get(address, 0) >= self.settings.max_connections_per_address:
            self.metrics.error("too_many_connections")
            await ws.close(
                CLOSE_TOO_MANY_CONNECTIONS,
                f"at most {self.settings.max_connections_per_address} connections per address",
            )
            return
        self.per_address[address] = self.per_address.get(address, 0) + 1
        try:
            await self._serve(ws)
        finally:
            left = self.per_address.get(address, 1) - 1
            if left > 0:
                self.per_address[address] = left
            else:
                self.per_address.pop(address, None)

    async def _serve(self, ws: ServerConnection) -> None:
        if self.settings.socket_send_buffer:
            sock = ws.transport.get_extra_info("socket") if ws.transport else None
            if sock is not None:
                sock.setsockopt(
                    socket.SOL_SOCKET, socket.SO_SNDBUF, self.settings.socket_send_buffer
                )
        conn = Connection(self, ws)
        self.connections.add(conn)
        self.keepalive.add(conn)
        self.metrics.connections_total += 1
        try:
            await conn.run()
        finally:
            self.connections.discard(conn)
            self.keepalive.remove(conn)
            await conn.cleanup()

    async def drain(self, timeout: float = 10.0) -> None:
        """Graceful shutdown: refuse new messages, finish those in flight, close with 1001."""
        self.draining = True
        deadline = time.monotonic() + timeout
        while self.inflight and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        for conn in list(self.connections):
            await conn.flush(timeout=max(0.1, deadline - time.monotonic()))
        await asyncio.gather(
            *(c.close(CLOSE_GOING_AWAY, "server shutting down") for c in self.connections),
            return_exceptions=True,
        )


class Connection:
    """One client: its credentials, subscriptions, outgoing queue and rate limit."""

    def __init__(self, gateway: Gateway, ws: ServerConnection) -> None:
        self.gw = gateway
        self.ws = ws
        self.address = gateway.address_of(ws)
        self.budget = gateway.admission.connection_bucket(time.monotonic())
        # Until when nothing is read from this client (after an over_budget refusal).
        self.paused_until = 0.0
        self.settings = gateway.settings
        self.roles: dict[str, Role] = {}
        # game id -> digest of the credential that granted its role (revocation finds it)
        self.grants: dict[str, str] = {}
        # Games whose credential was revoked while this connection held it (for the error).
        self.revoked_games: set[str] = set()
        self.operator = False
        self.subs: dict[str, Subscription] = {}
        self.out: asyncio.Queue[bytes | None] = asyncio.Queue(gateway.settings.send_queue_limit)
        self.writer: asyncio.Task[None] | None = None
        self.tokens = float(gateway.settings.max_burst)
        self._closing: asyncio.Task[None] | None = None
        # When the writer started waiting on a full socket (None while it is not).
        self.blocked_since: float | None = None
        self.refilled = time.monotonic()

    # -- lifecycle -------------------------------------------------------------------------

    async def run(self) -> None:
        self.writer = asyncio.create_task(self._write())
        await self.send(
            encoder.encode(
                Welcome(protocol=PROTOCOL_VERSION, server="umpire", rulesets=registry.available())
            )
        )
        try:
            async for raw in self.ws:
                if self._closing is not None:
                    continue  # keep reading (and dropping) so the close handshake completes
                if not self._take_token():
                    self.mistake("rate_limited", "too many messages per second")
                    self.close_soon(CLOSE_RATE_LIMIT, "too many messages per second")
                    continue
                if isinstance(raw, bytes):
                    self.mistake("binary_frame", f"{len(raw)} bytes")
                    await self.reply(
                        Error(
                            code="binary_frame",
                            message="binary frames are not accepted: send JSON text frames",
                        )
                    )
                    continue
                await self._dispatch(raw)
                wait = self.paused_until - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
        except ConnectionClosed:
            pass
        if self._closing is not None:
            # Returning would let websockets close with 1000 before our code goes out.
            with contextlib.suppress(Exception):
                await self._closing

    async def cleanup(self) -> None:
        for game_id in list(self.subs):
            await self._unsubscribe(game_id)
        for game_id in list(self.grants):
            self._forget_grant(game_id)
        if self.writer is not None:
            self.writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.writer

    def _take_token(self) -> bool:
        now = time.monotonic()
        rate = self.settings.max_messages_per_second
        self.tokens = min(self.settings.max_burst, self.tokens + (now - self.refilled) * rate)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    # -- output ----------------------------------------------------------------------------

    async def _write(self) -> None:
        try:
            while True:
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

    def lagging(self, sub: Subscription) -> None:
        """The feed could not deliver to `sub` live: catch it up in a task of its own."""
        self.gw.metrics.subscriptions_lagged += 1
        if self.subs.get(sub.feed.game_id) is sub and self._closing is None:
            sub.task = asyncio.create_task(self._catch_up(sub))

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

    async def reply(self, message: Any) -> None:
        await self.send(encoder.encode(message))

    async def flush(self, timeout: float) -> None:
        """Wait until queued frames are written (used on shutdown)."""
        deadline = time.monotonic() + timeout
        while not self.out.empty() and time.monotonic() < deadline:
            await asyncio.sleep(0.01)

    # -- input -----------------------------------------------------------------------------

    def mistake(self, code: str, detail: str) -> None:
        """Count a client's mistake, and log it in one line (rate-limited, no traceback)."""
        self.gw.metrics.error(code)
        self.gw.mistakes.note(self.address, code, detail)

    async def _dispatch(self, raw: str) -> None:
        if too_deep(raw):  # before parsing: the parser would recurse once per level
            await self._refuse_deep(raw)
            return
        try:
            message = client_decoder.decode(raw)  # typed, in one pass
        except msgspec.DecodeError as exc:  # ValidationError included
            await self._refuse_frame(raw, exc)
            return
        except RecursionError:  # cannot happen below MAX_DEPTH; never lose the connection
            await self._refuse_deep(raw)
            return
        request_id: str | None = message.id
        if self.gw.draining:
            await self.reply(
                Error(
                    code="shutting_down",
                    message="the server is shutting down; reconnect and retry with the "
                    "same command id",
                    id=request_id,
                )
            )
            return
        self.gw.inflight += 1
        try:
            await self._handle(message)
        except SlowConsumer:
            return  # the resync close is under way; the reader keeps draining
        except _UNREACHABLE as exc:
            # A store call that did not map its connection error: the same answer.
            self.gw.metrics.error("store_unavailable")
            await self.reply(
                Error(
                    code="store_unavailable",
                    message=f"the store is unavailable ({type(exc).__name__}); retry later "
                    "with the same command id",
                    id=request_id,
                )
            )
        except UmpireError as exc:
            self.gw.metrics.error(exc.code)
            details = {k: v for k, v in exc.details.items() if _jsonable(v)}
            await self.reply(
                Error(code=exc.code, message=exc.message, details=details, id=request_id)
            )
        except Exception as exc:  # never let one message take the connection down
            log.exception("internal error")
            self.gw.metrics.error("internal")
            await self.reply(
                Error(
                    code="internal", message=f"internal error: {type(exc).__name__}", id=request_id
                )
            )
        finally:
            self.gw.inflight -= 1

    async def _refuse_deep(self, raw: str) -> None:
        """Answer a frame that nests deeper than MAX_DEPTH: bad_message, connection kept."""
        found = _REQUEST_ID.search(raw)
        message = f"the frame nests deeper than {MAX_DEPTH} levels of arrays and objects"
        self.mistake("bad_message", message)
        await self.reply(
            Error(
                code="bad_message",
                message=f"{message}; no message needs more",
                details={"max_depth": MAX_DEPTH},
                id=found.group(1) if found else None,
            )
        )

    async def _refuse_frame(self, raw: str, failure: msgspec.DecodeError) -> None:
        """Answer a frame that is not a message: not JSON, or JSON of the wrong shape.

        The frame is decoded again, untyped: the typed decode stops at the first mismatch,
        so it may not have seen that the rest is not JSON at all, and the untyped one
        finds the request id to answer to."""
        try:
            data = msgspec.json.decode(raw)
        except msgspec.DecodeError as exc:
            self.mistake("bad_json", str(exc))
            await self.reply(Error(code="bad_json", message=f"frame is not JSON: {exc}"))
            return
        request_id = None
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            request_id = data["id"][:128]
        text = str(failure)
        code = "unknown_message_type" if "`$.type`" in text else "bad_message"
        allowed = (
            "create, auth, subscribe, unsubscribe, command, list_games, view, revoke, bind_seed"
        )
        self.mistake(code, text)
        await self.reply(
            Error(
                code=code,
                message=f"{text} (message types: {allowed})",
                details={"error": text},
                id=request_id,
            )
        )

    def admit(self, kind: str, cost: int) -> None:
        """Charge `cost` to this connection and its address, or refuse (over_budget)."""
        refusal = self.gw.admission.charge(self.budget, self.address, kind, cost, time.monotonic())
        if refusal is not None:
            self._refused(refusal)

    async def _pace(self, kind: str, cost: int) -> None:
        """Pay `cost` from this connection's and its address's budgets, waiting until
        they can (work a client is owed, such as its catch-up, is slowed, not refused)."""
        admission = self.gw.admission
        while wait := admission.pay_or_wait(
            self.budget, self.address, kind, cost, time.monotonic()
        ):
            await asyncio.sleep(wait)

    def _refused(self, refusal: Refusal) -> NoReturn:
        """Refuse with over_budget, and read nothing more from this client until it
        could pay: a client that resends at once is slowed by TCP, not answered again."""
        self.mistake("over_budget", refusal.message())
        pause = min(max(refusal.retry_after, MIN_PAUSE), MAX_PAUSE)
        self.paused_until = time.monotonic() + pause
        raise OverBudget.of(refusal)

    async def _handle(self, message: Any) -> None:
        if isinstance(message, Create):
            refusal = self.gw.admission.charge_create(self.address, time.monotonic())
            if refusal is not None:
                self._refused(refusal)
            self.admit("create", CREATE_COST)
        # A replay and a listing are charged below, once their work is known.
        elif not isinstance(message, ListGames) and not (
            isinstance(message, GetView) and message.at_seq is not None
        ):
            self.admit(type(message).__name__.lower(), MESSAGE_COST)
        match message:
            case Create():
                await self._create(message)
            case Auth():
                await self._auth(message.credential, message.id)
            case Subscribe():
                await self._subscribe(message)
            case Unsubscribe():
                await self._unsubscribe(message.game_id)
                await self.reply(Unsubscribed(game_id=message.game_id, id=message.id))
            case SendCommand():
                await self._command(message)
            case ListGames():
                await self._list(message)
            case GetView():
                role = self._role(message.game_id)
                if message.at_seq is None:
                    await self.reply(await self._view(message.game_id, role, message.id))
                else:
                    view = await self._view_at(message.game_id, role, message.at_seq, message.id)
                    await self.reply(view)
            case Revoke():
                await self._revoke(message)
            case BindSeed():
                await self._bind_seed(message)

    async def _create(self, msg: Create) -> None:
        # A create_id names the game, so a re-sent create finds the game it made before
        # (the log's command-id check makes the second append a duplicate). Each answer
        # issues new credentials: the first answer may never have arrived.
        game_id = game_id_for_create(msg.create_id) if msg.create_id else None
        self._check_grant_room(game_id)
        scenario = msg.scenario
        if not msg.setup and scenario is None:
            # No setup at all: the ruleset's default scenario, as `umpire new RULESET` starts.
            scenario = registry.get(msg.ruleset).default_scenario or None
        created = await self.gw.games.create(
            msg.ruleset,
            msg.setup,
            client_seed=msg.client_seed,  # refused: it must follow the commitment
            client_entropy=msg.client_entropy,
            game_id=game_id,
            scenario=scenario,
            opponent_manual_dice=msg.opponent_manual_dice,
        )
        player = await credentials.issue(self.gw.store, created.game_id, Role.PLAYER)
        spectator = await credentials.issue(self.gw.store, created.game_id, Role.SPECTATOR)
        self._grant(created.game_id, Role.PLAYER, credentials.fingerprint(player)[1])
        self.gw.metrics.games_created += not created.duplicate
        await self.reply(
            Created(
                game_id=created.game_id,
                ruleset=created.ruleset,
                player_credential=player,
                spectator_credential=spectator,
                seed_commitment=created.seed_commitment,
                client_seed=created.client_seed,
                id=msg.id,
                client_entropy=created.client_entropy.value,
            )
        )

    async def _player_grant(
        self, game_id: str, credential: str | None, request_id: str | None, what: str
    ) -> str:
        """The digest of this connection's player credential for `game_id` (presenting
        `credential` first if given); Unauthorized for any other role, naming `what`."""
        if credential:
            await self._auth(credential, request_id, reply=False)
        role = self._role(game_id)
        if role is not Role.PLAYER:
            raise Unauthorized(
                f"a {role.value} may not {what} game {game_id!r}; only the player credential may",
                game_id=game_id,
                role=role.value,
            )
        return self.grants[game_id]

    async def _bind_seed(self, msg: BindSeed) -> None:
        """The player's seed for the current seed epoch (docs/audit.md (4.1))."""
        digest = await self._player_grant(
            msg.game_id, msg.credential, msg.id, "bind a client seed for"
        )
        role = Role.PLAYER
        try:
            result = await self.gw.games.bind_client_seed(
                msg.game_id, msg.client_seed, credential=Credential(digest, role.value)
            )
        except Unauthorized:
            await self.gw.drop_grant(msg.game_id, digest)
            raise
        await self.reply(
            Accepted(
                game_id=msg.game_id,
                command_id=result.command_id,
                seqs=result.seqs,
                duplicate=result.duplicate,
                id=msg.id,
            )
        )

    async def _auth(self, credential: str, request_id: str | None, reply: bool = True) -> None:
        if credentials.is_operator(credential, self.settings.operator_token):
            self.operator = True
            if reply:
                await self.reply(Authenticated(game_id="", role="operator", id=request_id))
            return
        charge = self.gw.admission.compared(self.budget, self.address)  # per credential
        game_id, role = await credentials.verify(self.gw.store, credential, charge)
        self._grant(game_id, role, credentials.fingerprint(credential)[1])
        if reply:
            await self.reply(Authenticated(game_id=game_id, role=role.value, id=request_id))

    def _check_grant_room(self, game_id: str | None) -> None:
        """Refuse a new grant past `max_grants_per_connection` (a held game is no new one)."""
        limit = self.settings.max_grants_per_connection
        if game_id not in self.grants and len(self.grants) >= limit:
            self.mistake("too_many_grants", f"{len(self.grants)} grants")
            raise TooManyGrants(
                f"this connection holds credentials for {limit} games already, the most "
                "it may: use another connection (UMPIRE_MAX_GRANTS_PER_CONNECTION)",
                limit=limit,
            )

    def _grant(self, game_id: str, role: Role, digest: str) -> None:
        if (game_id, digest) in self.gw.revoked:  # revoked while it was being verified
            raise Unauthorized(f"the credential for game {game_id!r} was revoked", game_id=game_id)
        self._check_grant_room(game_id)
        self._forget_grant(game_id)
        self.revoked_games.discard(game_id)
        self.roles[game_id] = role
        self.grants[game_id] = digest
        self.gw.holders.setdefault((game_id, digest), set()).add(self)

    def _forget_grant(self, game_id: str) -> None:
        self.roles.pop(game_id, None)
        digest = self.grants.pop(game_id, None)
        if digest is None:
            return
        holders = self.gw.holders.get((game_id, digest))
        if holders is not None:
            holders.discard(self)
            if not holders:
                del self.gw.holders[(game_id, digest)]

    def lose_game_now(self, game_id: str) -> None:
        """Drop the role for `game_id` and stop live delivery of its events, at once (no
        await): `lose_game` then ends the subscription and tells the client."""
        self._forget_grant(game_id)
        self.revoked_games.add(game_id)
        sub = self.subs.get(game_id)
        if sub is not None:
            sub.feed.detach(sub)
            if sub.task is not None:
                sub.task.cancel()

    async def lose_game(self, game_id: str) -> None:
        """The credential for `game_id` was revoked: drop its role and its subscription,
        and tell the client (an unsolicited `credential_revoked` error frame)."""
        self._forget_grant(game_id)
        self.revoked_games.add(game_id)
        had_subscription = game_id in self.subs
        await self._unsubscribe(game_id)
        notice = Error(
            code="credential_revoked",
            message=f"the credential for game {game_id!r} was revoked"
            + ("; the subscription was dropped" if had_subscription else ""),
            details={"game_id": game_id, "subscription_dropped": had_subscription},
        )
        # Never wait on another client's full queue: a slow reader is closed anyway.
        with contextlib.suppress(asyncio.QueueFull):
            self.out.put_nowait(encoder.encode(notice))

    async def rewound(self, sub: Subscription, head: int) -> None:
        """The game's log now ends at `head`, before events this client may have been
        sent (the store lost acknowledged writes): end the subscription and tell the
        client (an unsolicited `log_rewound` error frame) to subscribe again."""
        game_id = sub.feed.game_id
        if self.subs.get(game_id) is not sub:
            return
        await self._unsubscribe(game_id)
        self.gw.metrics.error("log_rewound")
        notice = Error(
            code="log_rewound",
            message=f"the log of game {game_id!r} now ends at seq {head}: the store lost "
            "events written after it, which you may have received; the subscription was "
            "dropped: drop what you hold after that seq and subscribe again (with view)",
            details={"game_id": game_id, "head": head},
        )
        # Never wait on another client's full queue: a slow reader is closed anyway.
        with contextlib.suppress(asyncio.QueueFull):
            self.out.put_nowait(encoder.encode(notice))

    async def _still_valid(self, game_id: str) -> None:
        """Refuse a command whose credential was revoked since it was presented."""
        digest = self.grants.get(game_id)
        if digest is None:
            return  # operator (referee) access holds no game credential
        (valid,) = await credentials.held(self.gw.store, [(game_id, digest)])
        if not valid:
            await self.gw.drop_grant(game_id, digest)
            raise Unauthorized(f"the credential for game {game_id!r} was revoked", game_id=game_id)

    async def _revoke(self, msg: Revoke) -> None:
        if not self.operator:
            raise Unauthorized("only the operator may revoke credentials: auth with its token")
        game_id, digest = credentials.fingerprint(msg.credential)
        holding = len(self.gw.holders.get((game_id, digest), ()))
        existed = await credentials.revoke(self.gw.store, msg.credential)
        # At once here, whether or not this gateway's announcement has come back yet.
        self.gw.revoked_now(game_id, digest)
        await self.reply(Revoked(game_id=game_id, existed=existed, dropped=holding, id=msg.id))

    def _role(self, game_id: str) -> Role:
        role = self.roles.get(game_id)
        if role is not None:
            return role
        if self.operator:
            return Role.REFEREE
        if game_id in self.revoked_games:
            raise Unauthorized(f"the credential for game {game_id!r} was revoked", game_id=game_id)
        raise Unauthorized(
            f"no credential for game {game_id!r} on this connection: send 'auth' first",
            game_id=game_id,
        )

    async def _view_at(
        self, game_id: str, role: Role, at_seq: int, request_id: str | None
    ) -> ViewState:
        """The state after event `at_seq` as `role` sees it now (all of it once revealed).

        Charged by the events it must read and fold (server/admission.py); folded from
        the nearest checkpoint, or answered from the cache (server/replay_cache.py)."""
        ruleset, game = await self.gw.games.load(game_id)
        if not 1 <= at_seq <= game.meta.seq:
            self.admit("view_at", MESSAGE_COST)
            raise SeqOutOfRange(
                f"seq {at_seq} is out of range: game {game_id!r} has events 1 to {game.meta.seq}",
                game_id=game_id,
                at_seq=at_seq,
                head=game.meta.seq,
            )
        revealed = game.meta.revealed_seed is not None
        # Actions only at the head: a past state's commands can no longer be sent.
        actions = (
            legal_actions(ruleset, game.state, role, ended=game.meta.ended, game=game)
            if at_seq == game.meta.seq
            else []
        )

        def answer(state: Any, ended: bool, event_hash: str) -> ViewState:
            return ViewState(
                game_id=game_id,
                seq=at_seq,
                role=role.value,
                ruleset=ruleset.name,
                state=state,
                ended=ended,
                id=request_id,
                actions=actions,
                head_hash=event_hash,
                state_hash=receipt_state_hash(at_seq, event_hash, state),
                map=drawn(ruleset.board, state),
            )

        replays = self.gw.replays
        key = (game_id, at_seq, role.value, revealed)
        self.admit("view_at", replay_cost(replays.distance(game_id, at_seq, key)))
        cached = replays.answer(key)
        if cached is not None:
            event_hash, (state, ended) = cached
            here = await self.gw.store.read(game_id, at_seq, at_seq)
            if here and here[0].hash == event_hash:
                return answer(state, ended, event_hash)
            replays.forget(game_id)  # the log changed under the answer
        past = await replays.game_at(game_id, ruleset, at_seq)
        state = msgspec.to_builtins(view_for(ruleset, past.state, role, revealed=revealed))
        replays.remember(key, past.meta.last_hash, (state, past.meta.ended))
        return answer(state, past.meta.ended, past.meta.last_hash)

    async def _view(self, game_id: str, role: Role, request_id: str | None) -> ViewState:
        ruleset, game = await self.gw.games.load(game_id)
        revealed = game.meta.revealed_seed is not None
        state = msgspec.to_builtins(view_for(ruleset, game.state, role, revealed=revealed))
        return ViewState(
            game_id=game_id,
            seq=game.meta.seq,
            role=role.value,
            ruleset=ruleset.name,
            state=state,
            ended=game.meta.ended,
            id=request_id,
            actions=legal_actions(ruleset, game.state, role, ended=game.meta.ended, game=game),
            head_hash=game.meta.last_hash,
            state_hash=receipt_state_hash(game.meta.seq, game.meta.last_hash, state),
            map=drawn(ruleset.board, state),
        )

    async def _subscribe(self, msg: Subscribe) -> None:
        if msg.credential:
            await self._auth(msg.credential, msg.id, reply=False)
        role = self._role(msg.game_id)
        if not msg.credential:
            await self._still_valid(msg.game_id)
        if msg.game_id not in self.subs and len(self.subs) >= self.settings.max_subscriptions:
            raise UmpireError(
                f"at most {self.settings.max_subscriptions} subscriptions per connection",
                limit=self.settings.max_subscriptions,
            )
        await self._unsubscribe(msg.game_id)
        feed = await self.gw.notifier.feed(msg.game_id)
        start = msg.from_seq or 0
        await self.reply(
            Subscribed(
                game_id=msg.game_id, from_seq=start, head=feed.head, role=role.value, id=msg.id
            )
        )
        if msg.view:
            view = await self._view(msg.game_id, role, msg.id)
            await self.reply(view)
            if msg.from_seq is None:
                start = view.seq
        sub = Subscription(feed, self, role, start + 1)
        feed.attach(sub)
        self.subs[msg.game_id] = sub
        sub.task = asyncio.create_task(self._catch_up(sub))

    async def _catch_up(self, sub: Subscription) -> None:
        """Send `sub` what it is owed up to the feed's head, then hand it to the feed."""
        feed = sub.feed
        me = asyncio.current_task()
        try:
            # Checking `cancelling()` too: a cancellation swallowed by a library call must
            # still end the task (one that outlives its subscription leaks forever).
            while me is None or not me.cancelling():
                if feed.head < sub.next_seq:
                    sub.task = None
                    feed.join(sub)  # no await since the check: nothing can come between
                    return
                count = min(feed.head, sub.next_seq + CATCH_UP_PAGE - 1) - sub.next_seq + 1
                if sub.next_seq in feed.window:  # encoded once, shared: cheap
                    frames = await feed.frames(sub.next_seq, sub.role, CATCH_UP_PAGE)
                else:  # read from the stream and encoded for this client alone
                    await self._pace("catch_up", catch_up_cost(count))
                    async with self.gw.heavy:
                        frames = await feed.frames(sub.next_seq, sub.role, CATCH_UP_PAGE)
                for frame in frames:
                    await self.send(frame)
                self.gw.metrics.events_delivered += len(frames)
                sub.next_seq += count
        except (SlowConsumer, asyncio.CancelledError):
            return
        except Exception:
            log.exception("subscription catch-up failed")
            with contextlib.suppress(Exception):
                await self.close(CLOSE_RESYNC, "subscription failed: resume from last seq")

    async def _unsubscribe(self, game_id: str) -> None:
        sub = self.subs.pop(game_id, None)
        if sub is None:
            return
        sub.feed.detach(sub)
        if sub.task is not None:
            sub.task.cancel()
            # Bounded: the task ends within one read even if a cancellation was lost.
            await asyncio.wait({sub.task}, timeout=5.0)
        await self.gw.notifier.release(sub.feed)

    async def _command(self, msg: SendCommand) -> None:
        # A credential revoked since it was presented is refused by the append itself.
        digest = await self._player_grant(msg.game_id, msg.credential, msg.id, "send commands to")
        role = Role.PLAYER
        started = time.perf_counter()
        try:
            result = await self.gw.games.handle(
                msg.game_id,
                msg.command_id,
                msg.command,
                manual_dice=msg.dice,
                expected_seq=msg.expected_seq,
                role=role,
                credential=Credential(digest, role.value),
            )
        except Unauthorized:
            await self.gw.drop_grant(msg.game_id, digest)
            raise
        self.gw.metrics.observe_command(
            time.perf_counter() - started, appended=not result.duplicate
        )
        head_seq, head_hash, state_hash = await self._receipt(msg.game_id, role)
        await self.reply(
            Accepted(
                game_id=msg.game_id,
                command_id=msg.command_id,
                seqs=result.seqs,
                duplicate=result.duplicate,
                id=msg.id,
                head_seq=head_seq,
                head_hash=head_hash,
                state_hash=state_hash,
            )
        )

    async def _receipt(self, game_id: str, role: Role) -> tuple[int, str, str]:
        """The receipt of a reply: the game's head and the state hash of `role`'s view
        there. Taken from the cached game (no round trip on the command path); only a game
        the cache let go of is loaded, and without a store there is no receipt (0, "")."""
        cached = self.gw.games.cached(game_id)
        if cached is None:
            try:
                cached = await self.gw.games.load(game_id)
            except UmpireError:
                # The command is written: a store that went away since must not turn its
                # success into an error. The reply goes without a receipt (`view` has one).
                return 0, "", ""
        ruleset, game = cached
        revealed = game.meta.revealed_seed is not None
        state = msgspec.to_builtins(view_for(ruleset, game.state, role, revealed=revealed))
        return (
            game.meta.seq,
            game.meta.last_hash,
            receipt_state_hash(game.meta.seq, game.meta.last_hash, state),
        )

    async def _list(self, msg: ListGames) -> None:
        ids = await self.gw.store.games() if self.operator else sorted(self.roles)
        self.admit("list_games", listing_cost(len(ids)))
        store = self.gw.store
        try:
            versions = []
            for start in range(0, len(ids), LIST_PAGE):
                async with self.gw.heavy:
                    pipe = store.redis.pipeline(transaction=False)
                    for game_id in ids[start : start + LIST_PAGE]:
                        pipe.hget(store.keys(game_id).meta, "version")
                    versions += await pipe.execute()
        except _UNREACHABLE as exc:
            raise StoreUnavailable(f"the store is unavailable ({exc}); retry later") from exc
        summaries = []
        names = self.gw.ruleset_names
        for game_id, raw in zip(ids, versions, strict=True):
            if raw is None:
                continue  # no such game (any more)
            name = names.get(game_id)
            if name is None:  # read once per game and gateway: a ruleset never changes
                first = await store.read(game_id, 1, 1)
                if not first:
                    continue
                if len(names) >= RULESET_NAMES_REMEMBERED:
                    names.clear()
                name = names[game_id] = ruleset_of(first[0]).name
            role = self.roles.get(game_id, Role.REFEREE)
            summaries.append(
                GameSummary(game_id=game_id, ruleset=name, role=role.value, seq=int(raw))
            )
        await self.reply(GameList(games=summaries, id=msg.id))


def _jsonable(value: Any) -> bool:
    try:
        msgspec.json.encode(value)
        return True
    except (TypeError, msgspec.EncodeError):
        return False
