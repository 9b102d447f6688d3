"""Shared fixtures: a real Valkey server started by the suite, on a unix socket (no TCP port).

Never a mock: every store test talks to this server. Each test gets its own key prefix, so
tests do not see each other's games.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest

from umpire.engine import registry
from umpire.events.redis_store import RedisEventStore
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


def seed_source(request: pytest.FixtureRequest) -> Callable[[], bytes]:
    """Deterministic dice seeds for one test: server dice roll the same on every run, so
    an outcome a test relies on never depends on luck (and a failure reproduces)."""
    counter = itertools.count()
    node = request.node.nodeid.split("[")[0].encode()

    def draw() -> bytes:
        return hashlib.sha256(node + b"#" + str(next(counter)).encode()).digest()

    return draw


@pytest.fixture
async def games(store: RedisEventStore, request: pytest.FixtureRequest) -> Games:
    """Command handling on the test store, with deterministic dice seeds."""
    return Games(store, snapshot_every=50, draw_seed=seed_source(request))
