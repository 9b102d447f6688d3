"""Plain HTTP on the gateway's port: /healthz, /metrics and the viewer's static files.

Also the gate for websocket handshakes: the Origin allow-list and the per-address limit.
Every request is screened first (`screen`, plain code): one well-formed Host header,
only GET and HEAD, and a Host name from the allow-list for every path (pages,
handshakes, /healthz and /metrics alike), so a page reached through DNS rebinding (the
attacker's name resolving to this machine) gets nothing. HEAD answers carry the headers
of GET and no body.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import mimetypes
import re
from collections.abc import Awaitable, Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from umpire.engine import registry
from umpire.engine.kit.reading import listed_reading
from umpire.engine.ruleset import Ruleset
from umpire.engine.scenarios import scenarios, setup_schema
from umpire.events.errors import UmpireError
from umpire.server.config import Settings
from umpire.server.store_status import StoreStatus

if TYPE_CHECKING:
    from umpire.server.gateway import Gateway

WEB_ROOT = Path(__file__).resolve().parent.parent / "clients" / "web"
WS_PATH = "/ws"
SERVED_METHODS = "GET, HEAD"
# Host: a bracketed IPv6 literal or a name (or IPv4 literal), then an optional port.
_HOST = re.compile(
    r"(?:\[(?P<ip6>[0-9A-Fa-f:.]{2,45})\]|(?P<name>[A-Za-z0-9._-]{1,253}))(?::[0-9]{1,5})?"
)
# Headers a request may carry at most once (a second Host or Origin is ambiguous).
_SINGLE = ("Host", "Origin", "Upgrade")
# On every response (docs/security.md, "HTTP headers"): the viewer's scripts, styles,
# images and connections come from this origin only, never inline code or eval; no
# site may frame a page (clickjacking), and no page's address (a game id, a #seq link)
# leaves in a Referer.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "manifest-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "object-src 'none'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
)


def _response(status: int, reason: str, body: bytes, content_type: str) -> Response:
    headers = Headers(
        [
            ("Content-Type", content_type),
            ("Content-Length", str(len(body))),
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
            *SECURITY_HEADERS,
        ]
    )
    return Response(status, reason, headers, body)


def text(status: int, reason: str, body: str) -> Response:
    """A plain-text response."""
    return _response(status, reason, body.encode(), "text/plain; charset=utf-8")


# Pages served under a name of their own: /verify is the browser verifier of exports
# (docs/audit.md, "Verifying in the browser"), a static page under the same policy.
PAGES = {"verify": "verify.html"}


def static_file(path: str) -> Response:
    """A file under clients/web, or 404. Never serves anything outside that folder."""
    relative = path.split("?", 1)[0].lstrip("/") or "index.html"
    if relative == "favicon.ico":  # what browsers ask for without a <link rel="icon">
        relative = "favicon.svg"
    relative = PAGES.get(relative, relative)
    target = (WEB_ROOT / relative).resolve()
    if (WEB_ROOT not in target.parents and target != WEB_ROOT) or not target.is_file():
        return text(404, "Not Found", f"no such file: /{relative}\n")
    kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
    if kind.startswith("text/") or kind in ("application/javascript", "application/json"):
        kind += "; charset=utf-8"
    return _response(200, "OK", target.read_bytes(), kind)


def host_name(value: str) -> str | None:
    """The name in a Host header (lower case, no port, no trailing dot); None if malformed."""
    found = _HOST.fullmatch(value.strip())
    if found is None:
        return None
    if found["ip6"] is not None:
        return found["ip6"].lower()
    name = found["name"].lower().rstrip(".")
    return name or None


def host_allowed(name: str, settings: Settings) -> bool:
    """Whether any path (pages, handshakes, /healthz, /metrics) may be served to a
    request naming `name`.

    IP literals are allowed: a browser sends one only when it was pointed at this
    address, and DNS rebinding needs a name. So are loopback names (`localhost`,
    `*.localhost`), the address the gateway listens on, and `UMPIRE_ALLOWED_HOSTS`.
    """
    allowed = {h.lower().rstrip(".") for h in settings.allowed_hosts}
    if "*" in allowed or name in allowed or name == settings.host.lower():
        return True
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def screen(request: Request, settings: Settings) -> tuple[str, Response] | None:
    """Why a request may go no further, and its answer; None if it may.

    400 for a malformed request (no Host, a second Host, Origin or Upgrade header, a
    Host that is not a host, a path that is not absolute); 405 with `Allow` for a method
    other than GET and HEAD (GET only for a websocket handshake); 403 for any path whose
    Host is not allowed, /healthz and /metrics included: a rebinding page could read
    them too (docs/operations.md, "HTTP").
    """
    for header in _SINGLE:
        if len(request.headers.get_all(header)) > 1:
            return "bad_request", text(400, "Bad Request", f"more than one {header} header\n")
    hosts = request.headers.get_all("Host")
    if not hosts:
        return "bad_request", text(400, "Bad Request", "a Host header is required\n")
    name = host_name(hosts[0])
    if name is None:
        return "bad_request", text(400, "Bad Request", "malformed Host header\n")
    if not request.path.startswith("/"):
        return "bad_request", text(400, "Bad Request", "the path must start with /\n")
    upgrade = request.headers.get("Upgrade", "").lower() == "websocket"
    allow = "GET" if upgrade else SERVED_METHODS
    if request.method not in allow.split(", "):
        refused = text(405, "Method Not Allowed", f"method {request.method} not allowed\n")
        refused.headers["Allow"] = allow
        return "method_not_allowed", refused
    if not host_allowed(name, settings):
        reason = f"host {name!r} not allowed: add it to UMPIRE_ALLOWED_HOSTS\n"
        return "host_forbidden", text(403, "Forbidden", reason)
    return None


def without_body(response: Response) -> Response:
    """The answer to HEAD: GET's status and headers (Content-Length included), no body."""
    return Response(response.status_code, response.reason_phrase, response.headers, b"")


def origin_allowed(gateway: Gateway, request: Request) -> bool:
    """Browsers send Origin: allow the configured list and the viewer's own origin."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True  # not a browser: credentials protect the games
    host = request.headers.get("Host", "")
    if origin in (f"http://{host}", f"https://{host}"):
        return True
    return origin in gateway.settings.allowed_origins or "*" in gateway.settings.allowed_origins


RULESETS_PATH = "/rulesets.json"


def ruleset_listing() -> bytes:
    """/rulesets.json: every installed ruleset with its title and named scenarios, for the
    page's "new game" pickers (the page never hard-codes them). A ruleset that does not
    load is left out (/healthz names it with its error): the others still work.

    Made once for the rulesets installed: it costs ~20 ms of the event loop (every setup
    schema), and an HTTP request is charged to no client's budget, so a client looping
    GETs held the loop from every player while it was made again for each."""
    return _listing(tuple(registry.usable()[0]))


@lru_cache(maxsize=4)  # one set of rulesets installed; a few while tests plant others
def _listing(usable: tuple[Ruleset[Any], ...]) -> bytes:
    listing = []
    for ruleset in usable:
        name = ruleset.name
        named = [
            {"name": s.name, "description": s.description, "sample": s.sample}
            for s in scenarios(ruleset)
        ]
        listing.append(
            {
                "name": name,
                "title": ruleset.title,
                "default_scenario": ruleset.default_scenario,
                "scenarios": named,
                # The page's "Scenario settings": a setup's fields laid over the scenario's.
                "setup_schema": setup_schema(ruleset),
                # What a rules dispute may claim instead (engine/kit/reading.py).
                "readings": [listed_reading(r) for r in ruleset.readings],
                # The view in the rules' words (engine/kit/labels.py), by bare field name.
                "labels": ruleset.labels.fields,
                "value_labels": ruleset.labels.values,
            }
        )
    return json.dumps(listing).encode()


KEYS_PATH = "/keys.json"


async def key_listing(gateway: Gateway) -> Response:
    """/keys.json: the server's receipt keys (docs/audit.md 8.4), each with its id, its
    public half and whether new games take it, so a third party can tell a game's key
    (its GameCreated's receipt_key_id) for this server's. 503 if the store is away."""
    try:
        keys = await gateway.games.receipt_keys.listing()
    except UmpireError as exc:
        return text(503, "Service Unavailable", f"the store is unavailable: {exc.message}\n")
    body = json.dumps({"algorithm": "Ed25519", "keys": keys}).encode()
    return _response(200, "OK", body, "application/json")


HEALTH_TIMEOUT = 0.8  # /healthz answers within a second, even while the store hangs


async def health(gateway: Gateway, restarting: Callable[[], str | None] | None = None) -> Response:
    """/healthz: 200 while the store answers PING, else 503 naming the cause. The PING
    has a deadline: a frozen store must not hold the probe (an outer supervisor's probe
    that hangs looks like a hung gateway, or like nothing at all). `restarting` is the
    supervisor's: while it restarts the embedded store, the answer says so at once. A
    worker of `umpire serve --workers N` reads that from its parent (server/store_status.py)."""
    cause = restarting() if restarting is not None else None
    if cause is None and gateway.metrics.share is not None:
        cause = StoreStatus(gateway.metrics.share.directory).cause()
    if cause is not None:
        body = f'{{"status":"degraded","store":"restarting","cause":"{cause}"}}'
        return _response(503, "Service Unavailable", body.encode(), "application/json")
    try:
        ok = await asyncio.wait_for(gateway.store.ping(), HEALTH_TIMEOUT)
        cause = "unreachable"  # the connection was refused or lost
    except TimeoutError:
        ok, cause = False, "unresponsive"  # no answer to PING within HEALTH_TIMEOUT
    answer: dict[str, object] = (
        {"status": "ok", "store": "reachable"} if ok else {"status": "degraded", "store": cause}
    )
    # An installed ruleset that does not load, with its error, for the operator: the
    # others are served (/rulesets.json leaves it out), so the gateway is still healthy.
    broken = registry.usable()[1]
    if broken:
        answer["broken_rulesets"] = broken
    body = json.dumps(answer, separators=(",", ":"))
    return _response(
        200 if ok else 503,
        "OK" if ok else "Service Unavailable",
        body.encode(),
        "application/json",
    )


def make_process_request(
    gateway: Gateway, restarting: Callable[[], str | None] | None = None
) -> Callable[[ServerConnection, Request], Awaitable[Response | None]]:
    """The websockets process_request hook for this gateway (`restarting`: see health)."""

    async def process_request(connection: ServerConnection, request: Request) -> Response | None:
        refused = screen(request, gateway.settings)
        if refused is not None:
            code, refusal = refused
            gateway.metrics.error(code)
            address = gateway.address_of(connection)
            gateway.mistakes.note(address, code, refusal.body.decode().strip())
            return without_body(refusal) if request.method == "HEAD" else refusal
        response = await answer(connection, request)
        if response is not None and request.method == "HEAD":
            return without_body(response)
        return response

    async def answer(connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        upgrade = request.headers.get("Upgrade", "").lower() == "websocket"
        if path == WS_PATH and upgrade:
            if not origin_allowed(gateway, request):
                gateway.metrics.error("origin_forbidden")
                return text(403, "Forbidden", "origin not allowed\n")
            return None
        if path == "/healthz":
            return await health(gateway, restarting)
        if path == RULESETS_PATH:
            return _response(200, "OK", ruleset_listing(), "application/json")
        if path == KEYS_PATH:
            return await key_listing(gateway)
        if path == "/metrics":
            await gateway.look_at_store()
            body = gateway.metrics.render()
            # The classic text format generate_latest writes, under the content type
            # /metrics always had (prometheus-client's CONTENT_TYPE_LATEST names 1.0.0).
            return _response(200, "OK", body.encode(), "text/plain; version=0.0.4; charset=utf-8")
        if upgrade:
            return text(404, "Not Found", f"websocket endpoint is {WS_PATH}\n")
        return static_file(path)

    return process_request
