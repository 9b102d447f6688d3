"""The CPU quota the benchmark puts each gateway under really holds a process to it.

Asserted as what the kernel did, not as a share of the machine: the group is made with the
quota asked for, a busy process moved into it is throttled at that quota (cpu.stat), and
closing removes the group. How much CPU the held process got beside a free one is the
machine's load: `python -m bench cpu_quota` (bench/cpu_quota.py `measure`) prints both
shares beside the goal (the held one at most its quota)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bench.cpu_quota import PERIOD_US, CpuQuota, throttled
from tests.support.waiting import until_sync

SPIN = "while True: pass\n"  # busy until it is killed


def _quota_line(quota: CpuQuota) -> str:
    """The group's quota and period as the kernel holds them (v2 cpu.max, or v1's two)."""
    if (quota.path / "cpu.max").exists():
        return (quota.path / "cpu.max").read_text().strip()
    period = (quota.path / "cpu.cfs_period_us").read_text().strip()
    return f"{(quota.path / 'cpu.cfs_quota_us').read_text().strip()} {period}"


def test_a_quota_holds_a_busy_process_to_its_cores() -> None:
    why_not = CpuQuota.available()
    if why_not is not None:
        pytest.skip(why_not)
    quota = CpuQuota(f"umpire-test-quota-{os.getpid()}", 0.2)
    busy = subprocess.Popen([sys.executable, "-c", SPIN])
    try:
        assert _quota_line(quota) == f"{int(0.2 * PERIOD_US)} {PERIOD_US}"
        quota.add(busy.pid)
        assert str(busy.pid) in (quota.path / "cgroup.procs").read_text().split()
        # The quota, not the machine's load, holds it back: the kernel throttles the group.
        until_sync(lambda: throttled(quota) > 0, what="the kernel holding the group back")
    finally:
        busy.kill()
        busy.wait()
        quota.close()
    assert not quota.path.exists()
