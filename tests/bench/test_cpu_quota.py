"""The CPU quota the benchmark puts each gateway under really holds a process to it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.cpu_quota import CpuQuota

SPIN = "import time\nend = time.monotonic() + 1.5\nwhile time.monotonic() < end: pass\n"


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _throttled(quota: CpuQuota) -> int:
    """How many times the kernel has held the group back at its quota (cpu.stat, v1 and
    v2 alike)."""
    for line in (quota.path / "cpu.stat").read_text().splitlines():
        name, value = line.split()
        if name == "nr_throttled":
            return int(value)
    raise AssertionError(f"no nr_throttled in {quota.path / 'cpu.stat'}")


def _spin_shares(quota: CpuQuota) -> tuple[float, float]:
    """The fractions of one core two busy loops get over the same second, one held by
    `quota` and one free beside it: both meet the same load from the rest of the machine
    (a loaded CI runner gives a free loop far less than a core), only one meets the quota."""
    held = subprocess.Popen([sys.executable, "-c", SPIN])
    quota.add(held.pid)
    free = subprocess.Popen([sys.executable, "-c", SPIN])
    started = time.monotonic()
    time.sleep(1.2)
    elapsed = time.monotonic() - started
    shares = _cpu_seconds(held.pid) / elapsed, _cpu_seconds(free.pid) / elapsed
    held.wait()
    free.wait()
    return shares


@pytest.mark.timing  # a CPU share is the machine's load: the timing lane only
def test_a_quota_holds_a_busy_process_to_its_cores() -> None:
    why_not = CpuQuota.available()
    if why_not is not None:
        pytest.skip(why_not)
    quota = CpuQuota(f"umpire-test-quota-{os.getpid()}", 0.2)
    try:
        held, free = _spin_shares(quota)
        throttled = _throttled(quota)
    finally:
        quota.close()
    assert not quota.path.exists()
    assert held < 0.3, f"held to 0.2 cores, it used {held:.2f}"
    # The quota, not the machine's load, held it: the kernel throttled the group, and the
    # free loop beside it, under the same load, got more.
    assert throttled > 0, "the kernel never held the group back at its quota"
    assert free > held, f"unheld it used {free:.2f}, held {held:.2f}"
