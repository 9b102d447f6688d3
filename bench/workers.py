"""`umpire serve --workers N` against one worker: the closed loop (100 games, one player
each) with N = 1, 2 and, where the machine has the cores, 4.

Each worker process is held to the same CPU quota (bench/cpu_quota.py, 0.3 cores), so
the figure measures what the design lets each worker add, not what a 2-core machine
shared with Valkey and the load generator has left (docs/scale-out.md). The goal: N
workers deliver at least 0.8 × N times one worker's commands/s. Without a writable CPU
cgroup the workers run unconstrained and the table says so.

`python -m bench workers` prints the table.
"""

from __future__ import annotations

import os
import re
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from bench import stages
from bench.cpu_quota import CpuQuota
from bench.wsload import GatewayProcess, raise_open_files
from umpire.server.embedded import EmbeddedRedis

QUOTA_CORES = 0.3
GAMES = 100


def counts() -> list[int]:
    """1, 2, and 4 where the machine has four cores or more."""
    return [1, 2, 4] if (os.cpu_count() or 1) >= 4 else [1, 2]


def per_worker(port: int) -> list[int]:
    """Commands each worker served, from the summed /metrics (how evenly the kernel spread
    the connections over the workers' sockets)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        text = answer.read().decode()
    found = re.findall(r'^umpire_worker_commands_total\{worker="(\d+)"\} (\S+)$', text, re.M)
    return [int(float(v)) for _, v in sorted(found, key=lambda f: int(f[0]))]


async def one(
    redis_url: str, log_dir: Path, workers: int, seconds: float, quota: bool
) -> dict[str, Any]:
    """The closed loop against `umpire serve --workers <workers>`."""
    gateway = GatewayProcess(redis_url, log_dir, prefix=f"bw{workers}", workers=workers)
    quotas: list[CpuQuota] = []
    try:
        pids = gateway.worker_pids()
        if quota:
            for pid in pids:
                held = CpuQuota(f"umpire-bench-worker-{pid}", QUOTA_CORES)
                quotas.append(held)
                held.add(pid)
        figures = await stages.closed_loop(gateway.url, pids, GAMES, seconds)
        figures["commands_per_worker"] = per_worker(gateway.port) if workers > 1 else []
    finally:
        for held in quotas:
            held.close()
        gateway.stop()
    return {"workers": workers, **figures}


async def run(seconds: float = 10.0) -> dict[str, Any]:
    """Every N in `counts()` on one Valkey (`appendfsync everysec`)."""
    raise_open_files()
    why_not = CpuQuota.available()
    out: dict[str, Any] = {
        "quota_cores_per_worker": QUOTA_CORES if why_not is None else None,
        "why_no_quota": why_not,
        "runs": [],
    }
    with tempfile.TemporaryDirectory(prefix="umpire-bench-workers-") as tmp:
        server = EmbeddedRedis(Path(tmp) / "redis", appendfsync="everysec").start()
        try:
            for n in counts():
                out["runs"].append(await one(server.url, Path(tmp), n, seconds, why_not is None))
        finally:
            server.stop()
    base = out["runs"][0]["commands_per_s"] or 1
    for entry in out["runs"]:
        entry["over_one_worker"] = round(entry["commands_per_s"] / base, 2)
    return out


def rows(figures: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(workers, measured, goal) for the table."""
    held = figures["quota_cores_per_worker"]
    out = []
    for entry in figures["runs"]:
        n = entry["workers"]
        out.append(
            (
                f"--workers {n}" + (f", each held to {held} cores" if held else ", no quota"),
                f"{entry['commands_per_s']:,} cmd/s (×{entry['over_one_worker']}), p99 "
                f"{entry['p99_ms']} ms; workers {entry['gateway_cores']} cores, machine busy "
                f"{entry['machine_busy']:.0%}"
                + (f"; per worker {entry['commands_per_worker']}" if n > 1 else ""),
                "—" if n == 1 else f"≥ ×{0.8 * n:g}",
            )
        )
    return out
