"""20 hostile connections loop the most expensive requests (old and random replays, a
listing over every game they hold, creates, subscriptions from seq 0) at a real gateway
process, from another address than a normal player's. Admission refuses most of the attack
(server/admission.py charges each request its cost), the player's every view and command
is answered while the attackers are being refused, and the gateway's RSS stays within
50 MiB of its start (replays fold from checkpoints a step at a time:
server/replay_cache.py).

On main the same load took the player's median from 3 ms to 211 ms and the RSS from 77 to
156 MiB. How fast the player is answered under attack (the issue's goal: p99 under 20 ms)
is the machine's speed, not asserted here: `python -m bench hostile` (bench/hostile.py)
prints the quiet and attacked p50/p99/max beside that goal."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.hostile import cpu_seconds, play
from bench.wsload import Conn
from tests.support.fleet import gateways
from tests.support.processes import REPO
from umpire.engine.roles import Role
from umpire.events.redis_store import RedisEventStore
from umpire.server import credentials
from umpire.server.embedded import EmbeddedRedis
from umpire.server.games import Games
from umpire.testing.support.gateways import http_get
from umpire.testing.support.nonces import nonce_of

pytestmark = pytest.mark.slow

ATTACKERS = int(os.environ.get("HOSTILE_N", 20))
ATTACK_SECONDS = 12.0
LONG_GAME_EVENTS = 6000
HELD_GAMES = 100  # each attacker lists this many games
RSS_LIMIT_KIB = 50 * 1024
OVER_BUDGET_BY_ADDRESS = 'umpire_over_budget_total{scope="address"}'
REPORTED = ("umpire_gc_pause_longest", "umpire_frames", "umpire_over", "umpire_replay_events")


async def _long_game(games: Games) -> str:
    created = await games.create("counter", {"target": 10**6})
    n = 0
    while (await games.store.version(created.game_id)) < LONG_GAME_EVENTS:
        await games.handle(created.game_id, f"p{n}", {"type": "Push"})
        n += 1
    return created.game_id


async def _play(player: Conn, game: str, seconds: float, tag: str) -> tuple[list[float], ...]:
    """The bench's normal player (a view, then a command, every 20 ms): each round trip
    (s), sorted."""
    views, commands = await play(player, game, seconds, tag)
    return sorted(views), sorted(commands)


def _p99(samples: list[float]) -> float:
    return samples[max(0, int(len(samples) * 0.99) - 1)]


async def _refused(port: int) -> int:
    """How many requests admission has refused by address so far (/metrics)."""
    _, metrics = await http_get(port, "/metrics")
    line = next((x for x in metrics.splitlines() if x.startswith(OVER_BUDGET_BY_ADDRESS)), "0 0")
    return int(float(line.split()[-1]))


async def _until_refused(port: int, seconds: float = 60.0) -> int:
    """Wait until admission has refused the attack at least once (it is under way)."""
    deadline = time.monotonic() + seconds
    while (refused := await _refused(port)) == 0:
        assert time.monotonic() < deadline, "the attack was never refused"
        await asyncio.sleep(0.1)
    return refused


def _summary(samples: list[float]) -> str:
    return (f"n={len(samples)} median={samples[len(samples) // 2] * 1000:.1f} ms "
            f"p99={_p99(samples) * 1000:.1f} ms max={samples[-1] * 1000:.1f} ms")  # fmt: skip


async def test_hostile_costly_requests_do_not_starve_a_player(
    redis_server: EmbeddedRedis, prefix: str, store: RedisEventStore, games: Games,
    tmp_path: Path,
) -> None:  # fmt: skip
    long_game = await _long_game(games)
    head = await store.version(long_game)
    held = []
    for _ in range(HELD_GAMES):
        game = (await games.create("counter", {})).game_id
        held.append(await credentials.issue(store, game, Role.SPECTATOR))
    held.append(await credentials.issue(store, long_game, Role.SPECTATOR))
    with gateways(redis_server.url, prefix, 1) as (gateway,):
        player = await Conn.open(gateway.url)  # the bench's connection: an error raises
        mine = {"game_id": await player.create(10**6)}
        for n in range(50):  # warm up, then the baseline memory
            await player.request({"type": "command", "game_id": mine["game_id"],
                                  "command_id": f"w{n}", "command": {"type": "Push"},
                                  "nonce": nonce_of(f"w{n}")})  # fmt: skip
        rss_start = gateway.rss_kib()
        cpu, started = cpu_seconds(gateway.pid), time.monotonic()
        quiet_views, quiet_commands = await _play(player, mine["game_id"], 3.0, "q")
        quiet_cores = (cpu_seconds(gateway.pid) - cpu) / (time.monotonic() - started)

        config = tmp_path / "hostile.json"
        config.write_text(json.dumps({
            "url": gateway.url, "seconds": ATTACK_SECONDS, "connections": ATTACKERS,
            "game_id": long_game, "head": head, "credentials": held, "source": "127.0.0.2",
            **({"kinds": os.environ["HOSTILE_KINDS"].split(",")}
               if os.environ.get("HOSTILE_KINDS") else {}),
        }))  # fmt: skip
        hostile = subprocess.Popen(
            [sys.executable, "-m", "bench.hostile_load", str(config)],
            cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        refused_before = await _until_refused(gateway.port)  # the attack is under way
        cpu, started = cpu_seconds(gateway.pid), time.monotonic()
        # Every view and command of the player is answered (an error answer raises).
        views, commands = await _play(player, mine["game_id"], ATTACK_SECONDS - 3.0, "a")
        cores = (cpu_seconds(gateway.pid) - cpu) / (time.monotonic() - started)
        refused_during = await _refused(gateway.port) - refused_before
        out, err = await asyncio.to_thread(hostile.communicate, timeout=60)
        seen = json.loads(out.decode().strip().splitlines()[-1]) if out else {}
        rss_end = gateway.rss_kib()
        _, metrics = await http_get(gateway.port, "/metrics")
        await player.close()
        logs = "".join(gateway.output)

    report = (f"views: quiet {_summary(quiet_views)}, attacked {_summary(views)}; "
              f"commands: quiet {_summary(quiet_commands)}, attacked {_summary(commands)}; "
              f"RSS {rss_start} -> {rss_end} KiB; gateway CPU {quiet_cores:.3f} -> "
              f"{cores:.3f} cores; attackers saw {seen}; "
              f"{err.decode()[-500:]}; "
              + " ".join(line for line in metrics.splitlines()
                         if line.startswith(REPORTED)))  # fmt: skip
    print(report)
    # The attack happened and admission refused most of it.
    # (A loaded machine gets fewer attacks through in the time: 98 refusals were seen.)
    assert seen.get("state", 0) > 0 and seen.get("over_budget", 0) > 50, report
    assert 'umpire_over_budget_total{scope="address"}' in metrics
    # The player was answered while the attackers were being refused: admission refused
    # them during the player's own requests, not only before or after.
    assert views and commands and refused_during > 0, report
    assert rss_end - rss_start < RSS_LIMIT_KIB, report
    assert "Traceback" not in logs, logs[-3000:]
