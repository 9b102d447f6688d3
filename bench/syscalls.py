"""What the kernel sees of one lone move: umpire beside the floor, counted by strace.

`python -m bench.syscalls [--moves N] [--servers umpire,floor] [--workers 2] [--fsync
everysec] [--no-strace]` starts each server as the peer bench does (`umpire serve`, or
`bench/floor.py --store`; each with its embedded Valkey, `UMPIRE_WORKERS` workers), makes
a Downtown game as the peer bench's umpire adapter does (`create`, `bind_seed`, then the
player's `auth` on a second socket), plays 200 warm-up moves and then N lone moves, one
after another from one client (the `seq` scenario's `RollDice` d6 with a fresh nonce), and
prints per move, side by side:

- the wall time (p50, untraced: a direction on a shared machine, not the peer bench's);
- the event loop's turns (asyncio's `_run_once`), handles run, timers made and wake-ups
  from other threads (`call_soon_threadsafe`) in each Python process: counted by a
  `sitecustomize` this script puts on the servers' PYTHONPATH, never by the product;
- the system calls of each process (the worker that served the client, the other
  workers, the parent, Valkey) by kind, under `strace -f` for another N moves: the
  epoll waits, the futex calls, the writes and reads by what they touch (the client's
  socket, the store's, the loop's own self-pipe, files), and their bytes.

strace slows every system call, so under it a move takes several times longer: the
counts are what a move asks of the kernel, not what it costs. The calls of an idle
server (timers, the loop's periodic work) are printed too, per second, with the
straced window's length, so a reader can tell a move's calls from the clock's.

Needs strace (Debian: `apt-get install strace`) and Linux's /proc. `--no-strace` gives the
turns and the wall time alone. Rerun both sides with the same N; the figures are
per move, so N trades time for the share of the idle calls.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import fcntl
import json
import os
import re
import secrets
import select
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from umpire.server.embedded import free_port
from umpire.server.head_checkpoints import HeadCheckpoints

REPO = Path(__file__).resolve().parents[1]
WARM_UP = 200
MOVE = {"type": "RollDice", "dice": "d6", "purpose": "bench"}

# Put first on the servers' PYTHONPATH: counts the loop's turns in every Python process
# they start, and writes the counts to UMPIRE_BENCH_TURNS/<pid>.json at each SIGUSR2
# (the product neither has nor needs this: a bench-only patch of asyncio's loop).
_SITECUSTOMIZE = """
import os
if os.environ.get("UMPIRE_BENCH_TURNS"):
    import asyncio.base_events as _be
    import asyncio.events as _ev
    import json as _json
    import signal as _signal

    _counts = {"turns": 0, "handles": 0, "timers": 0, "threadsafe": 0, "read": 0}
    _run_once = _be.BaseEventLoop._run_once
    _call_at = _be.BaseEventLoop.call_at
    _threadsafe = _be.BaseEventLoop.call_soon_threadsafe
    _handle_run = _ev.Handle._run

    _shown = []  # with UMPIRE_BENCH_HANDLES: each turn's callbacks, the last 400 turns
    _trace = bool(os.environ.get("UMPIRE_BENCH_HANDLES"))

    def _counted_run_once(self):
        _counts["turns"] += 1
        if _trace:
            _shown.append([])
            del _shown[:-400]
        return _run_once(self)

    def _counted_call_at(self, *args, **kwargs):
        _counts["timers"] += 1
        return _call_at(self, *args, **kwargs)

    def _counted_threadsafe(self, *args, **kwargs):
        _counts["threadsafe"] += 1
        return _threadsafe(self, *args, **kwargs)

    def _counted_handle(self):
        _counts["handles"] += 1
        if _trace and _shown:
            callback = self._callback
            owner = getattr(callback, "__self__", None)
            coro = getattr(owner, "get_coro", lambda: None)()
            name = getattr(coro, "__qualname__", None) or getattr(
                callback, "__qualname__", repr(callback))
            _shown[-1].append(name)
        return _handle_run(self)

    _be.BaseEventLoop._run_once = _counted_run_once
    _be.BaseEventLoop.call_at = _counted_call_at
    _be.BaseEventLoop.call_soon_threadsafe = _counted_threadsafe
    _ev.Handle._run = _counted_handle

    def _dump(signum, frame):
        _counts["read"] += 1
        path = os.path.join(os.environ["UMPIRE_BENCH_TURNS"], f"{os.getpid()}.json")
        with open(path + ".tmp", "w") as out:
            _json.dump({**_counts, "shown": _shown[-60:]}, out)
        os.replace(path + ".tmp", path)

    _signal.signal(_signal.SIGUSR2, _dump)
"""

# The lifted budgets of ../shared/peer-bench's umpire-server.js: one client, many moves.
_LIFTED = {
    "UMPIRE_MAX_MESSAGES_PER_SECOND": "100000", "UMPIRE_MAX_BURST": "100000",
    "UMPIRE_COST_PER_SECOND": "1000000", "UMPIRE_COST_BURST": "1000000",
    "UMPIRE_ADDRESS_COST_PER_SECOND": "1000000", "UMPIRE_ADDRESS_COST_BURST": "1000000",
    "UMPIRE_CREATES_PER_MINUTE": "100000", "UMPIRE_CREATE_BURST": "100000",
}  # fmt: skip


class Server:
    """One server under test (umpire or the floor) and its process tree."""

    def __init__(
        self, kind: str, tmp: Path, workers: int, fsync: str, umpire: str, handles: bool
    ) -> None:
        self.kind = kind
        self.port = free_port()
        site = tmp / "site"
        site.mkdir(exist_ok=True)
        (site / "sitecustomize.py").write_text(_SITECUSTOMIZE)
        self.turns_dir = tmp / "turns"
        self.turns_dir.mkdir(exist_ok=True)
        env = {
            **os.environ,
            **_LIFTED,
            "UMPIRE_PORT": str(self.port),
            "UMPIRE_DATA_DIR": str(tmp / "data"),
            "UMPIRE_APPENDFSYNC": fsync,
            "UMPIRE_WORKERS": str(workers),
            "UMPIRE_BENCH_TURNS": str(self.turns_dir),
            "UMPIRE_BENCH_HANDLES": "1" if handles else "",
            "PYTHONPATH": os.pathsep.join([str(site), str(REPO)]),
        }
        env.pop("REDIS_URL", None)  # each starts its own embedded Valkey
        if kind == "umpire":
            args = [umpire, "serve"]
        else:
            args = [sys.executable, "-m", "bench.floor", "--store", "--workers", str(workers)]
        self.log = open(tmp / f"{kind}.log", "wb")  # noqa: SIM115
        self.process = subprocess.Popen(
            args, cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=self.log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        self._wait_healthy()

    def _wait_healthy(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.kind} exited with {self.process.returncode}")
            with contextlib.suppress(OSError):
                url = f"http://127.0.0.1:{self.port}/healthz"
                with urllib.request.urlopen(url, timeout=1) as response:
                    if response.status == 200:
                        return
            time.sleep(0.1)
        raise TimeoutError(f"{self.kind} did not answer /healthz in {timeout} s")

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def tree(self) -> dict[int, str]:
        """Every process of the server by pid, named by its role: `parent`, `worker`
        (a Python process with no Python children), `valkey`."""
        children: dict[int, list[int]] = collections.defaultdict(list)
        names: dict[int, str] = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            with contextlib.suppress(OSError):
                stat = (entry / "stat").read_text()
                names[int(entry.name)] = stat[stat.index("(") + 1 : stat.rindex(")")]
                children[int(stat.rsplit(")", 1)[1].split()[1])].append(int(entry.name))
        found: dict[int, str] = {}
        todo = [self.process.pid]
        while todo:
            pid = todo.pop()
            todo.extend(children.get(pid, []))
            if "valkey" in names.get(pid, "") or "redis" in names.get(pid, ""):
                found[pid] = "valkey"
            elif any("valkey" not in names.get(c, "") for c in children.get(pid, [])):
                found[pid] = "parent"
            else:
                found[pid] = "worker"
        return found

    def python_pids(self) -> list[int]:
        return [pid for pid, role in self.tree().items() if role != "valkey"]

    def turns(self) -> dict[int, dict[str, Any]]:
        """Each Python process's loop counts now (asked by SIGUSR2, read back)."""
        pids = self.python_pids()
        before = {pid: self._read_turns(pid) for pid in pids}
        for pid in pids:
            os.kill(pid, signal.SIGUSR2)
        counts: dict[int, dict[str, Any]] = {}
        deadline = time.monotonic() + 10
        while len(counts) < len(pids) and time.monotonic() < deadline:
            for pid in pids:
                now = self._read_turns(pid)
                if now is not None and now["read"] > (before[pid] or {"read": 0})["read"]:
                    counts[pid] = now
            time.sleep(0.01)
        return counts

    def _read_turns(self, pid: int) -> dict[str, Any] | None:
        with contextlib.suppress(OSError, ValueError):
            loaded: dict[str, Any] = json.loads((self.turns_dir / f"{pid}.json").read_text())
            return loaded
        return None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.log.close()


def _threads_cpu(pids: list[int]) -> dict[tuple[int, int], tuple[str, float, float]]:
    """Each thread's (name, user seconds, system seconds) so far, by (pid, tid)."""
    tick = os.sysconf("SC_CLK_TCK")
    found = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{pid}/task").iterdir():
                with contextlib.suppress(OSError):
                    stat = (task / "stat").read_text()
                    name = stat[stat.index("(") + 1 : stat.rindex(")")]
                    fields = stat.rsplit(")", 1)[1].split()
                    found[(pid, int(task.name))] = (
                        name,
                        int(fields[11]) / tick,
                        int(fields[12]) / tick,
                    )
    return found


def _request(ws: ClientConnection, message: dict[str, Any]) -> dict[str, Any]:
    """Send `message`; the reply with its id (a welcome or other frames are skipped)."""
    ws.send(json.dumps(message))
    while True:
        reply: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if reply.get("id") == message["id"]:
            if reply.get("type") == "error":
                raise RuntimeError(f"{message['type']}: {reply}")
            return reply


class Player:
    """The peer bench's umpire adapter, in Python: a game made on one socket, its moves
    sent by the player on another, one at a time."""

    def __init__(self, url: str) -> None:
        with connect(url, compression=None) as setup:
            created = _request(setup, {"type": "create", "ruleset": "downtown", "setup": {},
                                       "id": "c"})  # fmt: skip
            self.game_id = created["game_id"]
            _request(setup, {"type": "bind_seed", "game_id": self.game_id,
                             "client_seed": f"bench-{os.getpid()}", "id": "b"})  # fmt: skip
        self.stack = contextlib.ExitStack()
        self.ws = self.stack.enter_context(connect(url, compression=None, max_size=None))
        _request(self.ws, {"type": "auth", "id": "a",
                           "credential": created["player_credential"]})  # fmt: skip
        self.sent = 0

    def moves(self, count: int) -> list[float]:
        """`count` moves, each sent once the last one's `accepted` came: their times."""
        times = []
        for _ in range(count):
            self.sent += 1
            command = json.dumps({
                "type": "command", "id": "k", "game_id": self.game_id,
                "command_id": f"b{os.getpid()}-{self.sent}", "nonce": secrets.token_hex(16),
                "command": MOVE,
            })  # fmt: skip
            started = time.perf_counter()
            self.ws.send(command)
            while True:
                reply = json.loads(self.ws.recv(timeout=30))
                if reply.get("id") == "k":
                    break
            times.append(time.perf_counter() - started)
            if reply.get("type") != "accepted":
                raise RuntimeError(f"move {self.sent}: {reply}")
        return times

    def close(self) -> None:
        self.stack.close()


# One line of `strace -yy -s 0` output: the call, its arguments and its result.
_LINE = re.compile(r"^(\w+)\((.*)\)\s+=\s+(-?\d+|\?|0x[0-9a-f]+)")
_FD = re.compile(r"^(\d+)<(.+?)>(?:,|$)")
_PEER = re.compile(r"^UNIX[-A-Z]*:\[(\d+)->(\d+)")
_WRITES = {"write", "writev", "sendto", "sendmsg", "send", "pwrite64"}
_READS = {"read", "readv", "recvfrom", "recvmsg", "recv", "pread64"}

# A call as the report counts it: its name, what its first argument's descriptor is
# (`_fd_kind`), its result, and for `epoll_wait` whether it was allowed to wait.
Call = tuple[str, str, int, bool]


def parse_line(line: str, port: int, role: str, own: set[str]) -> Call | None:
    """One line of a thread's `strace -yy -s 0` file as a `Call` (None: not a finished
    call, e.g. a signal). `port`: the server's; `role`: the process's (`valkey` or not);
    `own`: the inodes of the process's own sockets (a unix socket whose other end is
    one of them is asyncio's self-pipe)."""
    match = _LINE.match(line)
    if match is None:
        return None
    name, args, result = match.groups()
    fd = _FD.match(args)
    kind = _fd_kind(fd.group(2), port, role, own) if fd else ""
    value = int(result) if result.lstrip("-").isdigit() else 0
    return name, kind, value, name == "epoll_wait" and not args.rstrip().endswith(", 0")


def _fd_kind(description: str, port: int, role: str, own: set[str]) -> str:
    """What a descriptor is: `client` (a player's socket, or in Valkey a worker's),
    `store` (a worker's socket to Valkey), `self-pipe` (the loop's wake-up socketpair),
    `epoll`, `eventfd`, `pipe`, `file`."""
    if description.startswith(("TCP:", "TCPv6:")):
        return "client" if role == "valkey" or f":{port}" in description else "tcp"
    if description.startswith("UNIX"):
        peer = _PEER.match(description)
        if peer is not None and peer.group(2) in own:
            return "self-pipe"
        return "client" if role == "valkey" else "store"
    if "eventpoll" in description:
        return "epoll"
    if "eventfd" in description:
        return "eventfd"
    if description.startswith("pipe:"):
        return "pipe"
    if description.startswith("/"):
        return "file"
    return description.split(":", 1)[0]


def own_sockets(pid: int) -> set[str]:
    """The inodes of the sockets `pid` holds now."""
    inodes: set[str] = set()
    with contextlib.suppress(OSError):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                link = os.readlink(fd)
                if link.startswith("socket:["):
                    inodes.add(link[8:-1])
    return inodes


def tally(calls: list[Call]) -> collections.Counter[str]:
    """Counts of a process's calls: `calls` (all of them), each call's name, `name:kind`,
    `bytes out:kind` and `bytes in:kind` (what its writes and reads moved),
    `epoll_wait waited` (a wait that could block: a wake-up) and `epoll_wait (no wait)`
    (a turn that had work ready)."""
    counter: collections.Counter[str] = collections.Counter()
    for name, kind, result, waited in calls:
        counter["calls"] += 1
        counter[name] += 1
        if kind:
            counter[f"{name}:{kind}"] += 1
        if name in _WRITES and result > 0:
            counter[f"bytes out:{kind}"] += result
        if name in _READS and result > 0:
            counter[f"bytes in:{kind}"] += result
        if name == "epoll_wait":
            counter["epoll_wait waited" if waited else "epoll_wait (no wait)"] += 1
    return counter


class Trace:
    """strace attached to every thread of the given processes, writing one file a thread."""

    def __init__(self, pids: list[int], out: Path) -> None:
        self.out = out
        out.mkdir(parents=True, exist_ok=True)
        self.threads: dict[int, int] = {}
        for pid in pids:
            for task in Path(f"/proc/{pid}/task").iterdir():
                self.threads[int(task.name)] = pid
        args = ["strace", "-f", "-ff", "-yy", "-s", "0", "-qq", "-o", str(out / "t")]
        for pid in pids:
            args += ["-p", str(pid)]
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while not self._attached():
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError("strace did not attach (is ptrace allowed here?)")
            time.sleep(0.02)
        self.started = time.perf_counter()

    def _attached(self) -> bool:
        for tid, pid in self.threads.items():
            with contextlib.suppress(OSError):
                status = Path(f"/proc/{pid}/task/{tid}/status").read_text()
                if "TracerPid:\t0\n" in status:
                    return False
        return True

    def stop(self) -> float:
        """Detach; the straced window's seconds."""
        seconds = time.perf_counter() - self.started
        self.process.send_signal(signal.SIGINT)
        self.process.wait(30)
        return seconds

    def calls(self, port: int, tree: dict[int, str]) -> dict[int, list[Call]]:
        """Each process's calls, parsed (`parse_line`), by pid."""
        own = {pid: own_sockets(pid) for pid in tree}
        found: dict[int, list[Call]] = collections.defaultdict(list)
        for path in self.out.iterdir():
            tid = int(path.name.rsplit(".", 1)[1])
            pid = self.threads.get(tid)
            if pid is None:  # a thread born in the window: its process by /proc
                with contextlib.suppress(OSError, IndexError):
                    status = Path(f"/proc/{tid}/status").read_text()
                    pid = int(status.split("Tgid:\t", 1)[1].split()[0])
            if pid is None or pid not in tree:
                continue
            for line in path.read_text(errors="replace").splitlines():
                call = parse_line(line, port, tree[pid], own[pid])
                if call is not None:
                    found[pid].append(call)
        return found


def _by_role(
    calls: dict[int, list[Call]], tree: dict[int, str], served: int | None
) -> dict[str, collections.Counter[str]]:
    """`tally` by process role: `worker (served)` (`served`, the worker that had the
    client), `other workers`, `parent`, `valkey`."""
    roles: dict[str, collections.Counter[str]] = {}
    for pid, role in tree.items():
        if role == "worker":
            role = "worker (served)" if pid == served else "other workers"
        roles.setdefault(role, collections.Counter()).update(tally(calls.get(pid, [])))
    return roles


def _cpu(
    before: dict[tuple[int, int], tuple[str, float, float]],
    after: dict[tuple[int, int], tuple[str, float, float]],
    tree: dict[int, str],
    served: int,
    moves: int,
) -> dict[str, float]:
    """CPU µs a move by process role (user and system) and, in the served worker, by
    thread other than the loop's (clock ticks: a few thousand moves make them steady)."""
    found: dict[str, float] = collections.defaultdict(float)
    for (pid, tid), (name, user, system) in after.items():
        _, user0, system0 = before.get((pid, tid), (name, 0.0, 0.0))
        role = tree.get(pid, "?")
        if role == "worker":
            role = "worker (served)" if pid == served else "other workers"
        found[f"cpu us user: {role}"] += (user - user0) / moves * 1e6
        found[f"cpu us system: {role}"] += (system - system0) / moves * 1e6
        spent = (user - user0 + system - system0) / moves * 1e6
        if pid == served and tid != pid and spent > 0:
            found[f"cpu us thread {name!r}: worker (served)"] += spent
    return dict(found)


def measure(kind: str, args: argparse.Namespace) -> dict[str, float]:
    """One server's figures, per move."""
    tmp = Path(tempfile.mkdtemp(prefix=f"umpire-syscalls-{kind}-"))
    server = Server(kind, tmp, args.workers, args.fsync, args.umpire, args.handles)
    result: dict[str, float] = {}
    try:
        player = Player(server.url)
        player.moves(WARM_UP)
        tree = server.tree()
        before, cpu = server.turns(), _threads_cpu(list(tree))
        times = player.moves(args.moves)
        cpu_after, after = _threads_cpu(list(tree)), server.turns()
        result["p50 ms (untraced)"] = statistics.median(times) * 1000
        # The served worker: the one whose loop turned with the moves.
        served = max(
            (pid for pid in after if tree.get(pid) == "worker"),
            key=lambda pid: after[pid]["turns"] - before.get(pid, {}).get("turns", 0),
        )
        result.update(_cpu(cpu, cpu_after, tree, served, args.moves))
        for pid, counts in after.items():
            role = tree.get(pid, "?")
            if role == "worker":
                role = "worker (served)" if pid == served else "other workers"
            for key in ("turns", "handles", "timers", "threadsafe"):
                moved = (counts[key] - before.get(pid, {}).get(key, 0)) / args.moves
                result[f"loop {key}: {role}"] = result.get(f"loop {key}: {role}", 0.0) + moved
        if args.handles:  # the last moves' turns: each turn's callbacks
            print(f"{kind}: the callbacks run in each loop turn of the served worker, last turns")
            for turn in after[served]["shown"][-20:]:
                print("  turn:", ", ".join(turn) or "(nothing ready)")
        if not args.no_strace:
            idle = Trace(list(tree), tmp / "idle")
            time.sleep(args.idle_seconds)
            idle_seconds = idle.stop()
            for role, counter in _by_role(idle.calls(server.port, tree), tree, served).items():
                result[f"idle calls/s: {role}"] = counter["calls"] / idle_seconds
            trace = Trace(list(tree), tmp / "strace")
            player.moves(args.traced_moves)
            result["straced window s"] = trace.stop()
            for role, counter in _by_role(trace.calls(server.port, tree), tree, served).items():
                for key, value in counter.items():
                    name = f"calls: {role}" if key == "calls" else f"{role} | {key}"
                    result[name] = value / args.traced_moves
        player.close()
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return result


def costs(rounds: int = 100_000) -> dict[str, float]:
    """What each kind of call a move makes costs here, in µs of this process's CPU: a
    loop turn with work ready (a callback that schedules the next, less a callback run in a
    shared turn), the system calls the report counts, and the head checkpoint's write
    (server/head_checkpoints.py, its lock, check and write)."""

    def per(call: Any, count: int = rounds) -> float:
        started = time.process_time()
        for _ in range(count):
            call()
        return (time.process_time() - started) / count * 1e6

    async def turns() -> tuple[float, float]:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        left = rounds

        def again() -> None:
            nonlocal left
            left -= 1
            if left:
                loop.call_soon(again)
            else:
                done.set_result(None)

        started = time.process_time()
        loop.call_soon(again)
        await done
        chained = (time.process_time() - started) / rounds * 1e6
        done, left = loop.create_future(), rounds

        def one() -> None:
            nonlocal left
            left -= 1
            if not left:
                done.set_result(None)

        started = time.process_time()
        for _ in range(rounds):
            loop.call_soon(one)
        await done
        shared = (time.process_time() - started) / rounds * 1e6
        return chained, shared

    chained, shared = asyncio.run(turns())
    found = {"a loop turn with one callback": chained, "a callback in a shared turn": shared}
    poll = select.epoll()
    found["epoll_wait, no wait (epoll.poll(0))"] = per(lambda: poll.poll(0))
    poll.close()
    found["getpid"] = per(os.getpid)
    found["clock_gettime(CLOCK_THREAD_CPUTIME_ID) (time.thread_time)"] = per(time.thread_time)
    found["getrandom 16 bytes (os.urandom)"] = per(lambda: os.urandom(16))
    with tempfile.TemporaryDirectory(prefix="umpire-syscalls-costs-") as tmp:
        with open(Path(tmp) / "f", "ab") as out:
            fd = out.fileno()
            found["flock shared, then unlock"] = per(
                lambda: (fcntl.flock(fd, fcntl.LOCK_SH), fcntl.flock(fd, fcntl.LOCK_UN))
            )
            found["fstat"] = per(lambda: os.fstat(fd))
            found["write 98 bytes, O_APPEND"] = per(lambda: os.write(fd, b"h" * 98), rounds // 4)
        heads = HeadCheckpoints(Path(tmp))
        hash_ = "0" * 64
        found["a head checkpoint (HeadCheckpoints.record, one game)"] = per(
            lambda: heads.record({"g0123456789abcdef": (1, hash_)}), rounds // 4
        )
        heads.close()
    return found


def report(results: dict[str, dict[str, float]], top: int) -> str:
    """The figures side by side, a row a figure that any server has."""
    kinds = list(results)
    keys: list[str] = []
    for figures in results.values():
        keys.extend(k for k in figures if k not in keys)

    def rank(key: str) -> tuple[int, str]:
        order = ["p50", "cpu", "loop", "straced", "calls:", "idle"]
        head = next((i for i, p in enumerate(order) if key.startswith(p)), len(order))
        return head, key

    keys.sort(key=rank)
    lines = [f"{'per move':<58}" + "".join(f"{k:>12}" for k in kinds)]
    detail = [k for k in keys if " | " in k]
    main = [k for k in keys if " | " not in k]
    for key in main:
        cells = "".join(
            f"{results[k][key]:>12.2f}" if key in results[k] else f"{'-':>12}" for k in kinds
        )
        lines.append(f"{key:<58}{cells}")
    # The detail: the largest counts first, by process.
    weight = {k: max(results[s].get(k, 0.0) for s in kinds) for k in detail}
    shown = sorted(detail, key=lambda k: (k.split(" | ")[0], -weight[k]))
    per_role: dict[str, int] = collections.Counter()
    for key in shown:
        role = key.split(" | ")[0]
        if per_role[role] >= top and not key.split(" | ")[1].startswith("bytes"):
            continue
        per_role[role] += 1
        cells = "".join(
            f"{results[k][key]:>12.2f}" if key in results[k] else f"{'-':>12}" for k in kinds
        )
        lines.append(f"{key:<58}{cells}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=5000, help="untraced: CPU, turns")
    parser.add_argument("--traced-moves", type=int, default=500, help="under strace")
    parser.add_argument("--servers", default="umpire,floor")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--fsync", default="everysec")
    parser.add_argument("--idle-seconds", type=float, default=2.0)
    parser.add_argument("--top", type=int, default=14, help="calls shown a process")
    parser.add_argument("--no-strace", action="store_true", help="turns and wall time only")
    parser.add_argument(
        "--handles", action="store_true", help="print the callbacks of the last turns"
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument(
        "--umpire", default=str(Path(sys.executable).with_name("umpire")),
        help="the umpire executable (another checkout's, to compare)",
    )  # fmt: skip
    parser.add_argument(
        "--costs", action="store_true", help="also time each kind of call here, in-process"
    )
    args = parser.parse_args(argv)
    if not args.no_strace and shutil.which("strace") is None:
        print("bench.syscalls needs strace (apt-get install strace), or --no-strace")
        return 2
    results = {kind: measure(kind, args) for kind in args.servers.split(",")}
    print(report(results, args.top))
    if args.costs:
        print("\nwhat a call costs here (µs of CPU, in this process)")
        for name, value in costs().items():
            print(f"  {name:<58}{value:>8.2f}")
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
