"""`umpire serve` on the embedded default (no REDIS_URL) as a real process, the CLI as
real processes on the same data directory, and the Valkey processes serving it."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

from tests.support.processes import REPO, wait_for_port
from umpire.server.embedded import free_port

RULESETS = "umpire_counter:RULESET"


def environment(data_dir: Path, **env: str) -> dict[str, str]:
    """The environment of an umpire process on `data_dir`'s embedded store."""
    base = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    return {
        **base,
        "UMPIRE_DATA_DIR": str(data_dir),
        "UMPIRE_EXTRA_RULESETS": RULESETS,
        "PYTHONPATH": str(REPO),
        "UMPIRE_WORKERS": "1",  # one gateway process (tests of --workers set more)
        **env,
    }


def start_serve(
    data_dir: Path, *, port: int = 0, wait: bool = True, **env: str
) -> tuple[subprocess.Popen[bytes], int]:
    """Start `umpire serve` on `data_dir`; returns (process, gateway port)."""
    port = port or free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "umpire.server.cli", "serve", "--port", str(port)],
        cwd=REPO,
        env=environment(data_dir, **env),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    if wait:
        try:
            wait_for_port(port)
        except TimeoutError:
            process.kill()
            output = process.communicate(timeout=5)[0].decode(errors="replace")
            raise RuntimeError(f"umpire serve did not start: {output[-3000:]}") from None
    return process, port


def cli(data_dir: Path, *argv: str, **env: str) -> subprocess.Popen[str]:
    """Start one `umpire` CLI command on `data_dir` (stdout and stderr captured)."""
    return subprocess.Popen(
        [sys.executable, "-m", "umpire.server.cli", *argv],
        cwd=REPO,
        env=environment(data_dir, **env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def run_cli(data_dir: Path, *argv: str, timeout: float = 60, **env: str) -> tuple[int, str, str]:
    """Run one CLI command to its end: (exit status, stdout, stderr)."""
    process = cli(data_dir, *argv, **env)
    out, err = process.communicate(timeout=timeout)
    return process.returncode, out, err


def valkey_pids(data_dir: Path) -> list[int]:
    """Pids of the live Valkey processes serving `data_dir` (their working directory is
    the store directory inside it; a zombie does not count)."""
    store_dir = str((data_dir / "redis").resolve())
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            if fields[0] == "Z" or os.readlink(f"/proc/{entry}/cwd") != store_dir:
                continue
            with open(f"/proc/{entry}/comm") as comm:
                if "valkey" in comm.read():
                    found.append(int(entry))
        except OSError:
            continue
    return found


def stop(process: subprocess.Popen[bytes], timeout: float = 20) -> str:
    """SIGTERM `umpire serve`, wait for it, and return what it printed."""
    if process.poll() is None:
        process.terminate()
    try:
        out = process.communicate(timeout=timeout)[0]
    except subprocess.TimeoutExpired:
        process.kill()
        out = process.communicate(timeout=5)[0]
    return out.decode(errors="replace")


def tcp_listeners(pid: int) -> list[str]:
    """The TCP addresses (`ip:port`, hex as the kernel writes them) process `pid` listens
    on: its socket descriptors matched against /proc/net/tcp and tcp6 in state LISTEN."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
            if target.startswith("socket:["):
                inodes.add(target[len("socket:[") : -1])
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                if fields[3] == "0A" and fields[9] in inodes:  # 0A: TCP_LISTEN
                    found.append(fields[1])
    return found


def incr_aof(data_dir: Path) -> Path:
    """The AOF file the embedded Valkey of `data_dir` appends to now (the manifest's last
    `type i` entry)."""
    aof_dir = data_dir / "redis" / "appendonlydir"
    (manifest,) = aof_dir.glob("*.manifest")
    names = [
        line.split()[1] for line in manifest.read_text().splitlines() if line.endswith("type i")
    ]
    return aof_dir / names[-1]
