"""Where a move's CPU goes, stage by stage, for one gateway worker or several (issue #33 item 1).

`python -m bench.spy [--workers N] [--seconds S] [--spectators K] [--out FILE]
[--ruleset downtown]` starts an embedded Valkey (appendfsync everysec) and `umpire serve`
with N workers, drives the closed loop of `bench.path` (100 games, one command in flight
each: the counter's `Add`, which rolls a d6 for the bot, two events; with `--ruleset
downtown` the peer bench's move, a Downtown `RollDice` d6), or with `--spectators K` one
game that K connections watch, ten commands a second (bench.path's fan-out stage), and
samples every gateway process with py-spy (`pip install py-spy`; non-blocking, on-CPU
samples only).
Each on-CPU sample is put in the stage of its innermost frame that names one (`_stage`:
engine, events, redis-py and asyncio frames name none, since they run under several
stages; a sample with none is the event loop's, split by its leaf into socket reads,
socket writes, wake-ups by the rules thread, and the rest). A stage's share of the
samples times the gateway's CPU per command (from /proc over the same seconds, so time
spent waiting for a core on a busy machine is not counted) is its microseconds per
command. A sampler's shares are estimates: read a stage of fewer than a few hundred
samples as rough.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import path, wsload
from umpire.server.embedded import EmbeddedRedis

WRITE = "write: the gateway's sends, websockets framing, socket.send"
DECODE = "read + decode: the client's frame (websockets, msgspec)"
AUTH = "auth + admission (and the periodic credential re-check)"
DECIDE = "decide: the rules, in the rules thread"
HANDOFF = "decide: handing it to the thread and back (loop side)"
APPEND = "append: envelopes, Lua call, Valkey reply (redis-py)"
EVOLVE = "evolve: the new events folded in (engine)"
ACK = "ack: the receipt (view digest) and the answer"
FANOUT = "fan-out: the event frame (encoded once), framed per subscriber"
GLUE = "command glue (session, games, gateway)"
LOOP = "event loop: callbacks, scheduling, gc"
WAKE = "event loop: woken by the rules thread (self-pipe write/read)"
READS = "event loop: socket reads (client frames, Valkey replies)"
WRITES = "event loop: socket writes it flushes (client or Valkey)"
STAGES = [
    DECODE,
    AUTH,
    HANDOFF,
    DECIDE,
    APPEND,
    EVOLVE,
    ACK,
    FANOUT,
    WRITE,
    GLUE,
    READS,
    WRITES,
    WAKE,
    LOOP,
]

# Frames that say nothing of the stage: a sample is put in the stage of the innermost
# frame that does (the engine runs in decide and in evolve; redis-py in the append and in
# the feed's reads; asyncio under everything). A sample with none is the event loop's.
_NEUTRAL = ("engine/", "events/", "redis/", "asyncio/", "selectors.py", "threading.py",
            "concurrent/", "<frozen", "msgspec", "hiredis", "functools.py", "contextlib.py",
            "typing.py", "enum.py", "logging/", "server/app.py", "server/cli.py",
            "server/invocation.py", "server/workers.py", "runpy")  # fmt: skip
_SERVER = {
    "server/event_frames.py": FANOUT,
    "server/game_feed.py": FANOUT,
    "server/notifier.py": FANOUT,
    "server/rules_pool.py": DECIDE,
    "server/admission.py": AUTH,
    "server/credentials.py": AUTH,
    "server/revocations.py": AUTH,
}
_FUNCTIONS = {  # (file, function name) -> stage, before the file's default
    ("server/session.py", "receive"): DECODE,
    ("server/session.py", "_refuse_frame"): DECODE,
    ("server/session.py", "_receipt"): ACK,
    ("server/session.py", "_reply"): ACK,
    ("server/session.py", "_auth"): AUTH,
    ("server/session.py", "_role"): AUTH,
    ("server/session.py", "_still_valid"): AUTH,
    ("server/session.py", "_player_grant"): AUTH,
    ("server/session.py", "admit"): AUTH,
    ("server/session.py", "pace"): AUTH,
    ("server/session.py", "wait_to_pay"): AUTH,
    ("server/session.py", "_take_token"): AUTH,
    ("server/games.py", "_append"): APPEND,
    ("server/games.py", "_fold"): EVOLVE,
    ("server/games.py", "_result"): ACK,
    ("server/games.py", "decide_for"): DECIDE,
    ("server/framing.py", "text_frame"): FANOUT,
    ("server/framing.py", "writable_now"): WRITE,
    ("server/connection.py", "offer"): WRITE,
}


def _stage(frame: str) -> str | None:
    """The stage a frame "Class.function (file:line)" says, or None."""
    name, _, where = frame.rpartition(" (")
    function = name.rpartition(".")[2]
    file = where.rpartition(":")[0]
    if file in ("events/append_batch.py", "events/redis_store.py"):
        return APPEND  # run by the batcher's own callbacks too, under no server frame
    if file == "server/collector.py":
        return LOOP
    if any(mark in file for mark in _NEUTRAL):
        return None
    if file.startswith("websockets/"):
        return WRITE if ("send" in function or "write" in function) else DECODE
    if file.startswith("server/"):
        named = _FUNCTIONS.get((file, function)) or _SERVER.get(file)
        if (
            named is None
            and file == "server/connection.py"
            and ("send" in function or "write" in function)
        ):
            return WRITE
        return named or GLUE
    return None


# Leaves that are waits py-spy does not always see as idle: a pool thread waiting for
# work, the loop waiting in epoll. Not CPU: left out.
_IDLE = ("_worker (concurrent/futures/thread.py", "EpollSelector.select (selectors.py")


def classify(stack: str) -> str | None:
    """The stage of one collapsed stack (root first, frames separated by ';'); None for
    a sample of a thread that was waiting."""
    if stack.rpartition(";")[2].startswith(_IDLE):
        return None
    for frame in reversed(stack.split(";")):
        stage = _stage(frame)
        if stage == DECIDE and "_worker (concurrent/futures/thread.py" not in stack:
            return HANDOFF  # on the event loop: submit, the future, the call back
        if stage is not None:
            return stage
    leaf = stack.rpartition(";")[2]
    if "_write_to_self" in leaf or "_read_from_self" in leaf:
        return WAKE
    if "_read_ready" in leaf or "data_received" in leaf or ".recv" in leaf:
        return READS
    if "Transport.write" in leaf or "_write_ready" in leaf or "writelines" in leaf:
        return WRITES
    return LOOP


def stages_of(collapsed: Path) -> dict[str, int]:
    """Samples per stage in a py-spy `--format raw` file."""
    counts: collections.Counter[str] = collections.Counter()
    for line in collapsed.read_text(errors="replace").splitlines():
        stack, _, n = line.rpartition(" ")
        stage = classify(stack) if stack and n.isdigit() else None
        if stage is not None:  # py-spy --nonblocking writes a torn line now and then
            counts[stage] += int(n)
    return dict(counts)


async def _load(
    url: str, seconds: float, spectators: int, ruleset: str = "counter"
) -> tuple[Any, Any]:
    """What drives the gateway: (set-up, run) coroutines' factories. The closed loop of
    100 games; or, with `spectators`, one game that many connections watch, one command
    every 1/FAN_OUT_RATE s (bench.path's fan-out stage)."""
    if not spectators:
        seats = await path.players([url], 100, ruleset)
        await path.closed_loop(seats, 1.0)  # warm up
        return (lambda s: path.closed_loop(seats, s)), [c for c, _ in seats]
    writer = await wsload.Conn.open(url)
    game = await writer.create()
    conns = await wsload.open_many(url, spectators)
    deliveries = path.Deliveries()
    await path._subscribe(conns, [game] * spectators, deliveries)

    async def run(s: float) -> None:
        commands = int(s * path.FAN_OUT_RATE)
        await path._write_and_wait([(writer, game)], commands, path.FAN_OUT_RATE, deliveries,
                                   spectators)  # fmt: skip

    return run, [*conns, writer]


async def _drive(
    workers: int,
    seconds: float,
    out: Path,
    rate: int,
    spectators: int = 0,
    ruleset: str = "counter",
) -> dict[str, Any]:
    wsload.raise_open_files()
    with tempfile.TemporaryDirectory(prefix="umpire-spy-") as tmp:
        server = EmbeddedRedis(Path(tmp) / "redis", appendfsync="everysec").start()
        gateway = wsload.GatewayProcess(server.url, Path(tmp), prefix="spy", workers=workers)
        try:
            pids = gateway.worker_pids()
            drive, conns = await _load(gateway.url, seconds, spectators, ruleset)
            spy = subprocess.Popen(
                [str(Path(sys.executable).with_name("py-spy")), "record", "--pid",
                 str(gateway.process.pid), "--subprocesses", "--nonblocking", "--rate",
                 str(rate), "--duration", str(int(seconds)), "--format", "raw", "--output",
                 str(out)],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            )  # fmt: skip
            await asyncio.sleep(1.0)  # py-spy attaches
            meters = [wsload.CpuMeter(pids), wsload.CpuMeter([server.process.pid])]
            meters.append(wsload.CpuMeter([os.getpid()]))
            first = next(path._cids)
            for meter in meters:
                meter.start()
            started = time.perf_counter()
            await drive(seconds - 2.0)
            wall = time.perf_counter() - started
            cores = [meter.stop()["gateway_cores"] * wall for meter in meters]
            commands = next(path._cids) - first - 1
            _, err = await asyncio.to_thread(spy.communicate)
            if spy.returncode != 0:
                raise RuntimeError(f"py-spy exited {spy.returncode}: {err.decode()[-500:]}")
            await wsload.close_all(conns)
        finally:
            gateway.stop()
            server.stop()
    gateway_us, valkey_us, loader_us = (c / max(commands, 1) * 1e6 for c in cores)
    return {
        "workers": workers,
        "spectators": spectators,
        "commands": commands,
        "commands_per_s": round(commands / wall),
        "gateway_cpu_us_per_command": round(gateway_us, 1),
        "valkey_cpu_us_per_command": round(valkey_us, 1),
        "load_generator_cpu_us_per_command": round(loader_us, 1),
        "machine_load_1min": round(os.getloadavg()[0], 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rate", type=int, default=200, help="py-spy samples a second")
    parser.add_argument("--out", type=Path, default=Path("gateway.spy.txt"))
    parser.add_argument(
        "--spectators", type=int, default=0,
        help="one game watched by this many connections instead of the closed loop",
    )  # fmt: skip
    parser.add_argument(
        "--ruleset", default="counter", help="counter (Add) or downtown (the peer bench's RollDice)"
    )
    args = parser.parse_args(argv)
    out = args.out.resolve()
    figures = asyncio.run(
        _drive(args.workers, args.seconds, out, args.rate, args.spectators, args.ruleset)
    )
    counts = stages_of(args.out)
    total = sum(counts.values()) or 1
    per_command = figures["gateway_cpu_us_per_command"]
    print(" ".join(f"{k}={v}" for k, v in figures.items()))
    print(f"{'stage':<60} {'share':>6} {'us/cmd':>7}")
    for stage in STAGES:
        share = counts.get(stage, 0) / total
        print(f"{stage:<60} {share:6.1%} {share * per_command:7.1f}")
    print(f"({total} samples)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
