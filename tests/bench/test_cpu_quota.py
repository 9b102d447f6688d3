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


def _spin_share(quota: CpuQuota | None) -> float:
    """The fraction of one core a busy loop gets over its run."""
    proc = subprocess.Popen([sys.executable, "-c", SPIN])
    if quota is not None:
        quota.add(proc.pid)
    started = time.monotonic()
    time.sleep(1.2)
    used = _cpu_seconds(proc.pid)
    share = used / (time.monotonic() - started)
    proc.wait()
    return share


def test_a_quota_holds_a_busy_process_to_its_cores() -> None:
    why_not = CpuQuota.available()
    if why_not is not None:
        pytest.skip(why_not)
    quota = CpuQuota(f"umpire-test-quota-{os.getpid()}", 0.2)
    try:
        held = _spin_share(quota)
    finally:
        quota.close()
    assert not quota.path.exists()
    free = _spin_share(None)
    assert held < 0.3, f"held to 0.2 cores, it used {held:.2f}"
    assert free > 2 * held, f"unheld it used {free:.2f}, held {held:.2f}"
