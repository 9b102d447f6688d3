"""The peer-shaped bench stages (bench/stages.py) run end to end at a tiny size and give
every figure their table needs (no speed is asserted: figures come from a quiet machine)."""

from __future__ import annotations

from pathlib import Path

from bench import stages
from bench.wsload import GatewayProcess
from umpire.server.embedded import EmbeddedRedis


async def test_each_stage_measures_at_a_tiny_size(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path / "redis", appendfsync="everysec").start()
    gateway = GatewayProcess(server.url, tmp_path, prefix="ts")
    try:
        pids = [gateway.process.pid]
        figures = {
            "appendfsync": "everysec",
            "a_sequential": await stages.sequential(gateway.url, 20),
            "b_closed_loop": await stages.closed_loop(gateway.url, pids, 4, 0.5),
            "c_spectated": await stages.spectated(gateway.url, pids, 5, 0.5),
        }
    finally:
        gateway.stop()
        server.stop()
    assert figures["a_sequential"]["p50_ms"] > 0
    assert figures["b_closed_loop"]["commands_per_s"] > 0
    spectated = figures["c_spectated"]
    assert spectated["commands_per_s"] > 0
    # Every event of every command reached every spectator.
    assert spectated["delivered"] == spectated["expected"] > 0
    assert len(stages.rows(figures)) == 3
