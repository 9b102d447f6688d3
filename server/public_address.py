"""The address a browser names to reach this server: the one `umpire new`'s viewer link and
`umpire serve`'s banner print.

UMPIRE_HOST is where the server listens. A wildcard (`0.0.0.0`, `::`) listens on every
interface but is no address a browser elsewhere can open (`http://0.0.0.0:8765/` fails
on another machine), so the link names the first of UMPIRE_ALLOWED_HOSTS (the names the
operator lets requests use: server/http.py `host_allowed`), else this machine's address
on its default route, an IP literal, which the gateway serves under any name. A host name
would not do: the gateway refuses a `Host` it was not told of (DNS rebinding).
"""

from __future__ import annotations

import socket

# The addresses that mean "every interface" (UMPIRE_HOST), bracketed or not.
WILDCARDS = frozenset({"0.0.0.0", "::", "[::]", ""})


def browser_host(host: str, allowed_hosts: tuple[str, ...] = ()) -> str:
    """The host part of a URL for the gateway listening on `host` (an IPv6 literal in
    brackets)."""
    if host in WILDCARDS:
        named = [name for name in allowed_hosts if name and name != "*"]
        host = named[0] if named else default_route_address()
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def default_route_address() -> str:
    """This machine's IPv4 address on its default route; loopback when it has none (no
    network: only this machine can open the link anyway). A UDP socket's connect only
    picks the route: nothing is sent, and no name is looked up."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737): no real host
            address: str = probe.getsockname()[0]
            return address
    except OSError:
        return "127.0.0.1"
