"""`umpire serve`: the embedded Redis (unless REDIS_URL), the store and the gateway.

SIGTERM or SIGINT stop accepting connections, finish the commands in flight, close every
connection with 1001, then stop the embedded Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.server import Server, serve

from server import collector
from server.config import Settings
from server.feed import Notifier
from server.games import Games
from server.gateway import Gateway
from server.http import make_process_request
from server.store_access import embedded_server, make_store, store_url

log = logging.getLogger("umpire")


@dataclass
class Running:
    """A running gateway: its server, the gateway state and the bound port."""

    server: Server
    gateway: Gateway
    port: int


@contextlib.asynccontextmanager
async def running_gateway(
    settings: Settings, url: str, *, games_options: dict[str, Any] | None = None
) -> AsyncIterator[Running]:
    """Run a gateway on `settings.host:port` against the Redis at `url`.

    `games_options` go to `Games` (tests pass a deterministic `draw_seed`)."""
    store = make_store(url, settings)
    games = Games(store, snapshot_every=settings.snapshot_every, **(games_options or {}))
    notifier = Notifier(store)
    await notifier.start()
    gateway = Gateway(settings, games, notifier)
    gateway.start()
    server = await serve(
        gateway.handle,
        settings.host,
        settings.port,
        process_request=make_process_request(gateway),
        max_size=settings.max_frame_bytes,
        # The gateway pings every connection from one task (server/keepalive.py).
        ping_interval=None,
        ping_timeout=None,
        close_timeout=settings.close_timeout,
        compression="deflate" if settings.ws_compression == "deflate" else None,
    )
    port = next(iter(server.sockets)).getsockname()[1]
    try:
        yield Running(server, gateway, port)
    finally:
        server.close(close_connections=False)
        await gateway.drain()
        await server.wait_closed()
        await gateway.stop()
        await notifier.stop()
        await store.close()


async def serve_forever(settings: Settings, url: str) -> None:
    """Serve until SIGTERM or SIGINT."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    # Every module is imported by now: freeze what that made. Before the gateway starts,
    # so the full collection this does is not counted among its pauses.
    collector.tune(settings.gc_thresholds)
    async with running_gateway(settings, url) as running:
        where = f"{settings.host}:{running.port}"
        print(
            f"umpire serving on http://{where}/ (websocket ws://{where}/ws, store {url})",
            flush=True,
        )
        await stop.wait()
        print("umpire: shutting down", flush=True)


def run(settings: Settings) -> int:
    """Entry point of `umpire serve`."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    with embedded_server(settings) as server:
        url = store_url(settings, server)
        try:
            import uvloop  # optional extra: umpire[fast]

            uvloop.run(serve_forever(settings, url))
        except ImportError:
            asyncio.run(serve_forever(settings, url))
    return 0
