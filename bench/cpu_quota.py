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
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

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
