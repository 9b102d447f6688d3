"""The fixtures umpire's tests run on, as a pytest plugin: a real Valkey started for the
session (`redis_server`), a store under each test's own key prefix (`prefix`, `store`),
command handling on it (`games`), a real gateway (`gateway`, `ws_url`) and the `umpire`
command line called in process (`cli`). Never a mock of the store.

umpire.testing's conftest.py and tests/conftest.py load it (`pytest_plugins`), so
`pytest --pyargs umpire.testing -k mygame` runs with nothing of umpire's tests/ on the path.
"""

from __future__ import annotations

import itertools
import os
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from umpire.events.redis_store import RedisEventStore
from umpire.server.app import Running, running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.server.games import Games
from umpire.testing.support.dice import key_source, seed_source
from umpire.testing.support.forgery import Cli
from umpire.testing.support.gateways import gateway_settings
from umpire.testing.support.nonces import NoncedGames

# Hypothesis's per-example deadline (200 ms) measures the machine, not the code: under a
# full run on a loaded machine a pure example can take longer, and the test would fail for
# it. No test here asserts a duration (issue #27), so no deadline, and no "too slow" check.
settings.register_profile(
    "umpire", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("umpire")

_prefixes = itertools.count(1)


def pytest_configure(config: pytest.Config) -> None:
    """The tests and fixtures here are coroutines run by pytest-asyncio in its auto mode,
    as umpire's pyproject.toml sets it; run from elsewhere (a ruleset package's checkout,
    `pytest --pyargs umpire.testing`) no configuration of umpire's is read, so say it here."""
    config.option.asyncio_mode = "auto"


@pytest.fixture(scope="session", autouse=True)
def _own_data_home() -> Iterator[Path]:
    """The run's own XDG_DATA_HOME: a command run without --data-dir (and the receipts it
    keeps) writes into a folder of the run, never into the data of whoever runs the tests."""
    before = os.environ.get("XDG_DATA_HOME")
    with tempfile.TemporaryDirectory(prefix="umpire-test-data-home-") as tmp:
        os.environ["XDG_DATA_HOME"] = tmp
        try:
            yield Path(tmp)
        finally:
            if before is None:
                os.environ.pop("XDG_DATA_HOME", None)
            else:
                os.environ["XDG_DATA_HOME"] = before


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
    """Command handling on the test store, with deterministic dice seeds (and command
    nonces, as the clients send them: umpire.testing.support.nonces)."""
    return NoncedGames(
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


@pytest.fixture
def cli(
    monkeypatch: pytest.MonkeyPatch,
    redis_server: EmbeddedRedis,
    prefix: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> Cli:
    """The command line (`umpire.server.cli.main`, in process) on the suite's server,
    prefix `prefix`: for the audit, replay and export commands."""
    monkeypatch.setenv("REDIS_URL", redis_server.url)
    monkeypatch.setenv("UMPIRE_PREFIX", prefix)
    monkeypatch.setenv("UMPIRE_DATA_DIR", str(tmp_path / "data"))
    # The referee's view (--role referee) needs the operator token (server/referee.py).
    monkeypatch.setenv("UMPIRE_OPERATOR_TOKEN", "audit-tests-operator-token")
    return Cli(monkeypatch, capsys, prefix, redis_server.url, tmp_path)
