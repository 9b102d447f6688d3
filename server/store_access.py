"""Opening the store a command should use: REDIS_URL, else the embedded default.

`umpire serve` on the embedded default writes the server's URL to `<data dir>/redis.url`;
other commands reuse that server while it answers, and otherwise start one of their own
on the same data directory for the duration of the command.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import urlparse

from events.durability import Durability
from events.redis_store import RedisEventStore
from server.config import Settings
from server.embedded import EmbeddedRedis

URL_FILE = "redis.url"


def _answers(url: str) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname, parsed.port or 6379), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def running_embedded_url(data_dir: Path) -> str | None:
    """The URL of an embedded server already serving `data_dir`, if one answers."""
    path = data_dir / URL_FILE
    if path.exists():
        url = path.read_text().strip()
        if url and _answers(url):
            return url
    return None


@contextlib.contextmanager
def embedded_server(settings: Settings) -> Iterator[EmbeddedRedis | None]:
    """Start the embedded server for `settings` unless REDIS_URL is set or one runs."""
    if settings.redis_url or running_embedded_url(settings.data_dir):
        yield None
        return
    server = EmbeddedRedis(settings.data_dir / "redis", appendfsync=settings.appendfsync)
    server.start()
    url_file = settings.data_dir / URL_FILE
    url_file.write_text(server.url)
    try:
        yield server
    finally:
        with contextlib.suppress(OSError):
            if url_file.read_text().strip() == server.url:
                url_file.unlink()
        server.stop()


def store_url(settings: Settings, server: EmbeddedRedis | None) -> str:
    """The URL the store connects to."""
    if settings.redis_url:
        return settings.redis_url
    if server is not None:
        return server.url
    url = running_embedded_url(settings.data_dir)
    if url is None:
        raise RuntimeError("no Redis: set REDIS_URL or let umpire start the embedded server")
    return url


def make_store(url: str, settings: Settings) -> RedisEventStore:
    """A store on `url`, a cluster client when settings say so."""
    durability = Durability(
        local_fsync=settings.wait_local_fsync,
        replicas=settings.wait_replicas,
        timeout_ms=settings.wait_timeout_ms,
    )
    if settings.cluster:
        from redis.asyncio.cluster import RedisCluster

        # reinitialize_steps=0: a MOVED reply only patches the moved slot in the client's
        # map. redis-py's default (a full re-initialisation every 5th MOVED) closes every
        # node connection while other coroutines are using them, which fails their
        # commands mid-flight ('NoneType' has no 'writelines') during a reshard.
        client = RedisCluster.from_url(
            url, socket_timeout=10, socket_connect_timeout=5, reinitialize_steps=0
        )
        return RedisEventStore(client, prefix=settings.prefix, durability=durability)
    return RedisEventStore.from_url(url, prefix=settings.prefix, durability=durability)


@contextlib.asynccontextmanager
async def open_store(settings: Settings) -> AsyncIterator[RedisEventStore]:
    """The store for one CLI command, with an embedded server started if needed."""
    with embedded_server(settings) as server:
        store = make_store(store_url(settings, server), settings)
        try:
            yield store
        finally:
            await store.close()
