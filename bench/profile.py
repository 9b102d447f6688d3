"""Profile the gateway's command path under the closed-loop bench (cProfile).

`python bench/profile.py [--repo DIR] [--seconds S] [--out FILE] [--ruleset downtown]`
starts an embedded Valkey and one gateway of the checkout DIR (default: this one) under
cProfile, drives the closed loop of `bench.path` (100 games, one command in flight each:
the counter's `Add`, or with `--ruleset downtown` the peer bench's move, a Downtown game's
`RollDice` d6, bench/wsload.py BENCH_MOVES) for S seconds, stops
the gateway (SIGTERM: it drains and exits, so cProfile writes FILE), and prints the
functions by cumulative and by own time, per command.

The load generator is DIR's own bench (its `Conn` knows that checkout's protocol), so the
same script profiles an older commit: run it with that checkout's interpreter, e.g.
`/work/wt/base/.venv/bin/python bench/profile.py --repo /work/wt/base`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pstats
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis

# Run as a file (`python bench/profile.py`), this folder is on sys.path and checkout.py is
# a top-level module; imported as part of the bench package (the tests), it is not. Never
# the --repo checkout's bench: that may predate it.
try:
    from checkout import cli_module, project
except ImportError:
    from bench.checkout import cli_module, project

# The gateway under cProfile (its default clock: a CPU-time clock is a system call here,
# ~1.4 us, and would drown the figures in its own cost). On a shared machine the wall clock
# also charges a function for time the gateway waited for a core, so compare shares and
# calls per command, and the unprofiled CPU per command (--cpu-only) for the total.
_PROFILED = """
import cProfile, runpy, sys, time
profile = cProfile.Profile(TIMER)
sys.argv = ["CLI", "serve"]
profile.enable()
try:
    runpy.run_module("CLI", run_name="__main__", alter_sys=True)
except SystemExit:
    pass
finally:
    profile.disable()
    profile.dump_stats(sys.argv_out)
"""


def _system_seconds(pid: int) -> float:
    """A process's system (kernel) CPU seconds so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[12]) / os.sysconf("SC_CLK_TCK")


def _profiled_popen(out: Path, cpu_clock: bool = False) -> Any:
    """subprocess.Popen that starts `python -m umpire.server.cli serve` (`server.cli` in a
    checkout from before the one import package) under cProfile (`cpu_clock`: timed by
    the loop thread's CPU clock, not the wall clock)."""
    original = subprocess.Popen
    cli = cli_module()
    # The thread's CPU clock is a system call (~0.5 us) at every call and return, which
    # the profile then holds; but a function is not charged for the time the gateway
    # waited for a core, which the wall clock charges to the system call it was in.
    timer = "time.thread_time_ns, 1e-9" if cpu_clock else ""

    def popen(args: Any, *rest: Any, **kwargs: Any) -> Any:
        if list(args[1:]) == ["-m", cli, "serve"]:
            code = _PROFILED.replace("sys.argv_out", repr(str(out))).replace("CLI", cli)
            code = code.replace("TIMER", timer)
            args = [args[0], "-c", code]
        return original(args, *rest, **kwargs)

    return popen


async def _drive(
    seconds: float, out: Path | None, ruleset: str = "counter", cpu_clock: bool = False
) -> tuple[int, float, float, float, float, dict[str, tuple[float, float]]]:
    """The closed loop against a gateway (profiled unless `out` is None): the commands it
    answered, and the CPU per command in microseconds of the gateway (from /proc, so a
    busy machine does not count against it; under the profiler it includes the profiler),
    of that in the kernel (system time), of Valkey and of the load generator (this
    process): all three share the machine's cores, so the closed loop's rate depends on
    each. Last, Valkey's own count of the
    commands it ran in the measured loop (INFO commandstats): per command name, the calls
    and the microseconds of its execution per closed-loop command (what it spent reading,
    parsing and writing is in its CPU, not here)."""
    # Imported here on purpose: main() has put the --repo checkout first on sys.path, so
    # these are that checkout's modules (an older commit's protocol and gateway).
    from bench import path, wsload

    EmbeddedRedis = project("server.embedded").EmbeddedRedis

    wsload.raise_open_files()
    with tempfile.TemporaryDirectory(prefix="umpire-profile-") as tmp:
        server = EmbeddedRedis(Path(tmp) / "redis", appendfsync="everysec").start()
        if out is not None:
            wsload.subprocess.Popen = _profiled_popen(out, cpu_clock)  # type: ignore[assignment]
        gateway = wsload.GatewayProcess(server.url, Path(tmp), prefix="bp")
        try:
            # A checkout whose bench predates BENCH_MOVES knows only the counter.
            seats = await (
                path.players([gateway.url], 100, ruleset)
                if ruleset != "counter"
                else path.players([gateway.url], 100)
            )
            await path.closed_loop(seats, 1.0)  # warm up (counted in a profile, not below)
            meters = [wsload.CpuMeter([pid]) for pid in (gateway.process.pid, server.process.pid)]
            kernel = _system_seconds(gateway.process.pid)
            meters.append(wsload.CpuMeter([os.getpid()]))
            admin = aioredis.Redis.from_url(server.url)
            await admin.config_resetstat()
            first = next(path._cids)
            for meter in meters:
                meter.start()
            started = time.perf_counter()
            await path.closed_loop(seats, seconds)
            wall = time.perf_counter() - started
            cores = [meter.stop()["gateway_cores"] * wall for meter in meters]
            kernel = _system_seconds(gateway.process.pid) - kernel
            commands = next(path._cids) - first - 1
            stats = await admin.info("commandstats")
            await admin.aclose()
            await wsload.close_all([c for c, _ in seats])
        finally:
            gateway.stop()
            server.stop()
    gateway_us, valkey_us, loader_us = (c / max(commands, 1) * 1e6 for c in cores)
    # The gateway's system time: its socket calls' kernel work, the loopback TCP included.
    kernel_us = kernel / max(commands, 1) * 1e6
    ran = {
        name.removeprefix("cmdstat_"): (
            figures["calls"] / max(commands, 1),
            figures["usec"] / max(commands, 1),
        )
        for name, figures in stats.items()
    }
    return commands, gateway_us, kernel_us, valkey_us, loader_us, ran


def _valgrind_popen(out: Path) -> Any:
    """subprocess.Popen that starts the gateway under valgrind's cachegrind (instructions
    only), writing its count to `out`."""
    original = subprocess.Popen
    cli = cli_module()

    def popen(args: Any, *rest: Any, **kwargs: Any) -> Any:
        if list(args[1:]) == ["-m", cli, "serve"]:
            args = ["valgrind", "--tool=cachegrind", "--cache-sim=no",
                    f"--cachegrind-out-file={out}", *args]  # fmt: skip
        return original(args, *rest, **kwargs)

    return popen


async def _counted(
    seconds: float, games: int, ruleset: str, keep: Path | None = None
) -> tuple[int, int]:
    """The gateway under cachegrind: the commands it answered (from its start) and the
    instructions it ran, startup, a 2 s warm-up and `seconds` of closed loop included."""
    from bench import path, wsload

    EmbeddedRedis = project("server.embedded").EmbeddedRedis
    wsload.raise_open_files()
    with tempfile.TemporaryDirectory(prefix="umpire-count-") as tmp:
        out = Path(tmp) / "cachegrind.out"
        server = EmbeddedRedis(Path(tmp) / "redis", appendfsync="everysec").start()
        wsload.subprocess.Popen = _valgrind_popen(out)  # type: ignore[assignment]
        slow = wsload.wait_for_port

        def patient(port: int, process: Any, timeout: float = 30.0) -> None:
            slow(port, process, 600.0)  # valgrind starts the interpreter ~50 times slower

        wsload.wait_for_port = patient
        try:
            gateway = wsload.GatewayProcess(server.url, Path(tmp), prefix="bi")
        finally:
            wsload.subprocess.Popen = subprocess.Popen  # type: ignore[assignment]
            wsload.wait_for_port = slow
        try:
            first = next(path._cids)
            seats = await (
                path.players([gateway.url], games, ruleset)
                if ruleset != "counter"
                else path.players([gateway.url], games)
            )
            await path.closed_loop(seats, 2.0)
            if seconds > 0:
                await path.closed_loop(seats, seconds)
            commands = next(path._cids) - first - 1
            await wsload.close_all([c for c, _ in seats])
            gateway.process.terminate()  # it drains and exits: cachegrind writes its count
            await asyncio.to_thread(gateway.process.wait, 300)
        finally:
            gateway.stop()
            server.stop()
        summary = [line for line in out.read_text().splitlines() if line.startswith("summary:")]
        if keep is not None:  # for cg_diff and cg_annotate: where the instructions went
            shutil.copy(out, keep)
    return commands, int(summary[0].split()[1])


def instructions(
    seconds: float, games: int, ruleset: str, keep: Path | None = None
) -> tuple[float, int]:
    """The gateway's instructions per command, counted by cachegrind: a run of `seconds`
    of closed loop less a run of none (both start the gateway and warm it up for 2 s), over
    the difference of their commands; and that difference. `keep`: a folder for the two
    runs' cachegrind files (`cg_diff short long`, then `cg_annotate`)."""
    long_commands, long_count = asyncio.run(
        _counted(seconds, games, ruleset, keep and keep / "long.out")
    )
    short_commands, short_count = asyncio.run(
        _counted(0.0, games, ruleset, keep and keep / "short.out")
    )
    commands = long_commands - short_commands
    return (long_count - short_count) / max(commands, 1), commands


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--out", type=Path, default=Path("gateway.prof"))
    parser.add_argument("--top", type=int, default=45)
    parser.add_argument(
        "--cpu-only", action="store_true", help="no profiler: the gateway's CPU per command"
    )
    parser.add_argument(
        "--ruleset", default="counter", help="counter (Add) or downtown (the peer bench's RollDice)"
    )
    parser.add_argument(
        "--instructions", action="store_true",
        help="the gateway under cachegrind: instructions per command (--games games)",
    )  # fmt: skip
    parser.add_argument("--games", type=int, default=20, help="with --instructions")
    parser.add_argument("--keep", type=Path, default=None, help="with --instructions: a folder")
    parser.add_argument(
        "--cpu-clock", action="store_true", help="profile by the loop thread's CPU clock"
    )
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.repo.resolve()))
    if args.instructions:
        keep = args.keep.resolve() if args.keep else None
        per, commands = instructions(args.seconds, args.games, args.ruleset, keep)
        print(f"gateway: {per:,.0f} instructions per command ({commands} commands counted)")
        return 0
    out = None if args.cpu_only else args.out.resolve()
    commands, cpu, kernel_us, valkey, loader, ran = asyncio.run(
        _drive(args.seconds, out, args.ruleset, args.cpu_clock)
    )
    print(f"{commands} commands in the measured loop; gateway CPU {cpu:.1f} us per command")
    print(f"  of which in the kernel (system time) {kernel_us:.1f} us per command")
    print(f"Valkey CPU {valkey:.1f} us per command; load generator CPU {loader:.1f} us per command")
    for name, (calls, usec) in sorted(ran.items(), key=lambda item: -item[1][1]):
        print(f"  Valkey ran {name}: {calls:.3f} calls, {usec:.2f} us per command")
    if out is None:
        return 0
    stats = pstats.Stats(str(out))
    stats.sort_stats("cumulative").print_stats(args.top)
    stats.sort_stats("tottime").print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
