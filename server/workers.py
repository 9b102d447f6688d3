"""`umpire serve --workers N`: one parent and N gateway worker processes on one port.

One gateway process uses one core. With N workers the parent owns what there is one of:
the data directory's lock and the embedded Valkey (started once, supervised as before,
server/supervisor.py). It reserves the listening port and starts N worker processes
(`python -m umpire.server.workers`), each a whole gateway that binds the port with SO_REUSEPORT,
so the kernel spreads new connections over the workers' listening sockets (a handed-down
shared socket lets whichever worker wakes first accept a whole burst). Workers hold no
state that matters (docs/scale-out.md): a client of a worker that dies reconnects, lands
on another, resubscribes from its last seq and retries its command id.

The parent supervises them as it supervises Valkey: a worker that exits is restarted
with backoff while it keeps dying. SIGTERM or SIGINT to the parent sends SIGTERM to
every worker, each drains (commands in flight finish and are acknowledged, connections
close with 1001), and only then does the parent stop Valkey. A worker's settings and the
store's URL, which carries the store's password, reach it on its stdin, never on its
command line or in its environment; it dies with the parent (PR_SET_PDEATHSIG).

The parent keeps a private run directory, `<data dir>/run/serve-<its pid>` (0700; those
of parents no longer running are removed at start). /metrics: its `metrics/` directory
is prometheus-client's multiprocess directory (PROMETHEUS_MULTIPROC_DIR, set in each
worker's environment), where each worker's values live, and whichever worker answers
/metrics sums them; the parent marks a dead worker's gauges dead (server/metrics.py).
/healthz: the parent writes its store supervisor's state there as it changes, so a
worker names a restart in progress at once (server/store_status.py). Each worker holds
1/N of every client budget (server/admission.py, `Budgets.share`), so the N workers
together give the documented budgets.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import logging
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from umpire.engine import registry
from umpire.server import app, background
from umpire.server.app import SWITCH_INTERVAL, listen_failure, serve_forever
from umpire.server.config import Settings
from umpire.server.embedded import EmbeddedRedis
from umpire.server.metrics import MULTIPROC_ENV, WorkerShare, mark_dead, metrics_dir
from umpire.server.public_address import published_gateway, viewer_address
from umpire.server.store_access import DataDirInUse, embedded_server, redacted, store_url
from umpire.server.store_status import StoreStatus

log = logging.getLogger("umpire.workers")

MAX_DEFAULT_WORKERS = 8  # past this the one Valkey, not the gateways, sets the pace
POLL_SECONDS = 0.1
FIRST_DELAY = 0.1
MAX_DELAY = 5.0
STABLE_SECONDS = 10.0  # a worker that lived this long resets its backoff
# A worker's drain: commands in flight (10 s), the close handshakes, a margin.
DRAIN_SECONDS = 30.0
# The banner waits this long at most for a worker to listen (a loaded host took 6 s for
# two); past it, it is printed all the same, and the log says what the workers do.
READY_SECONDS = 60.0
PR_SET_PDEATHSIG = 1


def default_workers() -> int:
    """The number of cores this process may run on, at most MAX_DEFAULT_WORKERS."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_DEFAULT_WORKERS))


def reserve_port(host: str, port: int) -> socket.socket:
    """A socket bound (not listening) to `host:port` with SO_REUSEPORT: it fixes a port 0
    to one number for every worker, and holds the port while workers restart. Only
    listening sockets take connections, so it never takes one itself."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    if port:
        _check_free(family, kind, proto, address)
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(address)
    except BaseException:
        sock.close()
        raise
    return sock


def _check_free(family: int, kind: int, proto: int, address: Any) -> None:
    """OSError (EADDRINUSE) when something listens on `address` already. Bound without
    SO_REUSEPORT, which a listener of this account's would let this parent join: another
    `umpire serve` on the port (its workers bind with SO_REUSEPORT) was joined silently,
    and the kernel then gave each server part of the other's clients, which found their
    credentials unknown or their games made in the other store. SO_REUSEADDR still: a
    connection of the last run in TIME_WAIT does not hold the port."""
    probe = socket.socket(family, kind, proto)
    with probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(address)


RUN_DIR = "run"
RUN_PREFIX = "serve-"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another account's process: alive
        return True
    return True


def run_dir(data_dir: Path) -> Path:
    """A new private run directory for this parent, `<data dir>/run/serve-<pid>` with its
    `metrics/` (0700), after removing those of parents no longer running. Under a temporary
    directory instead when the data directory cannot hold one (a read-only disk)."""
    try:
        base = Path(data_dir) / RUN_DIR
        base.mkdir(mode=0o700, parents=True, exist_ok=True)
        held = os.lstat(base)
        if not stat.S_ISDIR(held.st_mode) or held.st_uid != os.getuid():
            raise PermissionError(f"{base} is not this user's directory")
        os.chmod(base, 0o700)
        for entry in base.iterdir():
            number = entry.name.removeprefix(RUN_PREFIX)
            if entry.name.startswith(RUN_PREFIX) and number.isdigit() and not _alive(int(number)):
                shutil.rmtree(entry, ignore_errors=True)
        mine = base / f"{RUN_PREFIX}{os.getpid()}"
        shutil.rmtree(mine, ignore_errors=True)
        mine.mkdir(mode=0o700)
    except OSError as exc:
        log.warning("run directory under %s: %s; using a temporary one", data_dir, exc)
        mine = Path(tempfile.mkdtemp(prefix="umpire-workers-"))  # 0700
    metrics_dir(mine).mkdir(mode=0o700)
    return mine


def _dies_with(parent: int) -> Callable[[], None]:
    def prepare() -> None:  # runs in the child between fork and exec
        with contextlib.suppress(Exception):
            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:  # the parent died before the prctl
            os._exit(1)
        # Out of the terminal's process group: Ctrl-C reaches the parent alone, which then
        # drains the workers in order.
        os.setpgrp()

    return prepare


class Worker:
    """One worker process slot: its number, its current process and its backoff."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.process: subprocess.Popen[bytes] | None = None
        self.started = 0.0
        self.delay = FIRST_DELAY
        self.restarts = 0


class Workers:
    """The parent's watch over its worker processes."""

    def __init__(self, settings: Settings, url: str, share_dir: Path, count: int) -> None:
        self.settings = settings
        self.url = url
        self.share_dir = share_dir
        self.slots = [Worker(number) for number in range(count)]
        self.stopping = False
        self._task: asyncio.Task[None] | None = None

    def spawn(self, slot: Worker) -> None:
        """Start `slot`'s process and hand it its settings and the store URL on stdin."""
        process = subprocess.Popen(
            [sys.executable, "-m", "umpire.server.workers"],
            stdin=subprocess.PIPE,
            preexec_fn=_dies_with(os.getpid()),
            # Before the worker imports prometheus-client: its multiprocess mode.
            env={**os.environ, MULTIPROC_ENV: str(metrics_dir(self.share_dir))},
        )
        launch = {
            "worker": slot.number,
            "workers": len(self.slots),
            "settings": self.settings.model_dump(mode="json"),
            "url": self.url,
            "share_dir": str(self.share_dir),
        }
        assert process.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            process.stdin.write(json.dumps(launch).encode())
        with contextlib.suppress(BrokenPipeError):
            process.stdin.close()
        slot.process = process
        slot.started = time.monotonic()

    def start(self) -> None:
        """Start every worker and the watch (in the running event loop)."""
        for slot in self.slots:
            self.spawn(slot)
        self._task = asyncio.get_running_loop().create_task(self._watch(), name="workers")

    async def listening(self, host: str, port: int) -> None:
        """Return once a worker accepts connections on `port` (or after READY_SECONDS):
        the banner says "serving", and a script that waits for it then connects, as
        tests/server/test_serve_banner.py does. The parent's reserved socket never
        listens, so a connection that succeeds reached a worker."""
        here = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline:
            try:
                _, writer = await asyncio.open_connection(here, port)
            except OSError:
                await asyncio.sleep(0.05)
                continue
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()
            return

    def pids(self) -> list[int]:
        """The worker processes' pids (the live ones)."""
        return [s.process.pid for s in self.slots if s.process and s.process.poll() is None]

    async def _watch(self) -> None:
        due: dict[int, float] = {}  # worker number -> when to start it again
        while True:
            await asyncio.sleep(POLL_SECONDS)
            now = time.monotonic()
            for slot in self.slots:
                process = slot.process
                if process is None or self.stopping:
                    continue
                if process.poll() is None:  # poll() reaps a dead worker
                    continue
                if slot.number not in due:
                    mark_dead(process.pid, self.share_dir)  # its open connections are gone
                    if now - slot.started >= STABLE_SECONDS:
                        slot.delay = FIRST_DELAY
                    log.error(
                        "worker %d (pid %d) exited with status %s; restarting it in %.1f s",
                        slot.number,
                        process.pid,
                        process.returncode,
                        slot.delay,
                    )
                    due[slot.number] = now + slot.delay
                    slot.delay = min(slot.delay * 2, MAX_DELAY)
                elif now >= due[slot.number]:
                    del due[slot.number]
                    self.spawn(slot)
                    slot.restarts += 1
                    assert slot.process is not None
                    log.warning("worker %d restarted (pid %d)", slot.number, slot.process.pid)

    async def stop(self) -> None:
        """SIGTERM every worker and wait while they drain (SIGKILL one that overstays)."""
        self.stopping = True
        if self._task is not None:
            await background.stop(self._task)  # a cancellation of stop() itself propagates
        running = [s.process for s in self.slots if s.process and s.process.poll() is None]
        for process in running:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + DRAIN_SECONDS
        for process in running:
            while process.poll() is None and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            if process.poll() is None:
                log.error("worker pid %d did not drain in %g s: killed", process.pid,
                          DRAIN_SECONDS)  # fmt: skip
                process.kill()
                process.wait(5)


async def supervise(
    settings: Settings, url: str, embedded: EmbeddedRedis | None, count: int
) -> None:
    """The parent's life: workers (and the embedded Valkey) watched until SIGTERM/SIGINT,
    then the workers drained."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    supervisor = app.supervised_store(settings, embedded)
    share_dir = run_dir(settings.data_dir)
    if supervisor is not None:  # no await since it started: no change missed
        supervisor.on_change = StoreStatus(share_dir).publish
    workers = Workers(settings, url, share_dir, count)
    try:
        workers.start()
        await workers.listening(settings.host, settings.port)
        store = f"embedded Valkey, {embedded.url}" if embedded else redacted(url)
        # Before the banner: a reader who sees the banner has seen the warning.
        if (warning := app.exposure_warning(settings.host)) is not None:
            print(warning, file=sys.stderr, flush=True)
        pids = " ".join(map(str, workers.pids()))
        print(
            app.banner(settings, settings.port, f"store {store}, {count} workers: pids {pids}"),
            flush=True,
        )
        # `umpire new`'s viewer link names this server (server/public_address.py).
        address = viewer_address(settings.host, settings.port, settings.allowed_hosts)
        with published_gateway(settings.data_dir, address):
            await stop.wait()
        print("umpire: shutting down (draining the workers)", flush=True)
        await workers.stop()
    finally:
        with contextlib.suppress(Exception):
            await workers.stop()
        if supervisor is not None:
            await supervisor.stop()
        shutil.rmtree(share_dir, ignore_errors=True)


def cmd_serve(settings: Settings, args: object) -> int:
    """`umpire serve` (server/cli.py): its options are already in `settings`."""
    return serve(settings)


def serve(settings: Settings) -> int:
    """Entry point of `umpire serve`: one gateway process with `--workers 1`, else a
    parent and `settings.workers` workers (default: the cores, at most 8)."""
    count = settings.workers or default_workers()
    if count == 1:
        return app.run(settings)
    return run(settings, count)


def run(settings: Settings, count: int) -> int:
    """`umpire serve --workers N`, N > 1: the parent."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    try:
        reserved = reserve_port(settings.host, settings.port)
    except OSError as exc:
        line = listen_failure(settings, exc)
        if line is None:
            raise
        print(line, file=sys.stderr, flush=True)
        return 1
    with reserved:
        settings = settings.model_copy(update={"port": reserved.getsockname()[1]})
        try:
            with embedded_server(settings) as server:
                asyncio.run(supervise(settings, store_url(settings, server), server, count))
        except DataDirInUse as exc:
            print(f"umpire: {exc}", file=sys.stderr, flush=True)
            return 1
    return 0


def worker_main() -> int:
    """A worker process: its launch on stdin, then one gateway until SIGTERM."""
    launch: dict[str, Any] = json.loads(sys.stdin.buffer.read())
    number = int(launch["worker"])
    logging.basicConfig(
        level=logging.INFO, format=f"%(asctime)s worker {number} %(name)s %(message)s"
    )
    settings = Settings.model_validate(launch["settings"])
    # A worker runs the rules in threads as `umpire serve` alone does: the same 1-ms
    # switch interval keeps its other games' answers prompt (server/app.py `run`, issue 32).
    sys.setswitchinterval(SWITCH_INTERVAL)
    for spec in settings.extra_rulesets:  # as `umpire serve` itself loaded them
        registry.load_module(spec)
    share = WorkerShare(Path(launch["share_dir"]), number, int(launch.get("workers", 1)))
    if os.environ.get(MULTIPROC_ENV) != str(share.metrics_dir):
        # prometheus-client chose its mode when it was imported: from this variable only.
        print(f"umpire worker: {MULTIPROC_ENV} must be {share.metrics_dir}", file=sys.stderr)
        return 1
    try:
        import uvloop  # optional extra: umpire[fast]

        runner = uvloop.run
    except ImportError:
        runner = asyncio.run
    runner(serve_forever(settings, launch["url"], None, share=share))
    return 0


if __name__ == "__main__":
    sys.exit(worker_main())
