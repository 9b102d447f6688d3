"""A client sends no credential to a gateway port another local account listens on
(clients/gateway_owner.py; red team, 2026-11-29). Whoever listens on a loopback port
first gets its connections: another account listening where the owner's `umpire serve`
is not (stopped, restarting, or on another port) answered the handshake and a welcome,
and `umpire play` sent it `{"type": "auth", "credential": "<the player's credential>"}`.
Now the client asks the kernel who holds the other end, and stops there in one line."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.support.local_user import LocalUser, other_user
from tests.support.processes import REPO, wait_for_port
from umpire.server.embedded import free_port

CREDENTIAL = "g0123456789abcdef.the-players-own-secret-credential"
HEARD, SILENT = 3, 0  # the listener's exit codes


@pytest.fixture
def stranger() -> Iterator[LocalUser]:
    with other_user() as user:
        yield user


def _listener(port: int, host: str = "127.0.0.1") -> int:
    """A fake gateway, as the other account: the handshake and a welcome, then HEARD if
    the client's first message holds the credential, SILENT if it sends nothing."""
    with socket.socket() as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind((host, port))
        server.listen()
        server.settimeout(60)
        request = b""
        while b"\r\n\r\n" not in request:  # the test's probe of the port closes at once
            conn, _ = server.accept()
            conn.settimeout(20)
            request = b""
            while b"\r\n\r\n" not in request and (chunk := conn.recv(4096)):
                request += chunk
        (key,) = [
            line.split(b":", 1)[1].strip()
            for line in request.split(b"\r\n")
            if line.lower().startswith(b"sec-websocket-key")
        ]
        accept = base64.b64encode(
            hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest()
        )
        conn.sendall(
            b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n"
        )
        welcome = b'{"type":"welcome","protocol":1,"server":"umpire","rulesets":["counter"]}'
        conn.sendall(bytes([0x81, len(welcome)]) + welcome)
        heard = b""
        try:
            while len(heard) < 1 << 16:
                chunk = conn.recv(4096)
                if not chunk:
                    break
                heard += chunk
                message = _unmasked(heard)
                if message.find(CREDENTIAL.encode()) >= 0:
                    # Refused, so that the client ends now rather than wait for an answer.
                    asked = json.loads(message).get("id")
                    refusal = json.dumps({"type": "error", "code": "unauthorized",
                                          "message": "no", "id": asked}).encode()  # fmt: skip
                    conn.sendall(bytes([0x81, len(refusal)]) + refusal)
                    return HEARD
        except OSError:
            pass
        return SILENT


def _unmasked(data: bytes) -> bytes:
    """The payload of the first client frame in `data` (as far as it arrived)."""
    if len(data) < 2:
        return b""
    n, at = data[1] & 0x7F, 2
    if n == 126:
        n, at = int.from_bytes(data[2:4], "big"), 4
    mask = data[at : at + 4]
    body = data[at + 4 : at + 4 + n]
    return bytes(b ^ mask[i % 4] for i, b in enumerate(body)) if len(mask) == 4 else b""


def _play(port: int, host: str = "127.0.0.1", **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "umpire.server.cli", "play", "--url", f"ws://{host}:{port}/ws"],
        input='{"type": "Push"}\n', capture_output=True, text=True, timeout=60, cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "400",
             "UMPIRE_CREDENTIAL": CREDENTIAL, **env},
    )  # fmt: skip


def _heard(
    stranger: LocalUser, host: str = "127.0.0.1", **env: str
) -> tuple[int, subprocess.CompletedProcess[str]]:
    port = free_port()
    pid = stranger.start(lambda: _listener(port, host))
    try:
        wait_for_port(port, host=host)
        played = _play(port, host, **env)
    finally:
        status = os.waitpid(pid, 0)[1]
    return os.waitstatus_to_exitcode(status), played


def test_umpire_play_sends_no_credential_to_another_accounts_listener(
    stranger: LocalUser,
) -> None:
    heard, played = _heard(stranger)
    assert heard == SILENT, played  # before: HEARD, the credential in its auth
    lines = [line for line in played.stderr.splitlines() if line.strip()]
    assert played.returncode == 2 and len(lines) == 1, played
    assert "gateway_not_yours" in lines[0] and f"uid {stranger.uid}" in lines[0], lines
    assert "UMPIRE_GATEWAY_UIDS" in lines[0]


def test_a_gateway_account_named_in_the_environment_is_talked_to(stranger: LocalUser) -> None:
    """The way for a gateway run by a service account: named, it gets the auth."""
    heard, played = _heard(stranger, UMPIRE_GATEWAY_UIDS=str(stranger.uid))
    assert heard == HEARD, played


def _own_address() -> str | None:
    """An address of this host that is not loopback (its address on its network), or
    None: the source address of a route out (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only the route is asked
        except OSError:
            return None
        address: str = probe.getsockname()[0]
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def test_nor_to_one_listening_on_this_hosts_own_address(stranger: LocalUser) -> None:
    """The same listener on the host's network address (the owner's gateway down, or on
    loopback alone, and the client pointed at the host's own name or address): on main
    the check looked at loopback only, and `umpire play` sent it the credential."""
    host = _own_address()
    if host is None:
        pytest.skip("this host has no address but loopback")
    heard, played = _heard(stranger, host)
    assert heard == SILENT, played
    assert played.returncode == 2 and "gateway_not_yours" in played.stderr, played
    assert f"uid {stranger.uid}" in played.stderr, played
