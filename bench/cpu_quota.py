"""An equal CPU quota for each gateway, so two gateways can be compared with one on a
machine whose cores the cluster and the load generator share with them.

On a 2-core machine one unconstrained gateway already keeps the machine ~80% busy, so a
second gateway can only add what is left: the ratio measures the machine, not the
design. Giving each gateway the same quota (a Linux CPU cgroup, as a container's CPU
limit does) well below what the machine has left makes the ratio a measure of what the
design shares between gateways (the cluster, the load generator's one process).

Needs a writable cgroup CPU controller (root, cgroup v1 `cpu` or v2 `cpu.max`);
`CpuQuota.available()` says why not where there is none, and the stage is then reported
as not measured.

`python -m bench cpu_quota` (`measure`) prints the share of a core a busy loop held to a
quota gets, beside a free busy loop meeting the same load from the rest of the machine,
and the goal: the held loop at most its quota (tests/bench/test_cpu_quota.py checks that
the kernel throttles the group, not the share).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

V1 = Path("/sys/fs/cgroup/cpu")
V2 = Path("/sys/fs/cgroup")
# A short period keeps a throttled gateway's pauses short (the default 100 ms would let it
# run 30 ms then stop 70 ms): the quota is the same fraction either way.
PERIOD_US = 20_000


class CpuQuota:
    """A cgroup holding some processes to `cores` of CPU time; removed by `close()`."""

    def __init__(self, name: str, cores: float) -> None:
        self.cores = cores
        quota = max(1_000, int(cores * PERIOD_US))
        v2 = (V2 / "cgroup.controllers").exists()
        if v2:
            # The controller must be enabled for the root's children first.
            with contextlib.suppress(OSError):
                (V2 / "cgroup.subtree_control").write_text("+cpu")
        self.path = (V2 if v2 else V1) / name
        self.path.mkdir()
        try:
            if v2:
                (self.path / "cpu.max").write_text(f"{quota} {PERIOD_US}")
            else:
                (self.path / "cpu.cfs_period_us").write_text(str(PERIOD_US))
                (self.path / "cpu.cfs_quota_us").write_text(str(quota))
        except OSError:
            self.path.rmdir()  # a group without its quota would hold nothing back
            raise

    @staticmethod
    def available() -> str | None:
        """None where quotas can be set here, else why not."""
        try:
            probe = CpuQuota(f"umpire-bench-probe-{os.getpid()}", 1.0)
        except OSError as exc:
            return f"no writable CPU cgroup ({exc.strerror or exc}); needs root and cgroups"
        probe.close()
        return None

    def add(self, pid: int) -> None:
        """Move a process (all its threads) into the quota."""
        (self.path / "cgroup.procs").write_text(str(pid))

    def close(self) -> None:
        """Move the processes still inside back to the root group and remove the group."""
        root = self.path.parent
        with contextlib.suppress(OSError):
            for pid in (self.path / "cgroup.procs").read_text().split():
                with contextlib.suppress(OSError):
                    (root / "cgroup.procs").write_text(pid)
        with contextlib.suppress(OSError):
            self.path.rmdir()


def throttled(quota: CpuQuota) -> int:
    """How many times the kernel has held the group back at its quota (cpu.stat, v1 and v2
    alike)."""
    for line in (quota.path / "cpu.stat").read_text().splitlines():
        name, value = line.split()
        if name == "nr_throttled":
            return int(value)
    raise LookupError(f"no nr_throttled in {quota.path / 'cpu.stat'}")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


SPIN = "while True: pass\n"  # busy until it is killed
QUOTA_GOAL_CORES = 0.2  # the quota measure() sets
SLACK_CORES = 0.1  # a share read from /proc ticks over a few seconds is that coarse


def measure(seconds: float = 3.0) -> dict[str, Any]:
    """The fractions of one core two busy loops get over the same `seconds`, one held to
    QUOTA_GOAL_CORES and one free beside it (both meet the same load from the rest of the
    machine; only one meets the quota). {"measured": False, "why": ...} without cgroups."""
    why_not = CpuQuota.available()
    if why_not is not None:
        return {"measured": False, "why": why_not}
    quota = CpuQuota(f"umpire-bench-quota-{os.getpid()}", QUOTA_GOAL_CORES)
    held = subprocess.Popen([sys.executable, "-c", SPIN])
    free = subprocess.Popen([sys.executable, "-c", SPIN])
    try:
        quota.add(held.pid)
        start = {p.pid: _cpu_seconds(p.pid) for p in (held, free)}
        started = time.monotonic()
        time.sleep(seconds)  # the measurement window
        elapsed = time.monotonic() - started
        shares = {p.pid: (_cpu_seconds(p.pid) - start[p.pid]) / elapsed for p in (held, free)}
        nr_throttled = throttled(quota)
    finally:
        for process in (held, free):
            process.kill()
            process.wait()
        quota.close()
    return {
        "measured": True,
        "quota_cores": QUOTA_GOAL_CORES,
        "held_cores": round(shares[held.pid], 3),
        "free_cores": round(shares[free.pid], 3),
        "nr_throttled": nr_throttled,
        "seconds": seconds,
        "machine_load_1min": round(os.getloadavg()[0], 2),
    }


def rows(figures: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(figure, measured, goal) for `python -m bench cpu_quota`."""
    if not figures["measured"]:
        return [("busy loop held to a quota", "not measured", figures["why"])]
    goal = f"≤ {figures['quota_cores'] + SLACK_CORES:.1f} (the quota + tick slack)"
    return [
        (f"busy loop held to {figures['quota_cores']} cores",
         f"{figures['held_cores']} cores ({figures['nr_throttled']} throttled periods)", goal),
        ("free busy loop beside it", f"{figures['free_cores']} cores",
         f"> the held loop (load now {figures['machine_load_1min']})"),
    ]  # fmt: skip
