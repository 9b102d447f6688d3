"""Plain HTTP on the gateway's port: /healthz, /metrics and the viewer's static files.

Also the gate for websocket handshakes: the Origin allow-list and the per-address limit.
"""

from __future__ import annotations

import asyncio
import mimetypes
from pathlib import Path
from typing import TYPE_CHECKING

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

if TYPE_CHECKING:
    from server.gateway import Gateway

WEB_ROOT = Path(__file__).resolve().parent.parent / "clients" / "web"
WS_PATH = "/ws"


def _response(status: int, reason: str, body: bytes, content_type: str) -> Response:
    headers = Headers(
        [
            ("Content-Type", content_type),
            ("Content-Length", str(len(body))),
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
        ]
    )
    return Response(status, reason, headers, body)


def text(status: int, reason: str, body: str) -> Response:
    """A plain-text response."""
    return _response(status, reason, body.encode(), "text/plain; charset=utf-8")


def static_file(path: str) -> Response:
    """A file under clients/web, or 404. Never serves anything outside that folder."""
    relative = path.split("?", 1)[0].lstrip("/") or "index.html"
    target = (WEB_ROOT / relative).resolve()
    if (WEB_ROOT not in target.parents and target != WEB_ROOT) or not target.is_file():
        return text(404, "Not Found", f"no such file: /{relative}\n")
    kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
    if kind.startswith("text/") or kind in ("application/javascript", "application/json"):
        kind += "; charset=utf-8"
    return _response(200, "OK", target.read_bytes(), kind)


def origin_allowed(gateway: Gateway, request: Request) -> bool:
    """Browsers send Origin: allow the configured list and the viewer's own origin."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True  # not a browser: credentials protect the games
    host = request.headers.get("Host", "")
    if origin in (f"http://{host}", f"https://{host}"):
        return True
    return origin in gateway.settings.allowed_origins or "*" in gateway.settings.allowed_origins


HEALTH_TIMEOUT = 0.8  # /healthz answers within a second, even while the store hangs


async def health(gateway: Gateway) -> Response:
    """/healthz: 200 while the store answers PING, else 503 naming the cause. The PING
    has a deadline: a frozen store must not hold the probe (an outer supervisor's probe
    that hangs looks like a hung gateway, or like nothing at all)."""
    try:
        ok = await asyncio.wait_for(gateway.store.ping(), HEALTH_TIMEOUT)
        cause = "unreachable"  # the connection was refused or lost
    except TimeoutError:
        ok, cause = False, "unresponsive"  # no answer to PING within HEALTH_TIMEOUT
    if ok:
        body = '{"status":"ok","store":"reachable"}'
    else:
        body = f'{{"status":"degraded","store":"{cause}"}}'
    return _response(
        200 if ok else 503,
        "OK" if ok else "Service Unavailable",
        body.encode(),
        "application/json",
    )


def make_process_request(gateway: Gateway):  # type: ignore[no-untyped-def]
    """The websockets process_request hook for this gateway."""

    async def process_request(connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        upgrade = request.headers.get("Upgrade", "").lower() == "websocket"
        if path == WS_PATH and upgrade:
            if not origin_allowed(gateway, request):
                gateway.metrics.error("origin_forbidden")
                return text(403, "Forbidden", "origin not allowed\n")
            return None
        if path == "/healthz":
            return await health(gateway)
        if path == "/metrics":
            feeds = gateway.notifier.feeds.values()
            subscriptions = sum(len(feed.subscriptions) for feed in feeds)
            body = gateway.metrics.render(len(gateway.connections), len(feeds), subscriptions)
            return _response(200, "OK", body.encode(), "text/plain; version=0.0.4")
        if upgrade:
            return text(404, "Not Found", f"websocket endpoint is {WS_PATH}\n")
        return static_file(path)

    return process_request
