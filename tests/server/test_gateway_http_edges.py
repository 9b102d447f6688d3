"""HTTP edges on the gateway's port (docs/operations.md, "HTTP"): malformed requests get
400, only GET and HEAD serve files (405 with Allow otherwise), HEAD has no body, and a
Host allow-list refuses every path reached through DNS rebinding (pages, websocket
handshakes, /healthz and /metrics).
None of it logs a traceback."""

from __future__ import annotations

import asyncio
import base64
import logging
import os
from collections.abc import AsyncIterator

import pytest

from umpire.server.app import Running, running_gateway
from umpire.server.config import Settings
from umpire.server.embedded import EmbeddedRedis
from umpire.server.http import host_allowed, host_name
from umpire.testing.support.gateways import gateway_settings


async def request(port: int, head: str) -> tuple[int, dict[str, str], bytes]:
    """Send a raw request head; (status, headers, body) of the answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write((head.replace("\n", "\r\n") + "\r\n").encode())
    await writer.drain()
    raw = await asyncio.wait_for(reader.read(), 5)  # the server closes after a refusal
    writer.close()
    top, _, body = raw.partition(b"\r\n\r\n")
    lines = top.decode().split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def upgrade(host: str, origin: str | None = None) -> str:
    key = base64.b64encode(os.urandom(16)).decode()
    lines = ["GET /ws HTTP/1.1", f"Host: {host}", "Upgrade: websocket", "Connection: Upgrade",
             f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]  # fmt: skip
    if origin:
        lines.append(f"Origin: {origin}")
    return "\n".join(lines) + "\n"


async def status_of_upgrade(port: int, host: str, origin: str | None = None) -> int:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(upgrade(host, origin).replace("\n", "\r\n").encode() + b"\r\n")
    await writer.drain()
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    writer.close()
    return int(head.split()[1])


@pytest.fixture
def no_tracebacks(caplog: pytest.LogCaptureFixture) -> AsyncIterator[None]:
    with caplog.at_level(logging.INFO):
        yield
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


class TestHostNames:
    def test_parsing(self) -> None:
        assert host_name("LocalHost:8765") == "localhost"
        assert host_name("[::1]:80") == "::1"
        assert host_name("umpire.example.org.") == "umpire.example.org"
        assert host_name("evil.example/x") is None and host_name("a b") is None
        assert host_name("") is None and host_name("[zz]") is None

    def test_the_allow_list(self) -> None:
        plain = Settings()
        for name in ("localhost", "app.localhost", "127.0.0.1", "::1", "192.168.1.20"):
            assert host_allowed(name, plain), name
        for name in ("evil.example", "localhost.evil.example", "127.0.0.1.nip.io"):
            assert not host_allowed(name, plain), name
        named = Settings(allowed_hosts=("Umpire.Example.org",))
        assert host_allowed("umpire.example.org", named)
        assert host_allowed("anything", Settings(allowed_hosts=("*",)))


async def test_two_host_headers_get_400(gateway: Running, no_tracebacks: None) -> None:
    # Fails on main: 500 and a traceback ("process_request failed").
    port = gateway.port
    status, _, body = await request(port, f"GET / HTTP/1.1\nHost: 127.0.0.1:{port}\nHost: x\n")
    assert status == 400 and b"more than one Host header" in body
    status, _, _ = await request(port, upgrade(f"127.0.0.1:{port}") + "Host: evil.example\n")
    assert status == 400
    status, _, body = await request(port, "GET / HTTP/1.1\n")
    assert status == 400 and b"Host header is required" in body
    status, _, body = await request(port, "GET / HTTP/1.1\nHost: a/b\n")
    assert status == 400 and b"malformed Host" in body
    assert gateway.gateway.metrics.errors["bad_request"] == 4


async def test_dns_rebinding_is_refused(gateway: Running, no_tracebacks: None) -> None:
    # Fails on main: Host and Origin both the attacker's name were accepted (101).
    port = gateway.port
    evil = f"rebind.evil.example:{port}"
    assert await status_of_upgrade(port, evil, f"http://{evil}") == 403
    status, _, body = await request(port, f"GET / HTTP/1.1\nHost: {evil}\n")
    assert status == 403 and b"not allowed" in body and b"<html" not in body
    # Loopback names and IP literals are served.
    assert await status_of_upgrade(port, f"localhost:{port}", f"http://localhost:{port}") == 101
    assert await status_of_upgrade(port, f"127.0.0.1:{port}") == 101
    assert gateway.gateway.metrics.errors["host_forbidden"] == 2


@pytest.mark.parametrize("path", ["/healthz", "/metrics", "/metrics?name[]=x"])
async def test_health_and_metrics_refuse_a_rebound_host(
    gateway: Running, no_tracebacks: None, path: str
) -> None:
    # Fails on main: /healthz and /metrics answered 200 whatever the Host, so a page
    # rebound to this machine read the store's state and every counter.
    port = gateway.port
    evil = f"rebind.evil.example:{port}"
    _, _, page = await request(port, f"GET / HTTP/1.1\nHost: {evil}\n")
    for method in ("GET", "HEAD"):
        status, headers, body = await request(port, f"{method} {path} HTTP/1.1\nHost: {evil}\n")
        assert status == 403, (method, status)
        assert headers["content-type"].startswith("text/plain")
        assert body == (page if method == "GET" else b"")  # the pages' refusal, word for word
    assert b"UMPIRE_ALLOWED_HOSTS" in page and b"umpire_" not in page
    assert gateway.gateway.metrics.errors["host_forbidden"] == 3
    # What the project's own callers send is still served: the compose healthcheck, the
    # benches and the peer bench name 127.0.0.1; loopback names and [::1] are loopback.
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", "localhost"):
        status, _, body = await request(port, f"GET {path} HTTP/1.1\nHost: {host}\n")
        assert status == 200, (host, status, body)


async def test_a_scraper_named_in_allowed_hosts_reads_metrics(
    redis_server: EmbeddedRedis, prefix: str, no_tracebacks: None
) -> None:
    # docs/operations.md, "HTTP": a Prometheus scraper that names the gateway by another
    # host name (a compose service, a proxy's upstream) is listed in UMPIRE_ALLOWED_HOSTS.
    settings = gateway_settings(prefix, allowed_hosts=("umpire",))
    async with running_gateway(settings, redis_server.url) as running:
        port = running.port
        for path, shows in (("/metrics", b"umpire_connections_open"), ("/healthz", b'"ok"')):
            status, _, body = await request(port, f"GET {path} HTTP/1.1\nHost: umpire:{port}\n")
            assert status == 200 and shows in body, (path, body)
            status, _, _ = await request(port, f"GET {path} HTTP/1.1\nHost: prometheus:{port}\n")
            assert status == 403


async def test_a_configured_host_is_served(
    redis_server: EmbeddedRedis, prefix: str, no_tracebacks: None
) -> None:
    settings = gateway_settings(prefix, allowed_hosts=("umpire.example.org",))
    async with running_gateway(settings, redis_server.url) as running:
        port = running.port
        host = f"umpire.example.org:{port}"
        assert await status_of_upgrade(port, host, f"https://{host}") == 101
        status, _, body = await request(port, f"GET / HTTP/1.1\nHost: {host}\n")
        assert status == 200 and b"<html" in body.lower()


@pytest.mark.parametrize("method", ["POST", "PUT", "OPTIONS", "DELETE", "PATCH"])
async def test_only_get_and_head_serve_files(
    gateway: Running, no_tracebacks: None, method: str
) -> None:
    # Fails on main: POST, PUT and OPTIONS served the page.
    port = gateway.port
    head = f"{method} / HTTP/1.1\nHost: 127.0.0.1:{port}\nContent-Length: 0\n"
    status, headers, body = await request(port, head)
    assert status == 405 and headers["allow"] == "GET, HEAD"
    assert b"<html" not in body.lower()


async def test_head_has_the_headers_of_get_and_no_body(
    gateway: Running, no_tracebacks: None
) -> None:
    # Fails on main: HEAD returned the body.
    port = gateway.port
    _, got, body = await request(port, f"GET /umpire.js HTTP/1.1\nHost: 127.0.0.1:{port}\n")
    status, headers, nothing = await request(
        port, f"HEAD /umpire.js HTTP/1.1\nHost: 127.0.0.1:{port}\n"
    )
    assert status == 200 and nothing == b""
    assert headers["content-length"] == got["content-length"] == str(len(body))
    assert headers["content-type"] == got["content-type"]


async def test_a_favicon(gateway: Running) -> None:
    port = gateway.port
    for path in ("/favicon.ico", "/favicon.svg"):
        status, headers, body = await request(port, f"GET {path} HTTP/1.1\nHost: localhost\n")
        assert status == 200 and headers["content-type"] == "image/svg+xml"
        assert body.startswith(b"<svg")
