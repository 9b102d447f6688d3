"""The address a browser names to reach this server: the one `umpire new`'s viewer link and
`umpire serve`'s banner print.

UMPIRE_HOST is where the server listens. A wildcard (`0.0.0.0`, `::`) listens on every
interface but is no address a browser elsewhere can open (`http://0.0.0.0:8765/` fails
on another machine), so the link names the first of UMPIRE_ALLOWED_HOSTS (the names the
operator lets requests use: server/http.py `host_allowed`), else this machine's address
on its default route, an IP literal, which the gateway serves under any name. A host name
would not do: the gateway refuses a `Host` it was not told of (DNS rebinding).

A running `umpire serve` also publishes the address it serves at, with its pid, in
`<data dir>/gateway.url` (removed when it stops), so that `umpire new` names the server
that runs, started with `--port` or `--host` or not, rather than UMPIRE_HOST:UMPIRE_PORT
of its own environment. A file whose process is gone (a killed server) names nothing.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Iterator
from pathlib import Path

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


GATEWAY_FILE = "gateway.url"


def viewer_address(host: str, port: int, allowed_hosts: tuple[str, ...] = ()) -> str:
    """The viewer's address (`http://HOST:PORT/`) for a gateway listening on `host`."""
    return f"http://{browser_host(host, allowed_hosts)}:{port}/"


def websocket_address(viewer: str) -> str:
    """The websocket's address (`ws://HOST:PORT/ws`) of the gateway serving `viewer`."""
    return "ws://" + viewer.removeprefix("http://").rstrip("/") + "/ws"


@contextlib.contextmanager
def published_gateway(data_dir: Path, address: str) -> Iterator[None]:
    """While the block runs, `<data dir>/gateway.url` names `address` and this process;
    display only: a data directory that cannot take it stops nothing."""
    path = data_dir / GATEWAY_FILE
    written = False
    with contextlib.suppress(OSError):
        temporary = path.with_suffix(".new")
        temporary.write_text(f"{os.getpid()} {address}\n")
        os.replace(temporary, path)
        written = True
    try:
        yield
    finally:
        # Unless another server has published itself since (the file is its now).
        with contextlib.suppress(OSError, ValueError):
            if written and path.read_text().split()[0] == str(os.getpid()):
                path.unlink()


def running_gateway(data_dir: Path) -> str | None:
    """The viewer's address the running `umpire serve` of `data_dir` published, or None
    when none runs (no file, or its process is gone)."""
    try:
        words = (data_dir / GATEWAY_FILE).read_text().split()
    except (OSError, UnicodeDecodeError):
        return None
    if len(words) != 2 or not words[0].isdigit() or not words[1].startswith("http"):
        return None
    try:
        os.kill(int(words[0]), 0)
    except ProcessLookupError:
        return None  # a server that was killed: its file names nothing now
    except OSError:
        pass  # PermissionError: it runs, as another user (a shared data directory)
    return words[1]
