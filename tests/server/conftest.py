"""Gateway fixtures: a real gateway on a free loopback port over the suite's Valkey."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.conftest import seed_source
from umpire.server.app import Running, running_gateway
from umpire.server.config import Settings
from umpire.server.embedded import EmbeddedRedis


def gateway_settings(prefix: str, **overrides: object) -> Settings:
    """Settings for a test gateway (port 0 = any free port)."""
    values: dict[str, object] = {"port": 0, "prefix": prefix, "operator_token": "o" * 32}
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


@pytest.fixture
async def gateway(
    redis_server: EmbeddedRedis, prefix: str, request: pytest.FixtureRequest
) -> AsyncIterator[Running]:
    """One gateway process-in-test on the suite's Redis, its dice seeds deterministic (like
    the `games` fixture's: what a test sees never depends on luck, and a failure repeats)."""
    options = {"draw_seed": seed_source(request)}
    async with running_gateway(
        gateway_settings(prefix), redis_server.url, games_options=options
    ) as running:
        yield running


@pytest.fixture
def ws_url(gateway: Running) -> str:
    """The gateway's websocket URL."""
    return f"ws://127.0.0.1:{gateway.port}/ws"
