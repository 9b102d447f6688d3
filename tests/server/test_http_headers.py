"""Every HTTP response of the gateway carries the page-hardening headers (server/http.py,
SECURITY_HEADERS; docs/security.md, "HTTP headers"): a Content-Security-Policy of this
origin only with no inline script and `frame-ancestors 'none'`, X-Frame-Options DENY and
`Referrer-Policy: no-referrer`. Over real HTTP, for every kind of answer."""

from __future__ import annotations

import asyncio

import pytest

from umpire.server.app import Running


async def http_head(port: int, method: str, path: str, host: str | None = None) -> dict[str, str]:
    """The status (as ":status") and the headers (lower-cased names) of one request."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"{method} {path} HTTP/1.1\r\nHost: {host or f'127.0.0.1:{port}'}\r\n\r\n".encode()
    )
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    writer.close()
    status, *lines = head.decode().strip().split("\r\n")
    headers = {":status": status.split()[1]}
    for line in lines:
        name, _, value = line.partition(":")
        assert name.lower() not in headers, f"{name} sent twice"
        headers[name.lower()] = value.strip()
    return headers


def csp_directives(policy: str) -> dict[str, list[str]]:
    directives = {}
    for part in policy.split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


@pytest.mark.parametrize(
    ("method", "path", "host", "status"),
    [
        ("GET", "/", None, "200"),
        ("GET", "/index.html", None, "200"),
        ("GET", "/viewer.js", None, "200"),
        ("GET", "/viewer.css", None, "200"),
        ("GET", "/verify", None, "200"),
        ("GET", "/verify.js", None, "200"),
        ("HEAD", "/", None, "200"),
        ("GET", "/rulesets.json", None, "200"),
        ("GET", "/healthz", None, "200"),
        ("GET", "/metrics", None, "200"),
        ("GET", "/no-such-page", None, "404"),
        ("GET", "/", "evil.example", "403"),
        ("POST", "/", None, "405"),
    ],
)
async def test_every_answer_carries_the_page_hardening_headers(
    gateway: Running, method: str, path: str, host: str | None, status: str
) -> None:
    headers = await http_head(gateway.port, method, path, host)
    assert headers[":status"] == status
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"
    policy = csp_directives(headers["content-security-policy"])
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["default-src"] == ["'none'"]
    for directive in ("script-src", "style-src", "connect-src", "img-src"):
        assert policy[directive] == ["'self'"], directive  # no inline, no eval, no others
    assert policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'none'"]
