"""Stages shaped like a peer's scenario (issue 20), on one Valkey and one gateway process:

- (a) one player, 2,000 sequential dice commands: the round trip's p50 and p99;
- (b) 100 games, one closed-loop player each, for 20 s: commands/s and p99;
- (c) one game, 200 spectators, one command every 10 ms for 20 s, never two in flight:
  commands/s achieved, the spectators' p99 (command sent -> event frame received, every
  event of every command at every spectator) and the player's acknowledgement p99.

Each command is the counter ruleset's `Add`, which rolls a d6 for the bot (two events).
`python -m bench stages --fsync everysec` (or `always`, or `both`, the default) runs them
against an embedded Valkey with that `appendfsync` and prints a table per setting.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
import tempfile
import time
from asyncio.subprocess import PIPE
from pathlib import Path
from typing import Any

from bench.path import players
from bench.spectators import COMMAND_PREFIX
from bench.wsload import (
    REPO,
    Conn,
    CpuMeter,
    GatewayProcess,
    close_all,
    percentile,
    raise_open_files,
)
from umpire.server.embedded import EmbeddedRedis

_cids = itertools.count(1)
SEQUENTIAL = 2_000
GAMES = 100
SPECTATORS = 200
INTERVAL = 0.010  # stage (c): one command every 10 ms at most


def _ms(values: list[float], q: float) -> float:
    return round(percentile(values, q) * 1000, 3)


async def sequential(url: str, commands: int) -> dict[str, Any]:
    """(a): one player, one command after another."""
    ((conn, game),) = await players([url], 1)
    latencies = []
    for _ in range(commands):
        started = time.perf_counter()
        await conn.add(game, f"a{next(_cids)}")
        latencies.append(time.perf_counter() - started)
    await conn.close()
    return {
        "commands": commands,
        "p50_ms": _ms(latencies, 0.50),
        "p99_ms": _ms(latencies, 0.99),
    }


async def closed_loop(url: str, pids: list[int], games: int, seconds: float) -> dict[str, Any]:
    """(b): `games` players, each sending its next command when the last is answered."""
    seats = await players([url], games)
    latencies: list[float] = []
    stop_at = time.perf_counter() + seconds

    async def player(conn: Conn, game: str) -> None:
        while time.perf_counter() < stop_at:
            started = time.perf_counter()
            await conn.add(game, f"b{next(_cids)}")
            latencies.append(time.perf_counter() - started)

    meter = CpuMeter(pids)
    meter.start()
    started = time.perf_counter()
    await asyncio.gather(*(player(c, g) for c, g in seats))
    elapsed = time.perf_counter() - started
    cpu = meter.stop()
    await close_all([c for c, _ in seats])
    rate = len(latencies) / elapsed
    return {
        "games": games,
        "seconds": seconds,
        "commands_per_s": round(rate),
        "p50_ms": _ms(latencies, 0.50),
        "p99_ms": _ms(latencies, 0.99),
        "gateway_cores": cpu["gateway_cores"],
        "gateway_cpu_us_per_command": round(cpu["gateway_cores"] / rate * 1e6, 1),
        "machine_busy": cpu["machine_busy"],
    }


async def spectated(url: str, pids: list[int], spectators: int, seconds: float) -> dict[str, Any]:
    """(c): one player paced at one command per INTERVAL (never two in flight) to a game
    watched by `spectators` connections, held by another process (bench/spectators.py) so
    that reading their frames never delays the player's reading of its acknowledgements."""
    ((player, game),) = await players([url], 1)
    watchers = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.spectators", url, game, str(spectators),
        cwd=REPO, stdin=PIPE, stdout=PIPE,
    )  # fmt: skip
    assert watchers.stdin is not None and watchers.stdout is not None
    ready = await asyncio.wait_for(watchers.stdout.readline(), 120)
    assert ready.strip() == b"ready", ready
    sent_at: dict[str, float] = {}
    acks: list[float] = []
    events = 0
    meter = CpuMeter(pids)
    meter.start()
    started = time.perf_counter()
    due = started
    while (now := time.perf_counter()) < started + seconds:
        if now < due:
            await asyncio.sleep(due - now)
        command_id = f"{COMMAND_PREFIX}{next(_cids)}"
        sent = time.perf_counter()
        sent_at[command_id] = sent
        reply = await player.add(game, command_id)
        acks.append(time.perf_counter() - sent)
        events += len(reply.seqs or ())
        due = max(due + INTERVAL, sent)  # a late command is not made up for
    elapsed = time.perf_counter() - started
    expected = events * spectators
    watchers.stdin.write(f"{expected}\n".encode())
    await watchers.stdin.drain()
    arrivals = json.loads(await asyncio.wait_for(watchers.stdout.read(), 120))
    await watchers.wait()
    cpu = meter.stop()
    await player.close()
    latencies = [at - sent_at[cid] for cid, at in arrivals if cid in sent_at]
    return {
        "spectators": spectators,
        "seconds": seconds,
        "asked_per_s": round(1 / INTERVAL),
        "commands_per_s": round(len(acks) / elapsed, 1),
        "ack_p50_ms": _ms(acks, 0.50),
        "ack_p99_ms": _ms(acks, 0.99),
        "spectator_p50_ms": _ms(latencies, 0.50),
        "spectator_p99_ms": _ms(latencies, 0.99),
        "delivered": len(latencies),
        "expected": expected,
        # The gateway's CPU per command, fan-out to every spectator included.
        "gateway_cpu_us_per_command": round(
            cpu["gateway_cores"] * (time.perf_counter() - started) / max(1, len(acks)) * 1e6
        ),
        "machine_busy": cpu["machine_busy"],
    }


async def run(
    fsync: str, seconds: float = 20.0, sequential_commands: int = SEQUENTIAL, workers: int = 1
) -> dict[str, Any]:
    """Every stage against a fresh Valkey with `appendfsync fsync` and one gateway
    (`umpire serve --workers <workers>`)."""
    raise_open_files()
    with tempfile.TemporaryDirectory(prefix="umpire-bench-stages-") as tmp:
        server = EmbeddedRedis(Path(tmp) / "redis", appendfsync=fsync).start()
        gateway = GatewayProcess(server.url, Path(tmp), prefix="bs", workers=workers)
        try:
            pids = gateway.worker_pids()
            out: dict[str, Any] = {"appendfsync": fsync, "workers": workers}
            out["a_sequential"] = await sequential(gateway.url, sequential_commands)
            out["b_closed_loop"] = await closed_loop(gateway.url, pids, GAMES, seconds)
            out["c_spectated"] = await spectated(gateway.url, pids, SPECTATORS, seconds)
        finally:
            gateway.stop()
            server.stop()
    return out


def rows(figures: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(stage, measured, goal) for the table of one `appendfsync` setting."""
    a, b, c = figures["a_sequential"], figures["b_closed_loop"], figures["c_spectated"]
    everysec = figures["appendfsync"] == "everysec"
    return [
        (
            f"(a) 1 player, {a['commands']:,} sequential dice commands",
            f"p50 {a['p50_ms']} / p99 {a['p99_ms']} ms",
            "p50 < 0.5 ms" if everysec else "—",
        ),
        (
            f"(b) {b['games']} games, 1 closed-loop player each, {b['seconds']:g} s",
            f"{b['commands_per_s']:,} cmd/s, p99 {b['p99_ms']} ms",
            f"— gateway {b['gateway_cores']} cores, {b['gateway_cpu_us_per_command']} µs/cmd,"
            f" machine busy {b['machine_busy']:.0%}",
        ),
        (
            f"(c) 1 game, {c['spectators']} spectators, 1 command / 10 ms, {c['seconds']:g} s",
            f"{c['commands_per_s']} of {c['asked_per_s']} cmd/s; spectator p99 "
            f"{c['spectator_p99_ms']} ms; ack p99 {c['ack_p99_ms']} ms "
            f"({c['delivered']:,}/{c['expected']:,} frames)",
            f"≥ 95 cmd/s, spectator p99 < 50 ms, ack p99 < 10 ms; gateway "
            f"{c['gateway_cpu_us_per_command']} µs/cmd, machine busy {c['machine_busy']:.0%}",
        ),
    ]
