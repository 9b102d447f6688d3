"""umpire's whole footprint, as a deployment runs it (issue #33 item 4).

`python -m bench footprint [--seconds S]` starts `umpire serve` with its defaults (its
embedded Valkey, one worker per core), then reads the memory of the whole process tree
(the parent, every gateway worker, Valkey, and a rules process if one started) from /proc:
idle after start, and after 100 games played in a closed loop for S seconds (and 300 ms
of quiet, as the peer bench reads its servers). The parent alone, which is what a bench
that reads one pid sees, is a fraction of it.

Each process's RSS counts the pages it shares with others (the workers share the
interpreter's and the libraries' pages) once per process, so the tree's RSS sum
overstates it; PSS (proportional set size, /proc/PID/smaps_rollup) divides each shared
page among its sharers, so the tree's PSS sum is its real footprint.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import path, wsload

MIB = 1024 * 1024


def tree(root: int) -> list[int]:
    """`root` and every process descended from it (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # gone meanwhile
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return sorted(found)


def _kib(text: str, key: str) -> int:
    for line in text.splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def _role(pid: int, root: int) -> str:
    """parent, valkey, workers (the parent's other children) or other (a rules process)."""
    if pid == root:
        return "parent"
    if b"valkey-server" in Path(f"/proc/{pid}/cmdline").read_bytes():
        return "valkey"
    parent = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    return "workers" if parent == root else "other"


def footprint(root: int) -> dict[str, Any]:
    """RSS, peak RSS and PSS in MiB of the tree under `root`, by role and in all."""
    roles: dict[str, dict[str, float]] = {}
    for pid in tree(root):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
            role = _role(pid, root)
        except OSError:
            continue
        each = roles.setdefault(role, {"processes": 0, "rss": 0.0, "hwm": 0.0, "pss": 0.0})
        each["processes"] += 1
        each["rss"] += _kib(status, "VmRSS") / 1024
        each["hwm"] += _kib(status, "VmHWM") / 1024
        each["pss"] += _kib(rollup, "Pss") / 1024
    total = {k: sum(r[k] for r in roles.values()) for k in ("processes", "rss", "hwm", "pss")}
    return {
        role: {k: round(v, 1) for k, v in figures.items()}
        for role, figures in {**roles, "tree": total}.items()
    }


async def run(seconds: float = 10.0, games: int = 100) -> dict[str, Any]:
    """The tree's footprint idle and after `games` games played for `seconds`."""
    wsload.raise_open_files()
    with tempfile.TemporaryDirectory(prefix="umpire-footprint-") as tmp:
        gateway = wsload.GatewayProcess(None, Path(tmp), prefix="fp", workers=None)
        try:
            if (os.cpu_count() or 1) > 1:
                gateway.worker_pids()  # the workers have started (the parent logs them)
            await asyncio.sleep(1.0)  # the workers and Valkey settle
            idle = footprint(gateway.process.pid)
            seats = await path.players([gateway.url], games)
            commands = await path.closed_loop(seats, seconds)
            await asyncio.sleep(0.3)
            loaded = footprint(gateway.process.pid)
            await wsload.close_all([c for c, _ in seats])
        finally:
            gateway.stop()
    return {
        "idle_mib": idle,
        "after_load_mib": loaded,
        "games": games,
        "seconds": seconds,
        "closed_loop_commands_per_s": round(commands),
        "machine_load_1min": round(os.getloadavg()[0], 2),
        "measured_at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }


def rows(figures: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(figure, measured, note) for the bench's table."""
    out = []
    for when, key in (("idle", "idle_mib"), ("after the closed loop", "after_load_mib")):
        f = figures[key]
        parts = ", ".join(
            f"{role} {f[role]['pss']:.0f}"
            for role in ("parent", "workers", "valkey", "other")
            if role in f
        )
        out.append(
            (
                f"umpire serve's whole tree, {when} (PSS MiB)",
                f"{f['tree']['pss']:.0f} MiB ({parts}); RSS sum {f['tree']['rss']:.0f}",
                f"the parent alone: RSS {f['parent']['rss']:.0f} MiB",
            )
        )
    return out
