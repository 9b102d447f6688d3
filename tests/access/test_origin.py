"""Browsers: websocket handshakes carrying an Origin are accepted only from the viewer's
own origin or the UMPIRE_ALLOWED_ORIGINS list; others get HTTP 403 and no connection.
Non-browser clients (no Origin header) are allowed: credentials protect the games."""

from __future__ import annotations

import asyncio
import base64
import os

import pytest

from umpire.server.app import Running, running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.gateways import gateway_settings


async def handshake(port: int, origin: str | None, host: str | None = None) -> tuple[int, bytes]:
    """A browser-like upgrade request; (HTTP status, bytes after the head)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        "GET /ws HTTP/1.1",
        f"Host: {host or f'127.0.0.1:{port}'}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
        "User-Agent: Mozilla/5.0",
    ]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    await writer.drain()
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    status = int(head.split()[1])
    after = b""
    if status == 101:
        # The server speaks first on an open websocket: the welcome frame.
        after = await asyncio.wait_for(reader.read(4096), 5)
    else:
        after = await asyncio.wait_for(reader.read(), 5)  # body, then the server closes
    writer.close()
    return status, after


@pytest.fixture
async def allow_listed(redis_server: EmbeddedRedis, prefix: str) -> Running:
    settings = gateway_settings(prefix, allowed_origins=("https://umpire.example.org",))
    async with running_gateway(settings, redis_server.url) as running:
        yield running


async def test_origin_allow_list(allow_listed: Running) -> None:
    port = allow_listed.port
    status, first = await handshake(port, None)
    assert status == 101 and b"welcome" in first  # not a browser
    status, first = await handshake(port, f"http://127.0.0.1:{port}")
    assert status == 101 and b"welcome" in first  # the viewer's own origin
    status, first = await handshake(port, "https://umpire.example.org")
    assert status == 101 and b"welcome" in first  # listed
    status, body = await handshake(port, "https://evil.example.com")
    assert status == 403 and b"origin not allowed" in body and b"welcome" not in body
    status, body = await handshake(port, "https://umpire.example.org.evil.example.com")
    assert status == 403
    # A forged Host does not make a foreign origin "same host" unless they match exactly.
    status, _ = await handshake(port, "http://evil.example.com", host="127.0.0.1")
    assert status == 403
    assert allow_listed.gateway.metrics.errors["origin_forbidden"] == 3
    assert len(allow_listed.gateway.connections) <= 3  # none for the refused handshakes


async def test_no_list_allows_only_the_viewer_origin(gateway: Running) -> None:
    status, _ = await handshake(gateway.port, f"http://127.0.0.1:{gateway.port}")
    assert status == 101
    status, _ = await handshake(gateway.port, "http://localhost:1")
    assert status == 403
