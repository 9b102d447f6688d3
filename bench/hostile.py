"""`python -m bench hostile`: a normal player's round trip while hostile clients loop the
most expensive requests, full size (issue #17: 20 connections; the goal is the player's
p99 under 20 ms and the gateway's RSS within 50 MiB of its start).

One Valkey, one gateway process with its default budgets (server/admission.py), a long
game (6,000 events) and 100 small ones whose spectator credentials every attacker holds.
The player (this process) measures a quiet baseline, then the same while
`bench.hostile_load` (a process of its own, from 127.0.0.2) runs the attack:
views of the head and commands, one of each every 20 ms. Prints p50/p99/max of each,
the RSS, the gateway's longest GC pause and what the attackers were answered.

tests/faults/test_costly_requests.py is the same attack, shorter, as a test of behaviour
(the player answered while the attack is refused; the memory), not of speed.

`python -m bench.hostile --base DIR` is an A/B on a shared machine: a second gateway runs
from the checkout DIR (another commit, e.g. `git archive BASE | tar -x -C DIR`) beside
this one, on the same Valkey and games, each with its own 20 attackers; the player
alternates slices of `--slice` seconds between the two, and only the side being played
is attacked (the other's attackers are stopped meanwhile), so a slow spell of the machine
falls on both sides alike. Prints both sides' figures and the load averages.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any, Protocol

from bench.wsload import REPO, Conn, wait_for_port
from umpire.engine.roles import Role
from umpire.events.redis_store import RedisEventStore
from umpire.server import credentials
from umpire.server.embedded import EmbeddedRedis, free_port
from umpire.server.games import Games

LONG_GAME_EVENTS = 6000
HELD_GAMES = 100
PREFIX = "bh"


def summary(samples: list[float]) -> dict[str, float]:
    """p50, p99 and max of round trips (s), in ms."""
    ordered = sorted(samples)
    if not ordered:
        return {"n": 0}
    p99 = ordered[max(0, int(len(ordered) * 0.99) - 1)]
    return {
        "n": len(ordered),
        "p50_ms": round(ordered[len(ordered) // 2] * 1000, 1),
        "p99_ms": round(p99 * 1000, 1),
        "max_ms": round(ordered[-1] * 1000, 1),
    }


class Player(Protocol):
    """A connection that sends a request and waits for its answer (bench.wsload.Conn, whose
    error answers raise)."""

    async def request(self, message: dict[str, Any], timeout: float = ...) -> Any: ...


async def play(player: Player, game: str, seconds: float, tag: str) -> tuple[list[float], ...]:
    """A normal player for `seconds`: a view, then a command, every 20 ms."""
    views, commands = [], []
    deadline = time.monotonic() + seconds
    n = 0
    while time.monotonic() < deadline:
        started = time.perf_counter()
        await player.request({"type": "view", "game_id": game})
        views.append(time.perf_counter() - started)
        started = time.perf_counter()
        # With its own nonce, as the umpire clients send every command (docs/security.md).
        await player.request({"type": "command", "game_id": game, "command_id": f"{tag}{n}",
                              "command": {"type": "Push"},
                              "nonce": secrets.token_hex(16)})  # fmt: skip
        commands.append(time.perf_counter() - started)
        n += 1
        await asyncio.sleep(0.02)
    return views, commands


async def _setup(store: RedisEventStore) -> tuple[str, int, list[str]]:
    games = Games(store)
    created = await games.create("counter", {"target": 10**6})
    n = 0
    while (await store.version(created.game_id)) < LONG_GAME_EVENTS:
        await games.handle(created.game_id, f"p{n}", {"type": "Push"})
        n += 1
    held = []
    for _ in range(HELD_GAMES):
        game = (await games.create("counter", {})).game_id
        held.append(await credentials.issue(store, game, Role.SPECTATOR))
    held.append(await credentials.issue(store, created.game_id, Role.SPECTATOR))
    return created.game_id, await store.version(created.game_id), held


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    """Resident memory of a process (VmRSS, KiB), from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def _gc_longest(metrics: str) -> list[float]:
    prefix = "umpire_gc_pause_longest_seconds"
    return [float(line.split()[-1]) for line in metrics.splitlines() if line.startswith(prefix)]


async def run(connections: int = 20, seconds: float = 30.0, quiet: float = 10.0) -> dict[str, Any]:
    """The measurement: figures as a dict (ms, KiB)."""
    with tempfile.TemporaryDirectory(prefix="umpire-bench-hostile-") as tmp:
        server = EmbeddedRedis(Path(tmp) / "redis", appendfsync="everysec").start()
        store = RedisEventStore.from_url(server.url, prefix=PREFIX)
        gateway = Side("gateway", REPO, server.url, Path(tmp) / "gateway.log")
        try:
            long_game, head, held = await _setup(store)
            await gateway.open()  # the player's game, its seed bound, warmed up
            player, game, pid = gateway.player, gateway.game, gateway.process.pid
            assert player is not None
            rss_start = rss_kib(pid)
            cpu, started = cpu_seconds(pid), time.monotonic()
            quiet_views, quiet_commands = await play(player, game, quiet, "q")
            quiet_cores = (cpu_seconds(pid) - cpu) / (time.monotonic() - started)
            config = Path(tmp) / "hostile.json"
            config.write_text(json.dumps({
                "url": gateway.url, "seconds": seconds + 3.0, "connections": connections,
                "game_id": long_game, "head": head, "credentials": held,
                "source": "127.0.0.2",
            }))  # fmt: skip
            attack = subprocess.Popen(
                [sys.executable, "-m", "bench.hostile_load", str(config)],
                cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            )  # fmt: skip
            await asyncio.sleep(2.0)  # connected and authenticated
            cpu, started = cpu_seconds(pid), time.monotonic()
            attacker_cpu = cpu_seconds(attack.pid)
            views, commands = await play(player, game, seconds, "a")
            elapsed = time.monotonic() - started
            attacked_cores = (cpu_seconds(pid) - cpu) / elapsed
            attacker_cores = (cpu_seconds(attack.pid) - attacker_cpu) / elapsed
            out, _ = await asyncio.to_thread(attack.communicate, timeout=120)
            rss_end = rss_kib(pid)
            lines = out.decode().strip().splitlines()
            metrics = await asyncio.to_thread(_metrics, gateway.port)
            await player.close()
        finally:
            gateway.stop()
            await store.close()
            server.stop()
    return {
        "connections": connections,
        "seconds": seconds,
        "quiet": {"views": summary(quiet_views), "commands": summary(quiet_commands)},
        "attacked": {"views": summary(views), "commands": summary(commands)},
        # The gateway's CPU in cores: what the attack makes it do, whatever the machine's
        # load (a wall-clock p99 on a busy machine measures the other processes too).
        "gateway_cores": {"quiet": round(quiet_cores, 3), "attacked": round(attacked_cores, 3)},
        "attacker_cores": round(attacker_cores, 3),
        "rss_kib": {"start": rss_start, "end": rss_end, "growth": rss_end - rss_start},
        "gc_longest_pause_ms": [round(s * 1000, 1) for s in _gc_longest(metrics)],
        "attackers_saw": json.loads(lines[-1]) if lines else {},
        "goal": "attacked p99 < 20 ms, RSS growth < 51200 KiB",
    }


def _metrics(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        return str(answer.read().decode())


def report(figures: dict[str, Any]) -> str:
    """The figures as a few lines for people."""
    lines = [f"hostile: {figures['connections']} connections for {figures['seconds']:g} s"]
    for phase in ("quiet", "attacked"):
        for kind in ("views", "commands"):
            s = figures[phase][kind]
            lines.append(f"  {phase:8} {kind:8} n={s.get('n')} p50 {s.get('p50_ms')} ms "
                         f"p99 {s.get('p99_ms')} ms max {s.get('max_ms')} ms")  # fmt: skip
    rss, cores = figures["rss_kib"], figures["gateway_cores"]
    lines.append(f"  gateway CPU: quiet {cores['quiet']} cores, attacked {cores['attacked']} cores "
                 f"(the attackers' process: {figures['attacker_cores']} cores)")  # fmt: skip
    lines.append(f"  RSS {rss['start']} -> {rss['end']} KiB (+{rss['growth']} KiB)")
    lines.append(f"  longest GC pause by generation: {figures['gc_longest_pause_ms']} ms")
    lines.append(f"  attackers saw {figures['attackers_saw']}")
    lines.append(f"  goal: {figures['goal']}")
    return "\n".join(lines)


class Side:
    """One gateway of an A/B run: its process, its player and attack, and the round
    trips measured on it."""

    def __init__(self, name: str, checkout: Path, redis_url: str, log: Path) -> None:
        self.name = name
        self.port = free_port()
        env = {**os.environ, "REDIS_URL": redis_url, "UMPIRE_PORT": str(self.port),
               "UMPIRE_PREFIX": PREFIX, "UMPIRE_EXTRA_RULESETS": "umpire_counter:RULESET",
               "PYTHONPATH": str(checkout), "UMPIRE_WORKERS": "1"}  # fmt: skip
        with open(log, "wb") as out:  # a file: a pipe nobody drains would block it
            self.process = subprocess.Popen([sys.executable, "-m", "umpire.server.cli", "serve"],
                                            cwd=checkout, env=env, stdout=out,
                                            stderr=subprocess.STDOUT)  # fmt: skip
        try:
            wait_for_port(self.port, self.process)
        except BaseException:  # a gateway that did not come up is not left running
            self.process.kill()
            self.process.wait(10)
            raise
        self.url = f"ws://127.0.0.1:{self.port}/ws"
        self.player: Conn | None = None
        self.game = ""
        self.attack: subprocess.Popen[bytes] | None = None
        self.samples: dict[str, list[float]] = {}

    async def open(self) -> None:
        """The player's connection and game (its seed bound), warmed up."""
        self.player = await Conn.open(self.url)
        self.game = await self.player.create(10**6)
        await play(self.player, self.game, 1.0, f"{self.name}w")

    async def slice(self, phase: str, seconds: float, tag: str) -> None:
        """Play for `seconds`, adding the round trips to `phase`'s samples."""
        assert self.player is not None
        views, commands = await play(self.player, self.game, seconds, f"{self.name}{tag}")
        self.samples.setdefault(f"{phase} views", []).extend(views)
        self.samples.setdefault(f"{phase} commands", []).extend(commands)

    def stop(self) -> None:
        """Stop the attack and the gateway."""
        for process in (self.attack, self.process):
            if process is not None and process.poll() is None:
                process.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(20)
                if process.poll() is None:
                    process.kill()


async def run_ab(base: Path, connections: int = 20, seconds: float = 30.0,
                 quiet: float = 10.0, slice_seconds: float = 2.0) -> dict[str, Any]:  # fmt: skip
    """The A/B measurement: this checkout ("branch") and `base` alternated in slices."""
    with tempfile.TemporaryDirectory(prefix="umpire-bench-hostile-ab-") as tmp:
        server = EmbeddedRedis(Path(tmp) / "redis", appendfsync="everysec").start()
        store = RedisEventStore.from_url(server.url, prefix=PREFIX)
        sides: list[Side] = []
        try:
            long_game, head, held = await _setup(store)
            sides = [Side("branch", REPO, server.url, Path(tmp) / "branch.log"),
                     Side("base", base, server.url, Path(tmp) / "base.log")]  # fmt: skip
            for side in sides:
                await side.open()
            load = [os.getloadavg()[0]]
            await _alternate(sides, "quiet", quiet, slice_seconds)
            for n, side in enumerate(sides):
                config = Path(tmp) / f"hostile-{side.name}.json"
                config.write_text(json.dumps({
                    "url": side.url, "seconds": seconds + 3.0, "connections": connections,
                    "game_id": long_game, "head": head, "credentials": held,
                    "source": f"127.0.0.{2 + n}",
                }))  # fmt: skip
                side.attack = subprocess.Popen(
                    [sys.executable, "-m", "bench.hostile_load", str(config)],
                    cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )  # fmt: skip
            await asyncio.sleep(2.0)  # connected and authenticated
            load.append(os.getloadavg()[0])
            cpu = {side.name: cpu_seconds(side.process.pid) for side in sides}
            started = time.monotonic()
            await _alternate(sides, "attacked", seconds, slice_seconds)
            elapsed = time.monotonic() - started
            cores = {s.name: round((cpu_seconds(s.process.pid) - cpu[s.name]) / elapsed, 3)
                     for s in sides}  # fmt: skip
            load.append(os.getloadavg()[0])
            for side in sides:
                assert side.player is not None
                await side.player.close()
        finally:
            for side in sides:
                side.stop()
            await store.close()
            server.stop()
    return {
        "connections": connections,
        "seconds": seconds,
        "slice_seconds": slice_seconds,
        "base": str(base),
        "load_average_1min": load,
        "gateway_cores_attacked": cores,
        "sides": {s.name: {k: summary(v) for k, v in s.samples.items()} for s in sides},
    }


async def _alternate(sides: list[Side], phase: str, seconds: float, slice_seconds: float) -> None:
    """Play `seconds` on the sides in turn. Under attack only the side being played is
    attacked: the other side's attackers are stopped (SIGSTOP) for the slice, so each
    side sees the load of a single run and the machine one attack at a time."""
    deadline = time.monotonic() + seconds
    n = 0
    try:
        while time.monotonic() < deadline:
            for side in sides if n % 2 == 0 else reversed(sides):  # ABBA: neither always first
                if side.attack is not None:
                    for other in sides:
                        assert other.attack is not None
                        os.kill(
                            other.attack.pid, signal.SIGCONT if other is side else signal.SIGSTOP
                        )
                    await asyncio.sleep(0.3)  # its attackers busy again, the other's work drained
                await side.slice(phase, slice_seconds, f"{phase[0]}{n}-")
            n += 1
    finally:
        for side in sides:
            if side.attack is not None and side.attack.poll() is None:
                os.kill(side.attack.pid, signal.SIGCONT)


def report_ab(figures: dict[str, Any]) -> str:
    """The A/B figures as a few lines for people."""
    lines = [f"hostile A/B: {figures['connections']} connections a side for "
             f"{figures['seconds']:g} s, slices of {figures['slice_seconds']:g} s; "
             f"base {figures['base']}"]  # fmt: skip
    for key in ("quiet views", "quiet commands", "attacked views", "attacked commands"):
        for name, side in figures["sides"].items():
            s = side.get(key, {})
            lines.append(f"  {key:18} {name:6} n={s.get('n')} p50 {s.get('p50_ms')} ms "
                         f"p99 {s.get('p99_ms')} ms max {s.get('max_ms')} ms")  # fmt: skip
    lines.append(f"  gateway CPU under attack (cores): {figures['gateway_cores_attacked']}")
    lines.append(f"  load average (1 min) before, attacked, after: {figures['load_average_1min']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """`python -m bench.hostile [--base DIR]`: the measurement, or its A/B against DIR."""
    parser = argparse.ArgumentParser(prog="python -m bench.hostile")
    parser.add_argument("--base", type=Path, help="A/B against the checkout in this folder")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--slice", type=float, default=2.0, help="A/B: seconds per slice")
    args = parser.parse_args(argv)
    if args.base is None:
        figures = asyncio.run(run(seconds=args.seconds, quiet=args.seconds / 3))
        print(json.dumps(figures, indent=2))
        print(report(figures), file=sys.stderr)
        return 0
    figures = asyncio.run(run_ab(args.base.resolve(), seconds=args.seconds,
                                 quiet=args.seconds / 3, slice_seconds=args.slice))  # fmt: skip
    print(json.dumps(figures, indent=2))
    print(report_ab(figures), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
