"""Where the kernel cannot name the account that holds a gateway's port on this host, the
Python client sends nothing there (clients/gateway_owner.py; red team, left open): it
went on and sent its credential, so a squatter on a machine without NETLINK_SOCK_DIAG
and /proc/net/tcp heard it. Now it refuses in one line naming `UMPIRE_TRUST_GATEWAY_AT`,
the deliberate way on. A gateway on another host was never checked and is not now.

The decision (`judge`) is plain code; the end-to-end tests run the client against a real
gateway with the kernel unable to answer: a platform without AF_NETLINK (as `_ask_kernel`
meets it) and no /proc/net/tcp tables."""

from __future__ import annotations

import asyncio
import os
import socket
from pathlib import Path

import pytest

from umpire.clients import UmpireClient
from umpire.clients.gateway_owner import (
    TRUST_ENV,
    GatewayNotYours,
    GatewayOwnerUnknown,
    check_gateway_owner,
    judge,
    trusted_addresses,
)
from umpire.events import local_users
from umpire.server.app import Running
from umpire.server.cli import main

URL = "ws://localhost:8765/ws"
PEER = ("127.0.0.1", 8765)


def test_an_owner_the_kernel_cannot_name_is_refused_naming_the_way_on() -> None:
    # Fails on main: None (not found) let the client go on and send its credential.
    with pytest.raises(GatewayOwnerUnknown) as refused:
        judge(None, URL, PEER, trusted=(), trusted_at=())
    message = refused.value.message
    assert refused.value.code == "gateway_owner_unknown"
    assert "could not be checked" in message and "nothing was sent" in message
    assert "NETLINK_SOCK_DIAG" in message and "/proc/net/tcp" in message
    assert f"{TRUST_ENV}=localhost:8765" in message and "(127.0.0.1:8765)" in message
    # Still a refusal of a gateway not shown to be ours: the client's handlers of
    # GatewayNotYours (abort, no closing handshake, wait for ours) take it.
    assert isinstance(refused.value, GatewayNotYours)


def test_an_address_trusted_deliberately_is_talked_to_by_either_name() -> None:
    judge(None, URL, PEER, trusted=(), trusted_at={"localhost:8765"})
    judge(None, URL, PEER, trusted=(), trusted_at={"127.0.0.1:8765"})
    judge(None, "ws://[::1]:8765/ws", ("::1", 8765), trusted=(), trusted_at={"[::1]:8765"})
    with pytest.raises(GatewayOwnerUnknown):  # another port is another gateway
        judge(None, URL, PEER, trusted=(), trusted_at={"127.0.0.1:8766"})
    # It trusts an unnamed owner only: a named other account is refused as before.
    with pytest.raises(GatewayNotYours) as other:
        judge(4242, URL, PEER, trusted=(), trusted_at={"localhost:8765"})
    assert not isinstance(other.value, GatewayOwnerUnknown) and "uid 4242" in other.value.message
    judge(os.geteuid(), URL, PEER, trusted=(), trusted_at=())
    judge(4242, URL, PEER, trusted={4242}, trusted_at=())


def test_a_malformed_trusted_address_is_refused() -> None:
    assert trusted_addresses({TRUST_ENV: " 127.0.0.1:8765, [::1]:1 "}) == {
        "127.0.0.1:8765",
        "[::1]:1",
    }
    for bad in ("127.0.0.1", "localhost:http", ":8765"):
        with pytest.raises(GatewayNotYours) as refused:
            trusted_addresses({TRUST_ENV: bad})
        assert f"{TRUST_ENV} must list gateway addresses as host:port" in refused.value.message


def test_a_gateway_on_another_host_is_not_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    # The check never applied there (no local account can hold its port; TLS guards it):
    # the kernel is not even asked, and nothing is refused.
    def asked(*_: object) -> int | None:
        raise AssertionError("the kernel was asked about another host's socket")

    monkeypatch.setattr("umpire.clients.gateway_owner.owner_of", asked)
    check_gateway_owner(("192.0.2.10", 50000), ("198.51.100.7", 443), "wss://x/ws", ())
    # Unknown on this host is refused, though: the same function, a loopback peer.
    monkeypatch.setattr("umpire.clients.gateway_owner.owner_of", lambda *_: None)
    with pytest.raises(GatewayOwnerUnknown):
        check_gateway_owner(("127.0.0.1", 50000), PEER, URL, ())
    with pytest.raises(GatewayOwnerUnknown):  # no ends to ask about: not checked, refused
        check_gateway_owner(None, None, URL, ())


@pytest.fixture
def kernel_cannot_say(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """This process on a platform where the kernel names no socket's owner: no AF_NETLINK
    (so `_ask_kernel` gets nothing) and no /proc/net/tcp{,6}."""
    monkeypatch.delattr(socket, "AF_NETLINK")
    monkeypatch.setattr(local_users, "TABLES", (tmp_path / "tcp", tmp_path / "tcp6"))
    monkeypatch.delenv(TRUST_ENV, raising=False)
    assert local_users.owner_of(("127.0.0.1", 1), PEER) is None


def _messages(gateway: Running) -> int:
    """How many client messages the gateway has admitted (each is charged)."""
    return sum(gateway.gateway.admission.charged.values())


async def test_the_client_sends_nothing_to_a_gateway_it_cannot_check(
    gateway: Running, ws_url: str, kernel_cannot_say: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Fails on main: the client connected, and `create` went out.
    before = _messages(gateway)
    client = UmpireClient(ws_url, reconnect=False)
    with pytest.raises(GatewayOwnerUnknown) as refused:
        await client.connect()
    assert f"{TRUST_ENV}=127.0.0.1:{gateway.port}" in refused.value.message
    assert _messages(gateway) == before
    # Trusted deliberately, the same address plays.
    monkeypatch.setenv(TRUST_ENV, f"127.0.0.1:{gateway.port}")
    async with UmpireClient(ws_url, reconnect=False) as trusting:
        created = await trusting.create("counter", {"target": 5}, client_entropy="waived")
    assert created.game_id and _messages(gateway) > before


async def test_umpire_watch_refuses_in_one_line_and_goes_on_when_trusted(
    gateway: Running,
    ws_url: str,
    kernel_cannot_say: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Fails on main: `umpire watch` sent its auth, the credential inside, unchecked.
    address = f"127.0.0.1:{gateway.port}"
    async with UmpireClient(ws_url, reconnect=False, trust_gateway_at={address}) as client:
        created = await client.create("counter", {"target": 5}, client_entropy="waived")
    monkeypatch.setenv("UMPIRE_CREDENTIAL", created.spectator_credential)
    argv = ["watch", "--url", ws_url, "--limit", "1"]
    capsys.readouterr()
    before = _messages(gateway)
    # The command line in this process (the kernel's lookup patched), on a thread of its
    # own: it runs its own event loop, and the gateway's goes on serving.
    assert await asyncio.to_thread(main, argv) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert err.startswith("error (gateway_owner_unknown): the owner of the gateway at"), err
    assert f"set {TRUST_ENV}={address}" in err
    assert _messages(gateway) == before  # no auth: the credential never left
    monkeypatch.setenv(TRUST_ENV, address)
    assert await asyncio.to_thread(main, argv) == 0
    assert "watching" in capsys.readouterr().out
