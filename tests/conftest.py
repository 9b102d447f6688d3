"""Shared fixtures: a real Valkey server started by the suite, on a unix socket (no TCP
port), and a real gateway on it (`gateway`, `ws_url`).

Never a mock: every store test talks to this server. Each test gets its own key prefix, so
tests do not see each other's games.
"""

from __future__ import annotations

import itertools
import os
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.dice import key_source, seed_source
from tests.support.gateways import gateway_settings
from umpire.engine import registry
from umpire.events.redis_store import RedisEventStore
from umpire.server.app import Running, running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.server.games import Games

# Rulesets are found through their entry points (engine/registry.py), which exist only once
# installed: umpire's own five, and the example ruleset, its own package
# (examples/umpire-counter), which many tests play. The test command installs both; an
# environment installed before the entry points existed needs the install rerun.
if "counter" not in registry.available() or not registry.shipped():
    raise pytest.UsageError(
        "the rulesets' entry points are not installed: run the README's test command, which "
        "installs them (.venv/bin/pip install -e '.[test]' -e examples/umpire-counter)"
    )

_prefixes = itertools.count(1)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[EmbeddedRedis]:
    """One embedded Valkey for the whole session (appendfsync always)."""
    with tempfile.TemporaryDirectory(prefix="umpire-test-redis-") as tmp:
        server = EmbeddedRedis(Path(tmp), appendfsync=os.environ.get("UMPIRE_TEST_FSYNC", "always"))
        server.start()
        try:
            yield server
        finally:
            server.stop()


@pytest.fixture
def prefix() -> str:
    """A key prefix of this test's own."""
    return f"t{os.getpid()}x{next(_prefixes)}"


@pytest.fixture
async def store(redis_server: EmbeddedRedis, prefix: str) -> AsyncIterator[RedisEventStore]:
    """A RedisEventStore on the suite's server, under this test's prefix."""
    s = RedisEventStore.from_url(redis_server.url, prefix=prefix)
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
async def games(store: RedisEventStore, request: pytest.FixtureRequest) -> Games:
    """Command handling on the test store, with deterministic dice seeds."""
    return Games(
        store, snapshot_every=50, draw_seed=seed_source(request), draw_key=key_source(request)
    )


@pytest.fixture
async def gateway(
    redis_server: EmbeddedRedis, prefix: str, request: pytest.FixtureRequest
) -> AsyncIterator[Running]:
    """One gateway process-in-test on the suite's Redis, its dice seeds deterministic (like
    the `games` fixture's: what a test sees never depends on luck, and a failure repeats)."""
    options = {"draw_seed": seed_source(request), "draw_key": key_source(request)}
    async with running_gateway(
        gateway_settings(prefix), redis_server.url, games_options=options
    ) as running:
        yield running


@pytest.fixture
def ws_url(gateway: Running) -> str:
    """The gateway's websocket URL."""
    return f"ws://127.0.0.1:{gateway.port}/ws"


# --- The fast lane: tests that start real parts are `integration`, found automatically. ---
#
# A test is integration when it uses a fixture that starts a store, a gateway or a browser
# (directly or through another fixture: `item.fixturenames` is the whole closure), or when
# its module names something that starts a process, a store or a gateway itself. The
# guard below runs every other test with process starts and network sockets refused, so a
# test the rule misses fails loudly in `-m "not integration"` instead of hiding there.

# Fixtures that start a Valkey, a gateway, a cluster or a browser (in any conftest).
INTEGRATION_FIXTURES = frozenset(
    {
        "redis_server",
        "gateway",
        "two_gateways",
        "operator_gateway",
        "viewer_gateway",
        "browser",
        "cluster",
        "cluster_store",
        "durable_cluster_store",
        "tls_redis",
        "site",
        "cli",
        "cli_env",
    }
)
# Names whose presence in a test module means the module starts real parts itself.
INTEGRATION_NAMES = frozenset(
    {
        "subprocess",
        "EmbeddedRedis",
        "running_gateway",
        "serve_workers",
        "LocalCluster",
        "Popen",
        "websockets",
        "Peer",
        "processes",
        "typecheck",
    }
)


# Support modules whose helpers start a serve, a gateway process, a cluster or a CLI.
INTEGRATION_MODULES = frozenset(
    {
        "tests.support.embedded_site",
        "tests.support.fleet",
        "tests.support.processes",
        "tests.support.peer",
        "bench.cluster",
        "bench.hostile_load",
    }
)


def _starts_real_parts(item: pytest.Item) -> bool:
    if INTEGRATION_FIXTURES.intersection(getattr(item, "fixturenames", ())):
        return True
    module = getattr(item, "module", None)
    if module is not None and not INTEGRATION_NAMES.isdisjoint(vars(module)):
        return True
    if module is not None and any(
        getattr(value, "__module__", None) in INTEGRATION_MODULES for value in vars(module).values()
    ):
        return True
    # A name imported inside the test function itself (IMPORT_FROM keeps it in co_names).
    code = getattr(getattr(item, "function", None), "__code__", None)
    return code is not None and not INTEGRATION_NAMES.isdisjoint(code.co_names)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _starts_real_parts(item):
            item.add_marker(pytest.mark.integration)


class _RealPartRefused(RuntimeError):
    """A test outside the integration marker tried to start a process or open a socket."""


@pytest.fixture(autouse=True)
def _fast_lane_guard(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside `integration`, starting a process or a network connection is an error that
    names the test: the marker is derived, so the derivation is checked on every run."""
    if request.node.get_closest_marker("integration") is not None:
        return
    import socket
    import subprocess

    def refuse(*args: object, **kwargs: object) -> None:
        raise _RealPartRefused(
            f"{request.node.nodeid} starts a process or opens a socket but is not marked "
            "integration: teach tests/conftest.py's INTEGRATION_FIXTURES/NAMES about it"
        )

    monkeypatch.setattr(subprocess.Popen, "__init__", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket.socket, "bind", refuse)


# --- The rule documents: provenance checks skip on a clone without them. ---


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """One line for every provenance check skipped for want of the rule documents."""
    from tests.support.seeds import HINT, SKIP_REASON

    skipped = [
        report
        for report in terminalreporter.stats.get("skipped", [])
        if SKIP_REASON in str(getattr(report, "longrepr", ""))
    ]
    if skipped:
        terminalreporter.write_line(f"{len(skipped)} provenance checks skipped: {HINT}")
