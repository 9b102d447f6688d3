"""The websocket gateway: what every connection of one gateway process shares.

A `Gateway` holds the tables its connections share (grants and their holders,
admission, metrics, the replay cache), runs the background tasks (credential re-check,
keepalive, dead-peer sweep, store look), admits each websocket and serves it as a
`Connection` (server/connection.py), and ends them all on shutdown.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import socket
import time

from websockets.asyncio.server import ServerConnection

from umpire.events.local_users import loopback_host, peer_uid
from umpire.events.wire import CLOSE_GOING_AWAY, CLOSE_TOO_MANY_CONNECTIONS
from umpire.server import credentials
from umpire.server.admission import (
    Admission,
    Budgets,
    Connections,
    client_key,
)
from umpire.server.background import cancel_all
from umpire.server.config import Settings
from umpire.server.connection import Connection
from umpire.server.delivery import CLEANUP_SECONDS
from umpire.server.driver import pushed_state
from umpire.server.games import Games
from umpire.server.head_checkpoints import HeadCheckpoints
from umpire.server.keepalive import Keepalive
from umpire.server.metrics import FLUSH_SECONDS, Figures, Metrics, WorkerShare
from umpire.server.mistakes import MistakeLog
from umpire.server.notifier import Notifier
from umpire.server.receipt_batch import EarlySignatures, SigningBatcher
from umpire.server.replay_cache import ReplayCache
from umpire.server.revocations import RevocationListener
from umpire.server.view_digests import ViewDigests

log = logging.getLogger("umpire.gateway")

# How many revoked credentials a gateway remembers (refused locally without a store call).
REVOKED_REMEMBERED = 100_000
# How often a gateway looks at the store for /metrics (PING, INFO persistence); a scrape
# looks too. Bounded like /healthz's PING: a frozen store must not hold the loop's task.
STORE_LOOK_SECONDS = 5.0
STORE_LOOK_TIMEOUT = 0.8


def client_of(ws: ServerConnection, address: str) -> str:
    """Whose budgets the connection from `address` spends (server/admission.py
    `client_key`): on loopback the local account holding its other end
    (events/local_users.py), so one account's connections never lock out another's;
    else its address."""
    uid = None
    local, remote = ws.local_address, ws.remote_address
    if local and remote and loopback_host(address) is not None:
        uid = peer_uid((str(local[0]), int(local[1])), (str(remote[0]), int(remote[1])))
    return client_key(address, uid)


class Gateway:
    """State shared by every connection of one gateway process (none of it durable)."""

    def __init__(
        self,
        settings: Settings,
        games: Games,
        notifier: Notifier,
        share: WorkerShare | None = None,
    ) -> None:
        """`share`: this is one worker of `umpire serve --workers N` (server/workers.py):
        its client budgets are its 1/N share, and /metrics sums every worker."""
        self.settings = settings
        self.share = share
        workers = share.count if share is not None else 1
        self.games = games
        self.store = games.store
        self.notifier = notifier
        self.metrics = Metrics(share)
        self.mistakes = MistakeLog(log)
        self.admission = Admission(
            Budgets(
                connection_rate=settings.cost_per_second,
                connection_burst=settings.cost_burst,
                address_rate=settings.address_cost_per_second,
                address_burst=settings.address_cost_burst,
                creates_per_minute=settings.creates_per_minute,
                create_burst=settings.create_burst,
            ).share(workers)
        )
        # Open connections per client: an address, or a local account on loopback.
        self.clients = Connections(settings.max_connections_per_address, workers)
        # Heavy work (a replay step, a catch-up page from the stream, a long listing) is
        # done one step at a time under this lock, so between any two turns of a normal
        # client's messages the event loop runs at most one such step (a few ms).
        self.heavy = asyncio.Lock()
        self.checkpoints: HeadCheckpoints | None = None  # the embedded store's (app.py)
        self.replays = ReplayCache(self.store, self.heavy)
        # The receipts of one loop turn, signed as one tree (docs/audit.md 8.4).
        self.signing = SigningBatcher()
        # Pushed state frames (subscribe `views`), built by the feed once per role a batch
        # and signed in the same trees as the replies.
        notifier.state_builder = functools.partial(pushed_state, games, self.signing)
        # game id -> ruleset name, for list_games (a game's ruleset never changes)
        self.ruleset_names: dict[str, str] = {}
        # Receipts' state hashes, each game's last view per role kept encoded.
        self.view_digests = ViewDigests()
        # `accepted` receipts signed while their append is on its way.
        self.early = EarlySignatures(self.signing, games.receipt_keys, self.view_digests)
        self.metrics.figures = self.figures
        self.connections: set[Connection] = set()
        # Every running connection handler (websockets' task) and its connection.
        self.handlers: dict[asyncio.Task[None], ServerConnection] = {}
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
            asyncio.create_task(self._watch_store(), name="store-look"),
        ]
        if self.share is not None:  # the other workers read this one's figures
            self._tasks.append(asyncio.create_task(self._flush_metrics(), name="metrics"))
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

    def figures(self) -> Figures:
        """What /metrics reads of this gateway besides its counts (server/metrics.py)."""
        admission, replays = self.admission, self.replays
        feeds = self.notifier.feeds.values()
        local = {
            int(client.removeprefix("uid ")): count
            for client, count in self.clients.open.items()
            if client.startswith("uid ")
        }
        return Figures(
            connections_open=len(self.connections),
            feeds=len(feeds),
            subscriptions=sum(len(feed.subscriptions) for feed in feeds),
            cost_units=admission.charged,
            over_budget=admission.refused,
            paced=admission.paced,
            replay_events_folded=replays.folded,
            replay_answers_cached=replays.hits,
            replay_checkpoints=replays.count,
            budget_clients=len(admission.addresses),
            local_connections=local,
            receipt_signatures=self.signing.trees,
            receipts_signed=self.signing.leaves,
        )

    async def look_at_store(self) -> None:
        """PING the store and read its fsync figures, for /metrics (never raises)."""
        metrics = self.metrics
        started = time.monotonic()
        try:
            async with asyncio.timeout(STORE_LOOK_TIMEOUT):
                metrics.store_up = await self.store.ping()
                metrics.store_ping_seconds = time.monotonic() - started
                metrics.store_persistence = await self.store.persistence()
        except TimeoutError:
            metrics.store_up = False
            metrics.store_ping_seconds = time.monotonic() - started

    async def _watch_store(self) -> None:
        me = asyncio.current_task()
        # Checking `cancelling()`: redis-py swallows a cancellation that comes while a
        # command connects, and this task then looked on forever, so the gateway's `stop`
        # never returned (as server/revocations.py found).
        while me is None or not me.cancelling():
            await self.look_at_store()
            if me is not None and me.cancelling():
                return
            await asyncio.sleep(STORE_LOOK_SECONDS)

    async def _flush_metrics(self) -> None:
        while True:
            await asyncio.sleep(FLUSH_SECONDS)
            self.metrics.flush()

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
            self.admission.forget_idle(now, set(self.clients.open))
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
        # Every handler is known to `drain`, which ends each one: websockets' wait_closed
        # waits for them all, and for their TCP connections.
        task = asyncio.current_task()
        if task is not None:
            self.handlers[task] = ws
            task.add_done_callback(self._handler_done)
        if self.draining:  # opened as the server was closing: drain did not see it
            await self._refuse(ws, CLOSE_GOING_AWAY, "server shutting down")
            return
        client = client_of(ws, self.address_of(ws))
        if not self.clients.admit(client):
            self.metrics.error("too_many_connections")
            await self._refuse(ws, CLOSE_TOO_MANY_CONNECTIONS, self.clients.refusal(client))
            return
        try:
            await self._serve(ws, client)
        finally:
            self.clients.release(client)

    def _handler_done(self, task: asyncio.Task[None]) -> None:
        self.handlers.pop(task, None)

    async def _refuse(self, ws: ServerConnection, code: int, reason: str) -> None:
        """Close a connection that is not served, aborting it if the handshake does not
        finish within `close_timeout` (a peer that never reads would hold it forever)."""
        try:
            async with asyncio.timeout(self.settings.close_timeout):
                await ws.close(code, reason)
        except TimeoutError:
            if ws.transport is not None:
                ws.transport.abort()

    async def _serve(self, ws: ServerConnection, client: str) -> None:
        if self.settings.socket_send_buffer:
            sock = ws.transport.get_extra_info("socket") if ws.transport else None
            if sock is not None:
                sock.setsockopt(
                    socket.SOL_SOCKET, socket.SO_SNDBUF, self.settings.socket_send_buffer
                )
        conn = Connection(self, ws, client)
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
        await self._end_handlers()

    async def _end_handlers(self) -> None:
        """Make sure every connection handler ends, so that the server's `wait_closed`
        returns: each has closed (or aborted) its connection by now, and its cleanup is
        bounded; one still running after that has its TCP connection aborted, and is
        cancelled if even that does not end it."""
        me = asyncio.current_task()
        running = {task: ws for task, ws in self.handlers.items() if task is not me}
        if not running:
            return
        grace = self.settings.close_timeout + CLEANUP_SECONDS
        _, pending = await asyncio.wait(running, timeout=grace)
        if not pending:
            return
        log.warning("%d connection handlers still running at shutdown: aborting", len(pending))
        for task in pending:
            ws = running[task]
            if ws.transport is not None:
                ws.transport.abort()
        _, pending = await asyncio.wait(pending, timeout=1.0)
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.wait(pending, timeout=1.0)
