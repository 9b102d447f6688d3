"""The embedded server never outlives umpire, even when umpire is killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import redis

from tests.support.processes import REPO
from umpire.server import embedded
from umpire.server.embedded import EmbeddedRedis


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is dead for our purposes
        return stat.read().split()[2] != "Z"


def test_child_server_dies_with_a_killed_parent(tmp_path) -> None:
    script = textwrap.dedent(
        f"""
        import sys, time
        sys.path.insert(0, {str(REPO)!r})
        from umpire.server.embedded import EmbeddedRedis
        server = EmbeddedRedis({str(tmp_path)!r}).start()
        print(server.process.pid, flush=True)
        time.sleep(60)
        """
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    assert alive(child)
    parent.send_signal(signal.SIGKILL)
    parent.wait(10)
    deadline = time.monotonic() + 10
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(child), "the embedded Valkey outlived its parent"


def test_stop_leaves_no_server_and_keeps_data(tmp_path) -> None:
    server = EmbeddedRedis(tmp_path).start()
    pid = server.process.pid if server.process else 0
    server.stop()
    assert not alive(pid)
    assert (tmp_path / "appendonlydir").is_dir()  # AOF persistence in the data directory


def test_the_aof_is_rewritten_only_once_it_is_four_times_its_base(tmp_path) -> None:
    """The store only grows: a rewrite at Valkey's 100% dumped every event again at each
    25 to 40% of growth (docs/benchmarks.md, "eighth session")."""
    server = EmbeddedRedis(tmp_path).start()
    try:
        client = redis.Redis.from_url(server.url)
        try:
            assert client.config_get("auto-aof-rewrite-percentage") == {
                "auto-aof-rewrite-percentage": "400"
            }
        finally:
            client.close()
    finally:
        server.stop()


def test_the_server_runs_with_a_large_malloc_cache_and_keeps_an_operators_tunables(
    tmp_path, monkeypatch
) -> None:
    """glibc's tcache of 1,024 blocks a size: Valkey's many small blocks a command are
    freed and taken again without the arena's slow path (docs/benchmarks.md). Valkey
    writes its process title over its environment, so the launch's is what is read."""
    monkeypatch.setenv("GLIBC_TUNABLES", "glibc.malloc.arena_max=2")
    launched: list[dict[str, str]] = []
    popen = subprocess.Popen

    def spy(args, *rest, **kwargs):  # type: ignore[no-untyped-def]
        launched.append(kwargs.get("env") or dict(os.environ))
        return popen(args, *rest, **kwargs)

    monkeypatch.setattr(embedded.subprocess, "Popen", spy)
    server = EmbeddedRedis(tmp_path).start()
    server.stop()
    (env,) = launched
    assert env["GLIBC_TUNABLES"] == "glibc.malloc.tcache_count=1024:glibc.malloc.arena_max=2"
    assert env["PATH"] == os.environ["PATH"]
