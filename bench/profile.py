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
import cProfile, runpy, sys
profile = cProfile.Profile()
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


def _profiled_popen(out: Path) -> Any:
    """subprocess.Popen that starts `python -m umpire.server.cli serve` (`server.cli` in a
    checkout from before the one import package) under cProfile."""
    original = subprocess.Popen
    cli = cli_module()

    def popen(args: Any, *rest: Any, **kwargs: Any) -> Any:
        if list(args[1:]) == ["-m", cli, "serve"]:
            code = _PROFILED.replace("sys.argv_out", repr(str(out))).replace("CLI", cli)
            args = [args[0], "-c", code]
        return original(args, *rest, **kwargs)

    return popen


async def _drive(
    seconds: float, out: Path | None, ruleset: str = "counter"
) -> tuple[int, float, float, float, dict[str, tuple[float, float]]]:
    """The closed loop against a gateway (profiled unless `out` is None): the commands it
    answered, and the CPU per command in microseconds of the gateway (from /proc, so a
    busy machine does not count against it; under the profiler it includes the profiler),
    of Valkey and of the load generator (this process): all three share the machine's
    cores, so the closed loop's rate depends on each. Last, Valkey's own count of the
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
            wsload.subprocess.Popen = _profiled_popen(out)  # type: ignore[assignment]
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
            commands = next(path._cids) - first - 1
            stats = await admin.info("commandstats")
            await admin.aclose()
            await wsload.close_all([c for c, _ in seats])
        finally:
            gateway.stop()
            server.stop()
    gateway_us, valkey_us, loader_us = (c / max(commands, 1) * 1e6 for c in cores)
    ran = {
        name.removeprefix("cmdstat_"): (
            figures["calls"] / max(commands, 1),
            figures["usec"] / max(commands, 1),
        )
        for name, figures in stats.items()
    }
    return commands, gateway_us, valkey_us, loader_us, ran


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
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.repo.resolve()))
    out = None if args.cpu_only else args.out.resolve()
    commands, cpu, valkey, loader, ran = asyncio.run(_drive(args.seconds, out, args.ruleset))
    print(f"{commands} commands in the measured loop; gateway CPU {cpu:.1f} us per command")
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
