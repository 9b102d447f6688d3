"""The readiness probe of the embedded Valkey (server/embedded.py `_answers`) sends the
admin password only to the child it started: the socket's peer is checked first
(SO_PEERCRED). On main the probe authenticated to whatever listened on the port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

from umpire.server.embedded import SOCKET_FILE, EmbeddedRedis, StorePasswords


def test_the_probe_sends_no_password_to_a_listener_that_is_not_its_child(tmp_path: Path) -> None:
    passwords = StorePasswords(admin="admin-secret-" + "a" * 20, gateway="g" * 32)
    server = EmbeddedRedis(tmp_path / "store", passwords=passwords)
    heard: list[bytes] = []
    with socket.socket(socket.AF_UNIX) as squatter:
        squatter.bind(str(server.held / SOCKET_FILE))
        squatter.listen()

        def listen() -> None:
            connection, _ = squatter.accept()
            with connection:
                connection.settimeout(2)
                try:
                    while chunk := connection.recv(1024):
                        heard.append(chunk)
                except OSError:
                    pass

        listening = threading.Thread(target=listen)
        listening.start()
        # A child of ours, but not the one that listens: as after a death, when another
        # process bound the address first.
        server.process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
        try:
            assert server._answers() is False
        finally:
            server.process.kill()
            server.process.wait()
        listening.join(5)
    assert b"".join(heard) == b""  # not a byte: no AUTH, no PING


def test_a_data_dir_too_long_for_a_socket_path_is_reached_through_its_descriptor(
    tmp_path: Path,
) -> None:
    """sun_path holds 108 bytes. A longer data directory is published as
    /proc/<pid>/fd/<fd>/valkey.sock, through the owner's descriptor, which another
    process of the same user (a worker, a CLI command) can connect through. On main such
    a directory fell back to loopback TCP."""
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    with EmbeddedRedis(deep, passwords=None) as server:
        assert server.url.startswith(f"unix:///proc/{os.getpid()}/fd/"), server.url
        asked = subprocess.run(
            [sys.executable, "-c",
             "import sys, redis; print(redis.Redis.from_url(sys.argv[1]).ping())", server.url],
            capture_output=True, text=True, timeout=30,
        )  # fmt: skip
        assert asked.stdout.strip() == "True", asked.stderr
        assert (deep / SOCKET_FILE).exists()
