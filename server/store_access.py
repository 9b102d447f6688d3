"""Opening the store a command should use: REDIS_URL, else the embedded default.

The embedded default is one Valkey per data directory, enforced by the OS: the process
holding the data directory's lock (server/data_dir.py) runs it and writes where it listens
(its unix socket: it has no TCP port) to `<data dir>/redis.url` (no credentials: those
are in the 0600 secret file). The data directory's path is resolved and checked once
(`resolve_data_dir`), and only the resolved path is used after. Every other
umpire process uses that server, waiting through a stall (a stopped or slow server) for at
most `store_wait_seconds`, then fails with a clear message; it never starts a second one.
A CLI command that finds no holder takes the lock itself, runs its own server for the
command's duration and gives both up on exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from umpire.events.durability import Durability
from umpire.events.errors import StoreUnavailable
from umpire.events.redis_store import RedisEventStore, WaitingRedisCluster
from umpire.events.store import Store
from umpire.server.config import Settings
from umpire.server.data_dir import (
    DataDirLock,
    Holder,
    ServerUse,
    load_or_create_passwords,
    read_passwords,
    resolve_data_dir,
    secure_dir,
)
from umpire.server.embedded import (
    GATEWAY_USER,
    EmbeddedRedis,
    peer_credentials,
    with_credentials,
)
from umpire.server.head_checkpoints import HeadCheckpoints

URL_FILE = "redis.url"
STORE_DIR = "redis"
SERVE_WAITS_FOR_CLI = 10.0  # a short CLI command holding the lock is waited for this long
PING_TIMEOUT = 1.0


class DataDirInUse(Exception):
    """Another process owns the data directory (and its Valkey)."""

    def __init__(self, data_dir: Path, holder: Holder) -> None:
        self.holder = holder
        super().__init__(
            f"the data directory {data_dir} is in use by {holder.describe()}: one umpire "
            "serve per data directory; stop that one, or give this one another "
            "--data-dir (UMPIRE_DATA_DIR) or a REDIS_URL"
        )


def redacted(url: str) -> str:
    """`url` with any password replaced by `***`, for logs and banners."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def resolved(settings: Settings) -> Settings:
    """`settings` with the data directory resolved and checked, once (DataDirUnsafe if
    another user could re-point or swap a component of its path)."""
    return settings.model_copy(update={"data_dir": resolve_data_dir(settings.data_dir)})


def embedded_for(settings: Settings) -> EmbeddedRedis:
    """The embedded server of `settings.data_dir` (resolved), authenticated, not yet
    started, on a unix socket only. Only the data directory's lock holder may call this
    (it creates the secret)."""
    data_dir = secure_dir(settings.data_dir)
    store_dir = secure_dir(data_dir / STORE_DIR)
    return EmbeddedRedis(
        store_dir,
        appendfsync=settings.appendfsync,
        passwords=load_or_create_passwords(data_dir),
    )


@contextlib.contextmanager
def owned_server(settings: Settings, lock: DataDirLock) -> Iterator[EmbeddedRedis]:
    """Start the data directory's server (the caller holds `lock`), publish where it
    listens, and stop it on exit."""
    if not lock.held:
        raise RuntimeError("only the data directory's lock holder may start its server")
    url_file = settings.data_dir / URL_FILE
    with contextlib.suppress(FileNotFoundError):
        url_file.unlink()  # left by a holder that was killed: it names a dead server
    server = embedded_for(settings)
    server.start()
    publish(server)
    try:
        yield server
    finally:
        with contextlib.suppress(OSError):
            url_file.unlink()
        server.stop()


def publish(server: EmbeddedRedis) -> None:
    """Write where `server` listens to `<data dir>/redis.url` (atomically). The data
    directory is the one resolved at start (the store's is `<data dir>/redis`), never
    the configured path resolved again."""
    url_file = server.data_dir.parent / URL_FILE
    temporary = url_file.with_suffix(".new")
    temporary.write_text(f"{server.local_url}\n")
    os.replace(temporary, url_file)


def claim_data_dir(settings: Settings, role: str, patience: float = 0.0) -> DataDirLock:
    """The data directory's lock for `role`, or DataDirInUse naming the holder. A CLI
    command holding it is waited for `patience` seconds (it gives it up when done)."""
    lock = DataDirLock(settings.data_dir, role)
    deadline = time.monotonic() + patience
    while not lock.try_acquire():
        holder = lock.holder()
        if holder.role != "cli" or time.monotonic() >= deadline:
            raise DataDirInUse(settings.data_dir, holder)
        time.sleep(0.1)
    return lock


@contextlib.contextmanager
def embedded_server(settings: Settings) -> Iterator[EmbeddedRedis | None]:
    """For `umpire serve`: own the data directory and run its server, unless REDIS_URL.
    Raises DataDirInUse when another process owns it."""
    if settings.redis_url:
        yield None
        return
    settings = resolved(settings)
    lock = claim_data_dir(settings, "serve", patience=SERVE_WAITS_FOR_CLI)
    try:
        with owned_server(settings, lock) as server:
            yield server
    finally:
        lock.release()


def store_url(settings: Settings, server: EmbeddedRedis | None) -> str:
    """The URL (with credentials) `umpire serve` connects its store to."""
    if settings.redis_url:
        return settings.redis_url
    if server is None:
        raise RuntimeError("no Redis: set REDIS_URL or let umpire start the embedded server")
    return server.client_url(GATEWAY_USER)


def running_url(data_dir: Path) -> str | None:
    """The URL, with credentials, of the server the lock holder published, if any."""
    passwords = read_passwords(data_dir)
    try:
        published = (data_dir / URL_FILE).read_text().split()
    except OSError:
        return None
    if passwords is None or not published:
        return None
    return with_credentials(published[0], GATEWAY_USER, passwords.gateway)


def _peer_is_ours(url: str) -> bool:
    """For a unix socket URL: whether what listens there runs as this user (SO_PEERCRED),
    checked before redis-py sends the password. The socket sits in the owner-only data
    directory, so only a stale `/proc/<pid>/fd/...` path (a long data directory's, its
    pid reused after a death) could name another user's socket."""
    if not url.startswith("unix://"):
        return True
    path = unquote(urlsplit(url).path)
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            probe.settimeout(PING_TIMEOUT)
            probe.connect(path)
            return peer_credentials(probe)[1] == os.geteuid()
    except OSError:
        return False


async def answers(url: str, timeout: float = PING_TIMEOUT) -> bool:
    """Whether the server at `url` answers an authenticated PING within `timeout` (and,
    on a unix socket, runs as this user: else it is sent nothing)."""
    if not await asyncio.to_thread(_peer_is_ours, url):
        return False
    client = aioredis.Redis.from_url(
        url, socket_timeout=timeout, socket_connect_timeout=timeout, retry=Retry(NoBackoff(), 0)
    )
    try:
        return bool(await asyncio.wait_for(client.ping(), timeout))
    except (RedisError, OSError, TimeoutError):
        return False
    finally:
        with contextlib.suppress(RedisError, OSError):
            await client.aclose()


@contextlib.asynccontextmanager
async def command_store_url(settings: Settings) -> AsyncIterator[str]:
    """The store URL for one CLI command on the embedded default: the holder's server,
    waited for through a stall, or a server of the command's own while no one holds the
    data directory."""
    settings = resolved(settings)
    lock = DataDirLock(settings.data_dir, "cli")
    use = ServerUse(settings.data_dir)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settings.store_wait_seconds
    while True:
        if lock.try_acquire():
            try:
                with owned_server(settings, lock) as server:
                    yield server.client_url(GATEWAY_USER)
                    await _until_unused(use, settings.store_wait_seconds)
            finally:
                use.release()
                lock.release()
            return
        # Shared before the PING: once it is held, a CLI owner waits for this command.
        if use.try_share():
            url = running_url(settings.data_dir)
            if url is not None and await answers(url):
                try:
                    yield url
                finally:
                    use.release()
                return
            use.release()
        if loop.time() >= deadline:
            raise StoreUnavailable(
                f"the store of {settings.data_dir}, run by {lock.holder().describe()}, did "
                f"not answer for {settings.store_wait_seconds:g} s; nothing was written. "
                "Check that process (is it stopped?), then retry; UMPIRE_STORE_WAIT_SECONDS "
                "sets how long to wait"
            )
        await asyncio.sleep(0.2)


async def _until_unused(use: ServerUse, patience: float) -> None:
    """Wait (at most `patience` s) until no other command uses a CLI command's server:
    a second command that found it running may be using it, and stopping the server
    under that command would fail it."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + patience
    while not use.try_exclusive() and loop.time() < deadline:
        await asyncio.sleep(0.1)


def make_store(url: str, settings: Settings) -> RedisEventStore:
    """A store on `url`, a cluster client when settings say so."""
    durability = Durability(
        local_fsync=settings.wait_local_fsync,
        replicas=settings.wait_replicas,
        timeout_ms=settings.wait_timeout_ms,
    )
    if settings.cluster:
        # reinitialize_steps=0: a MOVED reply only patches the moved slot in the client's
        # map. redis-py's default (a full re-initialisation every 5th MOVED) closes every
        # node connection while other coroutines are using them, which fails their
        # commands mid-flight ('NoneType' has no 'writelines') during a reshard.
        client = WaitingRedisCluster.from_url(
            url, socket_timeout=10, socket_connect_timeout=5, reinitialize_steps=0
        )
        return RedisEventStore(client, prefix=settings.prefix, durability=durability)
    return RedisEventStore.from_url(url, prefix=settings.prefix, durability=durability)


def with_checkpoints(store: RedisEventStore, data_dir: Path) -> HeadCheckpoints:
    """Record each head `store` acknowledges in `data_dir`'s head checkpoints (the embedded
    store's: server/head_checkpoints.py) before the append returns."""
    checkpoints = HeadCheckpoints(data_dir)
    store.record_heads_in(checkpoints)
    return checkpoints


@contextlib.asynccontextmanager
async def open_store(settings: Settings) -> AsyncIterator[Store]:
    """The store for one CLI command: REDIS_URL, or the data directory's embedded server
    (whose acknowledged heads the command records in its head checkpoints)."""
    async with contextlib.AsyncExitStack() as stack:
        # Not `redis_url or ...`: mypy infers the embedded URL in the context of
        # `str | None`, the left operand's type.
        if settings.redis_url:
            url = settings.redis_url
        else:
            url = await stack.enter_async_context(command_store_url(settings))
        store = make_store(url, settings)
        checkpoints = None
        if not settings.redis_url:
            checkpoints = with_checkpoints(store, resolve_data_dir(settings.data_dir))
        try:
            yield store
        finally:
            await store.close()
            if checkpoints is not None:
                checkpoints.close()
