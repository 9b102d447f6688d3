"""`umpire serve`: the embedded Redis (unless REDIS_URL), the store and the gateway.

SIGTERM or SIGINT stop accepting connections, finish the commands in flight, close every
connection with 1001, then stop the embedded Redis. While serving, the embedded Redis is
supervised (server/supervisor.py): if it dies it is restarted from its AOF.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import logging
import signal
import socket
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, serve

from umpire.server import collector
from umpire.server.config import Settings
from umpire.server.connection_log import connection_logger
from umpire.server.disk_watch import MB, DiskWatch
from umpire.server.embedded import EmbeddedRedis
from umpire.server.games import Games, decide_for
from umpire.server.gateway import Gateway
from umpire.server.http import make_process_request
from umpire.server.inbox import InboxConnection
from umpire.server.metrics import WorkerShare
from umpire.server.notifier import Notifier
from umpire.server.public_address import (
    WILDCARDS,
    published_gateway,
    viewer_address,
    websocket_address,
)
from umpire.server.rules_pool import RulesPool
from umpire.server.store_access import (
    DataDirInUse,
    embedded_server,
    make_store,
    publish,
    redacted,
    store_url,
    with_checkpoints,
)
from umpire.server.store_check import name_losses_at_start
from umpire.server.supervisor import Supervisor

log = logging.getLogger("umpire")
# The listen address is taken, not ours to bind, or not on this machine.
_BIND_ERRORS = (errno.EADDRINUSE, errno.EACCES, errno.EADDRNOTAVAIL)


def listen_failure(settings: Settings, exc: OSError) -> str | None:
    """The one line `umpire serve` prints when it cannot listen at its address, or None
    when `exc` is not about the address (then it is not ours to explain)."""
    where = f"umpire: cannot listen on {settings.host}:{settings.port}"
    reason = (exc.strerror or str(exc)).lower()
    if isinstance(exc, socket.gaierror):  # a --host that does not resolve
        return f"{where} ({reason}); UMPIRE_HOST or --host must be an address of this machine"
    if exc.errno not in _BIND_ERRORS:
        return None
    return f"{where} ({reason}); is another umpire serving there? Set UMPIRE_PORT or --port"


def banner(settings: Settings, port: int, details: str) -> str:
    """`umpire serve`'s banner: the viewer's and the websocket's addresses as a browser can
    open them (a wildcard UMPIRE_HOST named by server/public_address.py, and said to listen
    on every interface), then `details` (the store, the workers)."""
    address = viewer_address(settings.host, port, settings.allowed_hosts)
    listening = ""
    if settings.host in WILDCARDS:
        listening = f"; listening on {settings.host or '*'}: every interface"
    websocket = websocket_address(address)
    return f"umpire serving on {address} (websocket {websocket}, {details}{listening})"


def exposure_warning(host: str) -> str | None:
    """The line `umpire serve` prints to stderr when it listens beyond this machine: it
    speaks plain HTTP, so credentials and moves would cross the network unencrypted
    (docs/operations.md, "TLS: terminate it at a reverse proxy"). None on loopback."""
    if host == "localhost" or host.endswith(".localhost"):
        return None
    with contextlib.suppress(ValueError):
        if ipaddress.ip_address(host.strip("[]")).is_loopback:
            return None
    return (
        f"umpire: warning: listening on {host}, beyond this machine, over plain HTTP: "
        "credentials and moves cross the network unencrypted; keep UMPIRE_HOST=127.0.0.1 "
        'and terminate TLS at a reverse proxy (docs/operations.md, "TLS")'
    )


@dataclass
class Running:
    """A running gateway: its server, the gateway state and the bound port."""

    server: Server
    gateway: Gateway
    port: int


WORKER_HEADER = "X-Umpire-Worker"
# The interpreter's thread switch interval in every serving process (`run`, and each
# worker of `serve --workers`): see `run` for why 1 ms, not Python's 5.
SWITCH_INTERVAL = 0.001


@contextlib.asynccontextmanager
async def running_gateway(
    settings: Settings,
    url: str,
    *,
    games_options: dict[str, Any] | None = None,
    restarting: Callable[[], str | None] | None = None,
    share: WorkerShare | None = None,
    disk: Path | None = None,
) -> AsyncIterator[Running]:
    """Run a gateway on `settings.host:port` against the Redis at `url`.

    `games_options` go to `Games` (tests pass a deterministic `draw_seed`); `restarting`
    is the embedded store's supervisor's, for /healthz (server/http.py, health). With
    `share` this is worker `share.worker` of `umpire serve --workers N`
    (server/workers.py): it binds the port with SO_REUSEPORT beside the other workers,
    names itself in an `X-Umpire-Worker` header on every HTTP and handshake response,
    and its /metrics sums every worker's figures (server/metrics.py); its client budgets
    are its share (server/admission.py, `Budgets.share`). With `disk` (the embedded store's data
    directory) writes are refused with store_full while its disk is under the
    `store_min_free_mb` watermark (server/disk_watch.py)."""
    store = make_store(url, settings)
    lost_games = 0
    if disk is not None and (share is None or share.worker == 0):
        # A loss of acknowledged events from before this start is named now (the log, the
        # head checkpoints, /metrics), by one worker, not at the game's next move.
        _, lost_games = await name_losses_at_start(store, disk)
    # The embedded store's acknowledged heads, kept outside its files (head_checkpoints).
    checkpoints = with_checkpoints(store, disk) if disk is not None else None
    rules = RulesPool(
        decide_for, processes=settings.rules_processes, modules=settings.extra_rulesets
    )
    options: dict[str, Any] = {"rules": rules, **(games_options or {})}
    games = Games(store, snapshot_every=settings.snapshot_every, **options)
    watch = None
    if disk is not None and settings.store_min_free_mb > 0:
        watch = DiskWatch(disk, settings.store_min_free_mb * MB)
        watch.start()
        games.disk = watch
    notifier = Notifier(store)
    await notifier.start()
    gateway = Gateway(settings, games, notifier, share)
    gateway.metrics.store_lost_games = lost_games
    gateway.checkpoints = checkpoints
    gateway.start()
    extra: dict[str, Any] = {}
    if share is not None:
        worker = str(share.worker)

        def name_worker(connection: Any, request: Any, response: Any) -> None:
            response.headers[WORKER_HEADER] = worker

        extra = {"reuse_port": True, "process_response": name_worker}
    server = await serve(
        gateway.handle,
        settings.host,
        settings.port,
        process_request=make_process_request(gateway, restarting),
        max_size=settings.max_frame_bytes,
        # The gateway pings every connection from one task (server/keepalive.py).
        ping_interval=None,
        ping_timeout=None,
        close_timeout=settings.close_timeout,
        compression="deflate" if settings.ws_compression == "deflate" else None,
        # A connection's open/response/close lines at DEBUG: one per health check otherwise.
        logger=connection_logger(),
        # Messages go to each connection's inbox, not websockets' assembler (server/inbox.py).
        create_connection=InboxConnection,
        **extra,
    )
    port = next(iter(server.sockets)).getsockname()[1]
    try:
        yield Running(server, gateway, port)
    finally:
        server.close(close_connections=False)
        await gateway.drain()
        await server.wait_closed()
        gateway.metrics.flush()  # what it counted while draining is in the sums
        await gateway.stop()
        await notifier.stop()
        if watch is not None:
            await watch.stop()
        await store.close()
        if checkpoints is not None:
            checkpoints.close()
        rules.close()


def supervised_store(settings: Settings, embedded: EmbeddedRedis | None) -> Supervisor | None:
    """The started supervisor of the embedded Valkey (server/supervisor.py): a death is
    reaped and restarted, its new address published; None for an external store."""
    if embedded is None:
        return None
    supervisor = Supervisor(
        embedded,
        on_restart=publish,
    )
    supervisor.start()
    return supervisor


async def serve_forever(
    settings: Settings,
    url: str,
    embedded: EmbeddedRedis | None = None,
    *,
    share: WorkerShare | None = None,
) -> None:
    """Serve until SIGTERM or SIGINT, restarting `embedded` whenever it dies. With
    `share`, as one worker of `umpire serve --workers N` (whose parent prints the banner)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    # Every module is imported by now: freeze what that made. Before the gateway starts,
    # so the full collection this does is not counted among its pauses.
    collector.tune(settings.gc_thresholds)
    supervisor = supervised_store(settings, embedded)
    try:
        restarting = supervisor.restarting if supervisor is not None else None
        # The embedded store's disk (in a worker too: its settings name no REDIS_URL).
        disk = settings.data_dir if settings.redis_url is None else None
        async with running_gateway(
            settings, url, restarting=restarting, share=share, disk=disk
        ) as running:
            store = f"embedded Valkey, {embedded.url}" if embedded else redacted(url)
            if share is None:
                # The warning first: a reader who sees the banner has seen it.
                if (warning := exposure_warning(settings.host)) is not None:
                    print(warning, file=sys.stderr, flush=True)
                print(banner(settings, running.port, f"store {store}"), flush=True)
            # `umpire new`'s viewer link names this server (server/public_address.py).
            address = viewer_address(settings.host, running.port, settings.allowed_hosts)
            published = (
                published_gateway(settings.data_dir, address)
                if share is None
                else contextlib.nullcontext()
            )
            with published:
                await stop.wait()
            if share is None:
                print("umpire: shutting down", flush=True)
    finally:
        if supervisor is not None:
            await supervisor.stop()


def run(settings: Settings) -> int:
    """Entry point of `umpire serve`."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    # The rules run in worker threads (server/games.py): a long opponent turn holds the
    # GIL for up to one switch interval each time the event loop wants it back, and a
    # command's round trip waits for it several times. 1 ms instead of 5 keeps other games'
    # answers prompt (tests/server/test_ai_turn_does_not_hold_the_loop.py, issue 32).
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        with embedded_server(settings) as server:
            url = store_url(settings, server)
            try:
                import uvloop  # optional extra: umpire[fast]

                runner = uvloop.run
            except ImportError:
                runner = asyncio.run
            runner(serve_forever(settings, url, server))
    except DataDirInUse as exc:
        print(f"umpire: {exc}", file=sys.stderr, flush=True)
        return 1
    except OSError as exc:
        line = listen_failure(settings, exc)
        if line is None:
            raise
        print(line, file=sys.stderr, flush=True)
        return 1
    return 0
