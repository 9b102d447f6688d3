"""What the gateway's port logs: no INFO line per HTTP request or connection (health
checks and viewer loads would flood an operator's log), while the server's start and stop
and real errors are still logged (server/connection_log.py)."""

from __future__ import annotations

import logging

import pytest
from websockets.asyncio.client import connect

from umpire.server.app import running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.server.gateway import Gateway
from umpire.testing.support.dice import seed_source
from umpire.testing.support.gateways import gateway_settings, http_get

REQUESTS = 12
PATHS = ("/healthz", "/metrics", "/rulesets.json", "/", "/umpire.js", "/no-such-file")


def websockets_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name.startswith("websockets")]


async def test_http_requests_and_connections_log_nothing_at_info(
    redis_server: EmbeddedRedis,
    prefix: str,
    caplog: pytest.LogCaptureFixture,
    request: pytest.FixtureRequest,
) -> None:
    """Fails on main: each request logged "HTTP response sent (200 OK)" and "connection
    closed" at INFO on `websockets.server`, each websocket "connection open" and
    "connection closed"."""
    caplog.set_level(logging.INFO)
    options = {"draw_seed": seed_source(request)}
    settings = gateway_settings(prefix)
    async with running_gateway(settings, redis_server.url, games_options=options) as running:
        for n in range(REQUESTS):
            status, _ = await http_get(running.port, PATHS[n % len(PATHS)])
            assert status in (200, 404)
        for _ in range(3):
            async with connect(f"ws://127.0.0.1:{running.port}/ws") as ws:
                await ws.recv()  # the welcome
    # The gateway has stopped: every connection's handler has ended, its lines written.
    lines = [(r.levelno, r.getMessage()) for r in websockets_records(caplog)]
    per_connection = [
        line
        for line in lines
        if line[1].startswith(("HTTP response sent", "connection open", "connection closed"))
    ]
    assert per_connection == []
    # What an operator needs of the server itself stays: its start and its stop.
    messages = [message for _, message in lines]
    assert any(m.startswith("server listening on") for m in messages), lines
    assert "server closing" in messages and "server closed" in messages, lines
    # Each record names websockets' own line, not the adapter's.
    assert {r.filename for r in websockets_records(caplog)} <= {"server.py", "protocol.py"}


async def test_a_failing_connection_handler_is_still_logged_as_an_error(
    redis_server: EmbeddedRedis,
    prefix: str,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An exception that escapes the gateway's handler is logged at ERROR with its
    traceback, through the same (quieted) logger."""

    async def broken(self: Gateway, ws: object, client: str) -> None:
        raise RuntimeError("the handler broke")

    monkeypatch.setattr(Gateway, "_serve", broken)
    caplog.set_level(logging.INFO)
    settings = gateway_settings(prefix)
    async with (
        running_gateway(settings, redis_server.url) as running,
        connect(f"ws://127.0.0.1:{running.port}/ws") as ws,
    ):
        await ws.wait_closed()
    errors = [r for r in websockets_records(caplog) if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in errors] == ["connection handler failed"]
    assert errors[0].exc_info is not None
    assert str(errors[0].exc_info[1]) == "the handler broke"
