"""`umpire watch` and `play` read the gateway's /rulesets.json and /citations.json to say
events in words (clients/ruleset_listing.py) over a connection of their own: it is
checked as the websocket's is (clients/gateway_owner.py), so another local account
listening on the gateway's port is asked nothing and its words are never printed."""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterator

import pytest

from tests.support.local_user import LocalUser, other_user
from tests.support.processes import wait_for_port
from umpire.clients.ruleset_listing import Listing
from umpire.server.embedded import free_port

ASKED, SILENT = 3, 0  # the listener's exit codes
LISTING = [{"name": "downtown", "title": "FAKE words", "labels": {}, "value_labels": {}}]
DONE = b"DONE\r\n\r\n"  # the test's word that the client is finished with the listener


@pytest.fixture
def stranger() -> Iterator[LocalUser]:
    with other_user() as user:
        yield user


def _listener(port: int) -> int:
    """A fake gateway, as the other account: ASKED (and a listing) if a request comes,
    SILENT once the test says DONE; a probe of the port, or a client that closes at
    once, is passed over."""
    with socket.socket() as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", port))
        server.listen()
        server.settimeout(60)
        while True:
            conn, _ = server.accept()
            with conn:
                conn.settimeout(20)
                request = b""
                while b"\r\n\r\n" not in request and (chunk := conn.recv(4096)):
                    request += chunk
                if request.startswith(b"GET /"):
                    body = json.dumps(LISTING).encode()
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                 b"Content-Length: " + str(len(body)).encode() +
                                 b"\r\nConnection: close\r\n\r\n" + body)  # fmt: skip
                    return ASKED
                if request.startswith(DONE):
                    return SILENT


async def _listing_of(stranger: LocalUser, trusted: tuple[int, ...]) -> tuple[int, frozenset[str]]:
    port = free_port()
    pid = stranger.start(lambda: _listener(port))
    try:
        wait_for_port(port)
        listing = Listing(f"ws://127.0.0.1:{port}/ws", trusted, ())
        capitals = await listing.capitals("downtown")
    finally:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as done:
                done.sendall(DONE)
        except OSError:
            pass  # the listener has ended already: it was asked
        status = os.waitpid(pid, 0)[1]
    return os.waitstatus_to_exitcode(status), capitals


async def test_watch_asks_another_accounts_listener_for_no_listing(stranger: LocalUser) -> None:
    asked, capitals = await _listing_of(stranger, ())
    assert asked == SILENT and capitals == frozenset()


async def test_a_gateway_account_named_is_asked(stranger: LocalUser) -> None:
    """A gateway run by a service account named in UMPIRE_GATEWAY_UIDS is read."""
    asked, capitals = await _listing_of(stranger, (stranger.uid,))
    assert asked == ASKED and capitals == frozenset({"FAKE"})
