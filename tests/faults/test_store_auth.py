"""The embedded store requires authentication from its first start (server/embedded.py,
server/data_dir.py).

On main the embedded Valkey had no password: the user `nobody` read a game's unrevealed
seed (`umpire:{gid}:secret`) and wrote a credential hash. Here a client without the secret
is refused (NOAUTH), the gateway's own user cannot wipe, reconfigure, debug, load modules
into or stop the server, and another local user can neither read the secret file nor
enter the data directory (checked as `nobody`, in a forked child that drops root)."""

from __future__ import annotations

import json
import os
import pwd
import socket
import stat
from pathlib import Path

import pytest
import redis
from redis.exceptions import AuthenticationError, NoPermissionError, ResponseError

from tests.support.embedded_site import run_cli, start_serve, stop
from umpire.server.config import from_env
from umpire.server.data_dir import SECRET_FILE, read_passwords
from umpire.server.embedded import ADMIN_USER, GATEWAY_DENIED, GATEWAY_USER, with_credentials
from umpire.server.store_access import URL_FILE, make_store


@pytest.fixture
def site(tmp_path: Path):  # type: ignore[no-untyped-def]
    data_dir = tmp_path / "data"
    data_dir.mkdir(mode=0o755)  # a data dir from before: too open, tightened at start
    os.chmod(data_dir, 0o755)
    serve, _ = start_serve(data_dir)
    try:
        code, out, err = run_cli(data_dir, "new", "counter", "--json")
        assert code == 0, err
        yield data_dir, json.loads(out)["game_id"]
    finally:
        stop(serve)


def tcp_url(data_dir: Path) -> str:
    """The store's URL as published (its unix socket: it has no TCP port)."""
    return (data_dir / URL_FILE).read_text().split()[0]


def test_a_client_without_the_secret_is_refused(site: tuple[Path, str]) -> None:
    data_dir, gid = site
    anonymous = redis.Redis.from_url(tcp_url(data_dir))
    with pytest.raises(AuthenticationError):
        anonymous.get(f"umpire:{{{gid}}}:secret")
    with pytest.raises(AuthenticationError):
        anonymous.hset("umpire:credentials", "forged", "player")
    guessing = redis.Redis.from_url(with_credentials(tcp_url(data_dir), GATEWAY_USER, "guess"))
    with pytest.raises(AuthenticationError):
        guessing.ping()
    for user in ("default", ADMIN_USER):  # the default user is off, even with no password
        with pytest.raises(AuthenticationError):
            redis.Redis.from_url(with_credentials(tcp_url(data_dir), user, "")).ping()
    # Raw RESP, as any local tool would speak it: NOAUTH.
    with socket.socket(socket.AF_UNIX) as raw:
        raw.settimeout(5)
        raw.connect(tcp_url(data_dir).removeprefix("unix://").split("?")[0])
        raw.sendall(b"GET umpire:x\r\n")
        assert raw.recv(64).startswith(b"-NOAUTH")


def test_the_gateway_user_cannot_run_admin_commands(site: tuple[Path, str]) -> None:
    data_dir, gid = site
    passwords = read_passwords(data_dir)
    assert passwords is not None
    gateway = redis.Redis.from_url(
        with_credentials(tcp_url(data_dir), GATEWAY_USER, passwords.gateway)
    )
    admin = redis.Redis.from_url(with_credentials(tcp_url(data_dir), ADMIN_USER, passwords.admin))
    assert gateway.exists(f"umpire:{{{gid}}}:events")  # it can do its job
    for command in (["FLUSHALL"], ["CONFIG", "SET", "dir", "/tmp"], ["SHUTDOWN", "NOSAVE"],
                    ["ACL", "SETUSER", "evil", "on"],
                    ["FLUSHDB"], ["REPLICAOF", "127.0.0.1", "1"]):  # fmt: skip
        with pytest.raises(NoPermissionError):
            gateway.execute_command(*command)
    # DEBUG and MODULE are refused by the ACL too (the server also disables both, which
    # answers first): ask the ACL itself.
    for command in (["flushall"], ["config", "get", "dir"], ["debug", "sleep", "0"],
                    ["module", "list"], ["shutdown"]):  # fmt: skip
        assert command[0] in GATEWAY_DENIED
        verdict = admin.execute_command("ACL", "DRYRUN", GATEWAY_USER, *command)
        assert b"no permissions" in verdict, (command, verdict)
    assert admin.execute_command("ACL", "DRYRUN", GATEWAY_USER, "evalsha", "x", "0") == b"OK"
    assert gateway.exists(f"umpire:{{{gid}}}:events")  # nothing was wiped
    for command in (["DEBUG", "SLEEP", "0"], ["MODULE", "LOAD", "/tmp/x.so"]):
        with pytest.raises(ResponseError):
            gateway.execute_command(*command)


def as_nobody(check) -> int:  # type: ignore[no-untyped-def]
    """Run `check` in a forked child that has dropped root for `nobody`; its exit code."""
    nobody = pwd.getpwnam("nobody")
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 99
        try:
            os.setgroups([])
            os.setgid(nobody.pw_gid)
            os.setuid(nobody.pw_uid)
            code = check()
        finally:
            os._exit(code)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def test_another_user_can_neither_read_the_secret_nor_enter_the_data_dir(
    site: tuple[Path, str],
) -> None:
    data_dir, _ = site
    assert stat.S_IMODE(data_dir.stat().st_mode) == 0o700  # tightened from 0755
    assert stat.S_IMODE((data_dir / SECRET_FILE).stat().st_mode) == 0o600
    assert stat.S_IMODE((data_dir / "redis").stat().st_mode) == 0o700
    secret, socket_path = data_dir / SECRET_FILE, data_dir / "redis" / "valkey.sock"
    assert socket_path.exists()

    def attack() -> int:
        refused = 0
        for attempt in (
            lambda: secret.read_bytes(),
            lambda: os.listdir(data_dir),
            lambda: (data_dir / "redis" / "appendonlydir").stat(),
            lambda: socket.socket(socket.AF_UNIX).connect(str(socket_path)),
        ):
            try:
                attempt()
            except PermissionError:
                refused += 1
        return refused

    assert as_nobody(attack) == 4


def test_serve_with_a_redis_url_uses_its_credentials(tmp_path: Path) -> None:
    """An external Redis with an ACL user: the URL's user and password are what the store
    authenticates with, and the password is not printed."""
    from umpire.server.embedded import EmbeddedRedis, StorePasswords

    passwords = StorePasswords(admin="admin-" + "x" * 20, gateway="p@ss/w:rd-" + "y" * 20)
    with EmbeddedRedis(tmp_path / "external", passwords=passwords) as external:
        good = with_credentials(external.url, GATEWAY_USER, passwords.gateway)
        bad = with_credentials(external.url, GATEWAY_USER, "wrong")
        code, out, err = run_cli(tmp_path / "unused", "new", "counter", "--json", REDIS_URL=good)
        assert code == 0, err
        code, out, err = run_cli(tmp_path / "unused", "games", REDIS_URL=bad)
        assert code != 0 and passwords.gateway not in out + err
        serve, _ = start_serve(tmp_path / "unused2", REDIS_URL=good)
        output = stop(serve)
        assert "umpire:***@" in output and passwords.gateway not in output, output


def test_a_rediss_url_gives_redis_py_tls_with_the_urls_credentials() -> None:
    """The bundled Valkey is built without TLS, so TLS is checked where umpire's part ends:
    the URL reaches redis-py as a TLS connection with its user, password and CA options."""
    settings = from_env({}, redis_url="rediss://umpire:s%40cret@redis.example:6380/0"
                        "?ssl_ca_certs=/etc/ca.pem&ssl_cert_reqs=required")  # fmt: skip
    store = make_store(settings.redis_url or "", settings)
    pool = store.redis.connection_pool
    assert pool.connection_class.__name__ == "SSLConnection"
    kwargs = pool.connection_kwargs
    assert (kwargs["username"], kwargs["password"]) == ("umpire", "s@cret")
    assert kwargs["ssl_ca_certs"] == "/etc/ca.pem" and kwargs["ssl_cert_reqs"] == "required"
