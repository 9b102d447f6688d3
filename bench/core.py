"""The log's speed against its physical limit, measured in one run on one embedded Valkey.

- append: events/s for 1-event and 10-event commands (50 concurrent writers, one game
  each), against raw pipelined XADD of the same bytes on the same server (the ratio);
- durable appends: 1-event commands acknowledged only once on disk, by waiting (WAITAOF
  under everysec) and by appendfsync always;
- fold: events/s folding a 100,000-event game (decode + evolve), from bytes in memory;
- CLI start: the median wall time (and CPU) of `umpire state`, `umpire send` and `umpire
  --help`, each run several times as a player runs them against a running store (issue 33:
  under 0.3 s wall on a quiet machine; docs/benchmarks.md "CLI start").
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from umpire_counter import RULESET, Added

from umpire.engine.game import codec_for, fold
from umpire.events.durability import Durability
from umpire.events.envelope import GENESIS_HASH, decode_envelope, encode_envelope, seal
from umpire.events.recorder import seal_batch
from umpire.events.redis_store import RedisEventStore
from umpire.events.store import PendingEvent
from umpire.events.types import GameCreated
from umpire.server.embedded import EmbeddedRedis

WRITERS = 50
CLI_RUNS = 7
CLI_GOAL_S = 0.3
# The command a player sends at any point of any game: a roll the solo rules do not govern.
CLI_COMMAND = '{"type": "RollDice", "dice": "d6", "purpose": "bench"}'


def _counter() -> Any:
    """The example ruleset (examples/umpire-counter, installed beside umpire) and its event."""
    return RULESET, Added


async def raw_xadd(store: RedisEventStore, payload: bytes, total: int) -> float:
    """Events/s of pipelined XADD (1,000 per pipeline) of `payload`-sized entries."""
    redis = store.redis
    started = time.perf_counter()
    done = 0
    while done < total:
        pipe = redis.pipeline(transaction=False)
        for i in range(1000):
            pipe.xadd("bench:raw", {"e": payload}, id=f"{done + i + 1}-0")
        await pipe.execute()
        done += 1000
    elapsed = time.perf_counter() - started
    await redis.delete("bench:raw")
    return total / elapsed


async def appends(store: RedisEventStore, batch: int, commands: int, tag: str = "") -> float:
    """Events/s appending `batch`-event commands from WRITERS concurrent writers."""
    ruleset, added = _counter()
    codec = codec_for(ruleset)
    pending = [PendingEvent(*codec.encode(added(amount=1)))] * batch
    per_writer = commands // WRITERS

    async def writer(w: int) -> None:
        game = f"bench{tag}-{batch}-{w}-{os.getpid()}"
        version, last = 0, GENESIS_HASH
        for i in range(per_writer):
            result = await store.append(
                seal_batch(
                    game,
                    pending,
                    expected_version=version,
                    prev_hash=last,
                    command_id=f"c{i}",
                    recorded_at="2026-01-01T00:00:00.000Z",
                )
            )
            version, last = result.last_seq, result.last_hash

    started = time.perf_counter()
    await asyncio.gather(*(writer(w) for w in range(WRITERS)))
    elapsed = time.perf_counter() - started
    return per_writer * WRITERS * batch / elapsed


def fold_rate(events: int = 100_000) -> float:
    """Events/s folding a counter game of `events` events, from stored bytes."""
    ruleset, added = _counter()
    codec = codec_for(ruleset)
    created = GameCreated(
        game_id="fold",
        ruleset="counter",
        ruleset_version="1",
        setup={"target": 1_000_000},
        seed_commitment="0" * 64,
        client_seed="x",
    )
    raw: list[bytes] = []
    link = GENESIS_HASH
    for seq in range(1, events + 1):
        tag, version, payload = codec.encode(created if seq == 1 else added(amount=1))
        env = seal(
            game_id="fold",
            seq=seq,
            type=tag,
            version=version,
            payload=payload,
            command_id=f"c{seq}",
            recorded_at="t",
            prev_hash=link,
        )
        link = env.hash
        raw.append(encode_envelope(env))
    started = time.perf_counter()
    game = fold(decode_envelope(b) for b in raw)
    elapsed = time.perf_counter() - started
    assert game is not None and game.state.total == events - 1
    return events / elapsed


def _umpire() -> list[str]:
    """The `umpire` console script beside this interpreter (a venv's bin/), as a player
    runs it; else the module."""
    script = Path(sys.executable).with_name("umpire")
    if script.is_file():
        return [str(script)]
    found = shutil.which("umpire")
    return [found] if found else [sys.executable, "-m", "umpire.server.cli"]


def _timed(argv: list[str], env: dict[str, str], runs: int) -> dict[str, float]:
    """Median wall and CPU seconds of `runs` runs of `argv` (each must exit 0)."""
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(argv, env=env, capture_output=True, text=True)
        walls.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(argv[-3:])} exited {done.returncode}: {done.stderr}")
    return {
        "median_wall_s": round(statistics.median(walls), 3),
        "min_wall_s": round(min(walls), 3),
        "median_cpu_s": round(statistics.median(cpus), 3),
    }


def cli_start(runs: int = CLI_RUNS, ruleset: str = "downtown") -> dict[str, Any]:
    """How long a player waits for the command line: `umpire new`, `state`, `actions`,
    `send` and `log` on a game of `ruleset` in a running store (an embedded Valkey reached
    by REDIS_URL), and `umpire --help`, `runs` times each: the medians of wall and of CPU
    (user + system of the command, its children included) beside the goal, with the
    machine's load, since on a shared machine the wall time is mostly waiting for a core."""
    with tempfile.TemporaryDirectory(prefix="umpire-bench-cli-") as tmp:
        server = EmbeddedRedis(Path(tmp) / "redis", appendfsync="everysec").start()
        try:
            env = {**os.environ, "REDIS_URL": server.url, "UMPIRE_PREFIX": "benchcli",
                   "UMPIRE_DATA_DIR": str(Path(tmp) / "data")}  # fmt: skip
            env.pop("UMPIRE_EXTRA_RULESETS", None)
            # As on a player's machine, where Python caches each module's bytecode on first
            # import: without this (PYTHONDONTWRITEBYTECODE=1, as in some shells and CI
            # images) an editable install compiles all of umpire's ~120 modules from source
            # on every command, 0.1 s of CPU that no player pays twice. The warm-up run
            # below writes the cache.
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            umpire = _umpire()
            created = subprocess.run(
                [*umpire, "new", ruleset, "--json"], env=env, capture_output=True, text=True
            )
            if created.returncode != 0:
                raise RuntimeError(f"umpire new {ruleset} exited {created.returncode}: "
                                   f"{created.stderr}")  # fmt: skip
            game = json.loads(created.stdout)["game_id"]
            subprocess.run([*umpire, "log", game], env=env, capture_output=True, check=True)
            figures = {
                "new": _timed([*umpire, "new", ruleset, "--json"], env, runs),
                "state": _timed([*umpire, "state", game], env, runs),
                "actions": _timed([*umpire, "actions", game], env, runs),
                "send": _timed([*umpire, "send", game, CLI_COMMAND], env, runs),
                "log": _timed([*umpire, "log", game], env, runs),
                "help": _timed([*umpire, "--help"], env, runs),
            }
        finally:
            server.stop()
    return {**figures, "runs": runs, "ruleset": ruleset, "goal_wall_s": CLI_GOAL_S,
            "machine_load_1min": round(os.getloadavg()[0], 2)}  # fmt: skip


async def run() -> dict[str, Any]:
    """All core figures, as a dict."""
    with tempfile.TemporaryDirectory(prefix="umpire-bench-") as tmp:
        server = EmbeddedRedis(tmp, appendfsync="everysec").start()
        store = RedisEventStore.from_url(server.url, prefix="bench")
        try:
            ruleset, added = _counter()
            sample = seal(
                game_id="bench-x",
                seq=1,
                type="counter.Added",
                version=1,
                payload=codec_for(ruleset).encode(added(amount=1))[2],
                command_id="c1",
                recorded_at="2026-01-01T00:00:00.000Z",
                prev_hash=GENESIS_HASH,
            )
            raw = await raw_xadd(store, encode_envelope(sample), 100_000)
            one = await appends(store, 1, 20_000)
            ten = await appends(store, 10, 10_000)
            durable = RedisEventStore.from_url(
                server.url, prefix="bench", durability=Durability(local_fsync=True)
            )
            try:
                waited = await appends(durable, 1, 10_000, tag="w")
            finally:
                await durable.close()
        finally:
            await store.close()
            server.stop()
        always_server = EmbeddedRedis(Path(tmp) / "always", appendfsync="always").start()
        always = RedisEventStore.from_url(always_server.url, prefix="bench")
        try:
            fsync_each = await appends(always, 1, 10_000, tag="a")
        finally:
            await always.close()
            always_server.stop()
    folded = fold_rate()
    return {
        "raw_pipelined_xadd_events_per_s": round(raw),
        "append_1_event_commands_events_per_s": round(one),
        "append_10_event_commands_events_per_s": round(ten),
        "append_10_ratio_to_raw": round(ten / raw, 3),
        "append_1_ratio_to_raw": round(one / raw, 3),
        # Every acknowledged append on disk, two ways: everysec + WAITAOF (fsyncs shared by
        # concurrent appends) against appendfsync always (the server fsyncs each write).
        "append_1_event_waitaof_everysec_events_per_s": round(waited),
        "append_1_event_appendfsync_always_events_per_s": round(fsync_each),
        "fold_events_per_s_100k_game": round(folded),
        "cli_start": cli_start(),
        "goals": {
            "append_10_ratio_to_raw": 0.5,
            "fold_events_per_s_100k_game": 200_000,
            "cli_start_wall_s": CLI_GOAL_S,
        },
        "appendfsync": "everysec",
        "writers": WRITERS,
    }
