"""With UMPIRE_HOST a wildcard (0.0.0.0, ::), `umpire new`'s viewer link and `umpire
serve`'s banner name an address a browser on another machine can open: the first of
UMPIRE_ALLOWED_HOSTS, else this machine's address (an IP literal, which the gateway serves
under any name), never `http://0.0.0.0:...`."""

from __future__ import annotations

import ipaddress
import json
from urllib.parse import urlsplit

import pytest

from umpire.server.app import banner
from umpire.server.config import Settings
from umpire.server.http import host_allowed
from umpire.server.public_address import browser_host
from umpire.testing.support.forgery import Cli

# This machine's address comes from a UDP socket's connect (nothing is sent): a socket.
pytestmark = pytest.mark.integration


def test_a_wildcard_host_is_named_as_a_browser_can_open_it() -> None:
    for wildcard in ("0.0.0.0", "::"):
        named = browser_host(wildcard)
        assert named not in ("0.0.0.0", "[::]"), named
        ipaddress.ip_address(named.strip("[]"))  # an IP literal: served under any name
    assert browser_host("0.0.0.0", ("*", "umpire.example.org")) == "umpire.example.org"
    assert browser_host("127.0.0.1") == "127.0.0.1"
    assert browser_host("::1") == "[::1]"  # an IPv6 literal in a URL is bracketed


def test_the_banner_names_the_address_and_where_it_listens() -> None:
    settings = Settings(host="0.0.0.0", port=8765)
    line = banner(settings, 8765, "store embedded Valkey")
    assert "0.0.0.0:8765" not in line, line
    assert "listening on 0.0.0.0: every interface" in line, line
    host = urlsplit(line.split()[3]).hostname
    assert host is not None and host_allowed(host, settings), line
    default = banner(Settings(), 8765, "store x")
    assert (
        default
        == "umpire serving on http://127.0.0.1:8765/ (websocket ws://127.0.0.1:8765/ws, store x)"
    )


def test_umpire_new_prints_a_link_another_machine_can_open(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Fails without the fix: the link read http://0.0.0.0:8765/#game=...
    monkeypatch.setenv("UMPIRE_HOST", "0.0.0.0")
    monkeypatch.delenv("UMPIRE_ALLOWED_HOSTS", raising=False)  # this machine's address first
    made = cli("new", "counter", "--json")
    assert made.code == 0, made.err
    host = urlsplit(json.loads(made.out)["viewer"]).hostname
    assert host is not None and host != "0.0.0.0"
    ipaddress.ip_address(host)
    monkeypatch.setenv("UMPIRE_ALLOWED_HOSTS", "umpire.example.org")
    made = cli("new", "counter")
    assert made.code == 0, made.err
    assert "viewer (player)      http://umpire.example.org:" in made.out, made.out
