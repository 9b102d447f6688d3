"""Server settings, from the environment, validated by pydantic so mistakes read clearly.

pydantic is used here and for the public input models whose messages face users; msgspec
is used for everything in the log and on the wire (docs/architecture.md).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field, ValidationError, field_validator

REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def default_data_dir() -> Path:
    """Per-user data directory: $XDG_DATA_HOME/umpire or ~/.local/share/umpire."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "umpire"


class Settings(BaseModel, frozen=True):
    """Everything a deployment can set. Environment names are in `ENV`."""

    redis_url: str | None = Field(None, description="Redis URL; unset = embedded Valkey")
    cluster: bool = Field(False, description="treat redis_url as a Redis Cluster")
    data_dir: Path = Field(default_factory=default_data_dir)
    appendfsync: Literal["always", "everysec", "no"] = "always"
    # Gone: the embedded Valkey listens on no TCP port (another local user could take
    # it between a death and a restart and be sent the password). Only 0 is accepted,
    # and anything else is refused at start with where to connect instead.
    store_port: int = Field(0, ge=0, le=65535)
    # How long a CLI command waits for the data directory's server through a stall
    # before it fails (it never starts a second server on the same data directory).
    store_wait_seconds: float = Field(30.0, gt=0)
    # The embedded store's free-space watermark (server/disk_watch.py): under this many
    # MB free on the data directory's disk, writes are refused with store_full (reads go
    # on) until space returns, before Valkey would fail a short AOF write. 0: off.
    store_min_free_mb: int = Field(256, ge=0)
    host: str = "127.0.0.1"
    port: int = Field(8765, ge=0, le=65535)
    prefix: str = Field("umpire", pattern=r"^[A-Za-z0-9_-]{1,32}$")
    snapshot_every: int = Field(500, ge=10)
    operator_token: str | None = Field(None, min_length=16)
    allowed_origins: tuple[str, ...] = ()
    max_frame_bytes: int = Field(64 * 1024, ge=1024)
    max_messages_per_second: float = Field(200.0, gt=0)
    max_burst: int = Field(400, ge=1)
    max_subscriptions: int = Field(100, ge=1)
    # Open connections per client: an address, or on loopback a local account (the name
    # keeps "address" for compatibility; server/admission.py `client_key`).
    max_connections_per_address: int = Field(1000, ge=1)
    send_queue_limit: int = Field(2000, ge=10)
    slow_consumer_seconds: float = Field(5.0, gt=0)
    # Kernel send buffer per connection (bytes); None keeps the OS's autotuning.
    socket_send_buffer: int | None = Field(None, ge=4096)
    # Websocket keepalive: a ping every `ping_interval` s; no pong within `ping_timeout` s
    # closes the connection (1011), which is how half-open TCP connections are found.
    ping_interval: float = Field(20.0, gt=0)
    ping_timeout: float = Field(20.0, gt=0)
    # Per-message deflate (RFC 7692) for clients that offer it, as browsers do. Off by
    # default: a frame is encoded once and shared by every subscriber, but deflate
    # compresses it again per connection, and its zlib state costs ~50 KB a connection
    # (docs/operations.md has the figures).
    ws_compression: Literal["off", "deflate"] = "off"
    # A closing handshake that the peer never completes is aborted after this long.
    close_timeout: float = Field(5.0, gt=0)
    # How often a gateway re-checks the credentials its connections hold, so a credential
    # revoked through another gateway loses its subscriptions within this time.
    credential_recheck_seconds: float = Field(5.0, gt=0)
    extra_rulesets: tuple[str, ...] = ()
    # Worker processes per gateway for the rules of command types measured costly (an
    # opponent's turn on a large map, server/rules_pool.py); 0 runs every one in a thread.
    rules_processes: int = Field(1, ge=0, le=16)
    # Durability: every append waits (WAITAOF, on the connection that wrote it) until it
    # is fsynced locally and on `wait_replicas` replicas, for at most `wait_timeout_ms`;
    # unconfirmed, the command is answered `durability_unconfirmed` (docs/scale-out.md).
    wait_local_fsync: bool = False
    wait_replicas: int = Field(0, ge=0, le=32)
    wait_timeout_ms: int = Field(1000, ge=1, le=60_000)
    # The garbage collector's thresholds in `umpire serve` (gc.set_threshold): CPython's
    # young generations, but full collections, which stop the event loop for about 0.1 ms
    # per open connection, about ten times rarer (server/collector.py).
    gc_thresholds: tuple[
        Annotated[int, Field(ge=100)], Annotated[int, Field(ge=1)], Annotated[int, Field(ge=1)]
    ] = (700, 10, 100)
    # Host names (beyond loopback names and IP literals) that pages and websocket
    # handshakes may name in their Host header; "*" turns the check off. A browser tricked
    # by DNS rebinding sends the attacker's name, so it is refused (docs/security.md).
    allowed_hosts: tuple[str, ...] = ()
    # Cost-aware admission (server/admission.py; docs/operations.md, "Admission"): units
    # a second and burst, per connection and per client (an address, or on loopback a
    # local account); creates per client. With N workers each holds 1/N of a client's.
    cost_per_second: float = Field(200.0, gt=0)
    cost_burst: float = Field(2000.0, ge=1)
    address_cost_per_second: float = Field(1000.0, gt=0)
    address_cost_burst: float = Field(5000.0, ge=1)
    creates_per_minute: float = Field(60.0, gt=0)
    create_burst: float = Field(100.0, ge=1)
    max_grants_per_connection: int = Field(500, ge=1)
    # `umpire serve`'s gateway processes on one port (server/workers.py); None: one per
    # core, at most 8. 1 is the single process of before.
    workers: int | None = Field(None, ge=1, le=64)

    @field_validator("data_dir")
    @classmethod
    def _absolute(cls, path: Path) -> Path:
        # Valkey changes into its --dir before it opens its log and socket, so a relative
        # data dir (`--data-dir data`) named paths that did not exist from there; and a
        # quoted "~/..." in UMPIRE_DATA_DIR reaches us unexpanded.
        return path.expanduser().absolute()

    @field_validator("store_port")
    @classmethod
    def _no_store_port(cls, port: int) -> int:
        if port != 0:
            raise ValueError(
                "the embedded Valkey has no TCP port any more (another local user could "
                "take it): tools reach it on its unix socket, `valkey-cli -s <data "
                "dir>/redis/valkey.sock` (docs/operations.md); unset it"
            )
        return port

    @field_validator("redis_url")
    @classmethod
    def _redis_scheme(cls, url: str | None) -> str | None:
        # redis-py would refuse it only when a gateway first connects, in every worker
        # with a traceback; the message never repeats the URL (it may hold a password).
        if url is not None and not url.startswith(REDIS_SCHEMES):
            raise ValueError(
                "must start with redis://, rediss:// or unix:// "
                "(e.g. redis://127.0.0.1:6379/0); unset, umpire runs its embedded Valkey"
            )
        return url


ENV = {
    "redis_url": "REDIS_URL",
    "cluster": "UMPIRE_REDIS_CLUSTER",
    "data_dir": "UMPIRE_DATA_DIR",
    "appendfsync": "UMPIRE_APPENDFSYNC",
    "store_port": "UMPIRE_STORE_PORT",
    "store_wait_seconds": "UMPIRE_STORE_WAIT_SECONDS",
    "store_min_free_mb": "UMPIRE_STORE_MIN_FREE_MB",
    "host": "UMPIRE_HOST",
    "port": "UMPIRE_PORT",
    "prefix": "UMPIRE_PREFIX",
    "snapshot_every": "UMPIRE_SNAPSHOT_EVERY",
    "operator_token": "UMPIRE_OPERATOR_TOKEN",
    "allowed_origins": "UMPIRE_ALLOWED_ORIGINS",
    "max_frame_bytes": "UMPIRE_MAX_FRAME_BYTES",
    "max_messages_per_second": "UMPIRE_MAX_MESSAGES_PER_SECOND",
    "max_burst": "UMPIRE_MAX_BURST",
    "max_subscriptions": "UMPIRE_MAX_SUBSCRIPTIONS",
    "max_connections_per_address": "UMPIRE_MAX_CONNECTIONS_PER_ADDRESS",
    "send_queue_limit": "UMPIRE_SEND_QUEUE_LIMIT",
    "slow_consumer_seconds": "UMPIRE_SLOW_CONSUMER_SECONDS",
    "socket_send_buffer": "UMPIRE_SOCKET_SEND_BUFFER",
    "ping_interval": "UMPIRE_PING_INTERVAL",
    "ping_timeout": "UMPIRE_PING_TIMEOUT",
    "ws_compression": "UMPIRE_WS_COMPRESSION",
    "close_timeout": "UMPIRE_CLOSE_TIMEOUT",
    "credential_recheck_seconds": "UMPIRE_CREDENTIAL_RECHECK_SECONDS",
    "extra_rulesets": "UMPIRE_EXTRA_RULESETS",
    "rules_processes": "UMPIRE_RULES_PROCESSES",
    "gc_thresholds": "UMPIRE_GC_THRESHOLDS",
    "wait_local_fsync": "UMPIRE_WAIT_LOCAL_FSYNC",
    "wait_replicas": "UMPIRE_WAIT_REPLICAS",
    "wait_timeout_ms": "UMPIRE_WAIT_TIMEOUT_MS",
    "allowed_hosts": "UMPIRE_ALLOWED_HOSTS",
    "cost_per_second": "UMPIRE_COST_PER_SECOND",
    "cost_burst": "UMPIRE_COST_BURST",
    "address_cost_per_second": "UMPIRE_ADDRESS_COST_PER_SECOND",
    "address_cost_burst": "UMPIRE_ADDRESS_COST_BURST",
    "creates_per_minute": "UMPIRE_CREATES_PER_MINUTE",
    "create_burst": "UMPIRE_CREATE_BURST",
    "max_grants_per_connection": "UMPIRE_MAX_GRANTS_PER_CONNECTION",
    "workers": "UMPIRE_WORKERS",
}

_LISTS = {"allowed_origins", "extra_rulesets", "gc_thresholds", "allowed_hosts"}
# What a setting of fixed shape holds, said once after its refusal: pydantic speaks of one
# item ("Field required" for a missing third number), not of what the whole may be.
_SHAPES = {
    "gc_thresholds": "three whole numbers, comma-separated (default 700,10,100): the "
    "first at least 100, the other two at least 1",
}


class SettingsError(ValueError):
    """A setting from the environment that does not validate."""


def from_env(environ: dict[str, str] | None = None, **overrides: object) -> Settings:
    """Settings from environment variables (see ENV), then explicit overrides."""
    env = os.environ if environ is None else environ
    values: dict[str, object] = {}
    for field, name in ENV.items():
        raw = env.get(name)
        if raw is None or raw == "":
            continue
        values[field] = (
            tuple(p.strip() for p in raw.split(",") if p.strip()) if field in _LISTS else raw
        )
    given = {k: v for k, v in overrides.items() if v is not None}
    values.update(given)
    try:
        return Settings.model_validate(values)  # each value checked against its field
    except ValidationError as exc:
        lines = []
        shapes: dict[str, str] = {}
        for err in exc.errors():
            field = str(err["loc"][0]) if err["loc"] else "?"
            message = err["msg"].removeprefix("Value error, ")  # pydantic's, for a validator
            # Name what the user typed: a command-line option (--port) wins over its variable.
            name = f"--{field.replace('_', '-')}" if field in given else ENV.get(field, field)
            item = err["loc"][1] if len(err["loc"]) > 1 else None
            where = f"{name} item {item + 1}" if isinstance(item, int) else name
            lines.append(f"{where}: {message}")
            if field in _SHAPES:
                shapes[name] = _SHAPES[field]
        lines += [f"{name} must be {shape}" for name, shape in shapes.items()]
        raise SettingsError("invalid settings: " + "; ".join(lines)) from exc
