"""Another local user cannot take the embedded store (docs/security.md, "Other local
users", attacks (c) and (d); (a) and (b) are in test_store_supervision.py).

A second account is created for each test (tests/support/local_user.py). On main: a data
directory reached through that user's symlink was accepted, and re-pointed later the
store was served from their directory; and idle TCP connections to Valkey's loopback
port used up its clients. Here the path is refused, the store directory is held by
descriptor, and there is no port: the socket refuses them."""

from __future__ import annotations

import asyncio
import errno
import os
import signal
import socket
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.embedded_site import run_cli, start_serve, stop, tcp_listeners, valkey_pids
from tests.support.local_user import LocalUser, other_user
from umpire.server.store_access import URL_FILE, answers
from umpire.testing.support.gateways import http_get
from umpire.testing.support.nonces import nonce_of
from umpire.testing.support.peer import Peer

RESTORED_WITHIN = 15.0


@pytest.fixture
def stranger() -> Iterator[LocalUser]:
    with other_user() as user:
        yield user


@pytest.fixture
def open_tmp() -> Iterator[Path]:
    """A directory every user may enter (as a home directory is), owned by us: what is
    refused inside it is refused by the data directory's own protection."""
    path = Path(tempfile.mkdtemp(prefix="umpire-users-", dir="/tmp"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        for entry in sorted(path.rglob("*"), key=lambda p: -len(p.parts)):
            if entry.is_symlink() or not entry.is_dir():
                entry.unlink()
            else:
                entry.rmdir()
        path.rmdir()


def _one_line(code: int, err: str) -> str:
    assert code == 2 and "Traceback" not in err, err
    (line,) = [line for line in err.splitlines() if line.strip()]
    return line


def test_a_data_dir_through_another_users_directory_or_symlink_is_refused(
    stranger: LocalUser, open_tmp: Path
) -> None:
    """Attack (c): the path reaches our data directory through something another user
    controls, which they could re-point at a directory of theirs later."""
    ours = open_tmp / "ours"
    ours.mkdir(mode=0o700)
    # Through a directory of theirs (they can replace the link inside it at will).
    theirs = open_tmp / "theirs"
    theirs.mkdir(mode=0o755)
    os.chown(theirs, stranger.uid, stranger.gid)
    (theirs / "link").symlink_to(ours / "data")
    os.lchown(theirs / "link", stranger.uid, stranger.gid)
    line = _one_line(*run_cli(theirs / "link", "games", COLUMNS="400")[:3:2])
    assert f"{theirs} belongs to another user (uid {stranger.uid})" in line, line
    # Their symlink in a sticky, world-writable directory (as /tmp).
    sticky = open_tmp / "sticky"
    sticky.mkdir()
    sticky.chmod(0o1777)
    (sticky / "link").symlink_to(ours / "data")
    os.lchown(sticky / "link", stranger.uid, stranger.gid)
    line = _one_line(*run_cli(sticky / "link", "games", COLUMNS="400")[:3:2])
    assert f"{sticky / 'link'} belongs to another user (uid {stranger.uid})" in line, line
    # A directory on the way that others may write, with no sticky bit: anyone can rename
    # our entry in it and put theirs in its place.
    shared = ours / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    line = _one_line(*run_cli(shared / "data", "games", COLUMNS="400")[:3:2])
    assert f"{shared} may be written by other users" in line, line
    assert not (ours / "data").exists() and list(shared.iterdir()) == []  # nothing made
    # Our own symlink, through directories only we control: accepted, resolved once.
    (ours / "mine").symlink_to(ours / "data")
    code, _, err = run_cli(ours / "mine", "games")
    assert code == 0, err
    assert (ours / "data" / "redis" / "appendonlydir").is_dir()


async def test_the_store_stays_in_the_directory_it_opened_when_the_path_is_re_pointed(
    open_tmp: Path,
) -> None:
    """The store directory is held by descriptor: re-pointing the data directory's path
    (here by its owner: no other user can, as above) and killing Valkey does not move the
    store. The restarted Valkey works in the directory opened at start, and redis.url is
    written there. On main the restart went wherever the path pointed then."""
    first, second = open_tmp / "first", open_tmp / "second"
    first.mkdir(mode=0o700)
    second.mkdir(mode=0o700)
    link = open_tmp / "data"
    link.symlink_to(first)
    serve, port = start_serve(link)
    try:
        player = await Peer.open(f"ws://127.0.0.1:{port}/ws")
        created = await player.ok({"type": "create", "ruleset": "counter", "setup": {}})
        gid = created["game_id"]
        link.unlink()
        link.symlink_to(second)
        (valkey,) = valkey_pids(first)
        os.kill(valkey, signal.SIGKILL)
        deadline = time.monotonic() + RESTORED_WITHIN
        while True:
            reply = await player.request(
                {"type": "command", "game_id": gid, "command_id": "after",
                 "nonce": nonce_of("after"),
                 "command": {"type": "Add", "amount": 1}}, timeout=15,
            )  # fmt: skip
            if reply["type"] == "accepted":
                break
            assert reply["code"] == "store_unavailable" and time.monotonic() < deadline, reply
            await asyncio.sleep(0.1)
        assert len(valkey_pids(first)) == 1 and valkey_pids(second) == []
        assert list(second.iterdir()) == []
        assert (first / URL_FILE).exists()
        await player.close()
    finally:
        stop(serve)


async def test_another_user_can_neither_connect_to_the_store_nor_use_up_its_clients(
    stranger: LocalUser, open_tmp: Path
) -> None:
    """Attack (d): on main 10,050 idle unauthenticated TCP connections to Valkey's port
    used up its clients (creates got `store_unavailable`, /healthz said ok). Here Valkey
    has no TCP port, and its socket, in the owner's 0700 directory, refuses another user:
    every one of their attempts fails, and the owner's creates and /healthz are served."""
    data_dir = open_tmp / "data"
    serve, port = start_serve(data_dir)
    try:
        (valkey,) = valkey_pids(data_dir)
        assert tcp_listeners(valkey) == []
        socket_path = str(data_dir / "redis" / "valkey.sock")

        def flood() -> int:
            held, refused = [], 0
            for _ in range(200):
                sock = socket.socket(socket.AF_UNIX)
                try:
                    sock.connect(socket_path)
                    held.append(sock)
                except OSError as exc:
                    refused += exc.errno == errno.EACCES
                    sock.close()
            return 0 if (refused == 200 and not held) else 1

        assert stranger.run(flood) == 0
        player = await Peer.open(f"ws://127.0.0.1:{port}/ws")
        for _ in range(5):
            await player.ok({"type": "create", "ruleset": "counter", "setup": {}})
        status, body = await http_get(port, "/healthz")
        assert status == 200, body
        await player.close()
    finally:
        stop(serve)


async def test_a_cli_command_sends_no_password_to_another_users_socket(
    stranger: LocalUser, open_tmp: Path
) -> None:
    """A published socket path that names another user's listener (a long data directory
    is reached through /proc/<pid>/fd/N of the server's owner; with that pid reused after a
    death, it would name whatever the new process holds) is sent nothing: the CLI's probe
    checks the listener runs as this user (SO_PEERCRED) before redis-py authenticates."""
    shared = open_tmp / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    path = shared / "theirs.sock"
    ready_r, ready_w = os.pipe()
    heard_r, heard_w = os.pipe()

    def listen() -> int:
        os.close(ready_r)
        os.close(heard_r)
        with socket.socket(socket.AF_UNIX) as listener:
            listener.bind(str(path))
            os.chmod(path, 0o777)
            listener.listen()
            os.write(ready_w, b"1")
            listener.settimeout(10)
            connection, _ = listener.accept()
            with connection:
                connection.settimeout(2)
                heard = b""
                try:
                    while chunk := connection.recv(1024):
                        heard += chunk
                except OSError:
                    pass
            os.write(heard_w, heard or b"-")
        return 0

    pid = stranger.start(listen)  # the stranger's listener, in a child that drops root
    os.close(ready_w)
    os.close(heard_w)
    assert os.read(ready_r, 1) == b"1"
    assert await answers(f"unix://umpire:secret-password@{path}?db=0") is False
    assert os.read(heard_r, 4096) == b"-"  # not a byte: no AUTH
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
