"""Valkey's CPU per append, the store alone (issue #44 item 2).

`python -m bench.valkey_append [--games G] [--rounds R] [--runs N] [--events E]` starts an
embedded Valkey (`everysec`), creates G games, each with a player credential and its
channel subscribed (one pub/sub connection, drained, as a worker's feed holds them), and
appends R rounds of one E-event command to every game: each round's appends are made in
one event-loop turn, as a worker's closed loop makes them. It prints, for each of N runs,
Valkey's CPU (user + system, from /proc: the server's whole process) per append, the
appends per script call, and Valkey's own execution time per append (INFO commandstats).

Only Valkey's CPU is the figure: this process's work (sealing, packing) is on the other
core. On a shared machine its CPU time moves with the neighbours' load; `--instructions`
counts Valkey's instructions instead (valgrind's cachegrind around the server, twice: R
rounds and 2R, the difference per append), which do not. Run it with another
checkout's interpreter from this folder to compare the two
(`/work/wt/base/.venv/bin/python -m bench.valkey_append`): it uses only the store's public
append (a sealed batch), the same since the recorder split.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import os
import re
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis

from umpire.events.envelope import GENESIS_HASH
from umpire.events.recorder import seal_batch
from umpire.events.redis_store import RedisEventStore
from umpire.events.store import Credential, PendingEvent
from umpire.server.embedded import EmbeddedRedis, server_binary

NOW = "2026-01-01T00:00:00.000Z"
PAYLOAD = b"\x82\xa4kind\xa4roll\xa5faces\x92\x03\x05" * 4  # ~100 bytes, like a small event


def _cpu(pid: int) -> float:
    """The process's user + system CPU seconds, all its threads."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _drain(pubsub: Any) -> None:
    """Read every notification, as a subscriber does."""
    while True:
        await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)


class _Embedded:
    """The embedded Valkey, as umpire starts it (`everysec`)."""

    def __init__(self, folder: Path) -> None:
        self.server = EmbeddedRedis(folder / "redis", appendfsync="everysec").start()
        assert self.server.process is not None
        self.pid = self.server.process.pid
        self.url = self.server.url

    def stop(self) -> None:
        self.server.stop()


class _Counted:
    """The same server binary and persistence under valgrind's cachegrind, which writes
    its instruction count to `counted` when the server exits."""

    def __init__(self, folder: Path, counted: Path) -> None:
        socket = folder / "valkey.sock"
        self.process = subprocess.Popen(
            [
                "valgrind", "--tool=cachegrind", "--cache-sim=no",
                f"--cachegrind-out-file={counted}", f"--log-file={counted}.log",
                server_binary(), "--port", "0", "--unixsocket", str(socket),
                "--dir", str(folder), "--appendonly", "yes", "--appendfsync", "everysec",
                "--save", "",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self.pid = self.process.pid
        self.url = f"unix://{socket}"
        deadline = time.monotonic() + 120
        while not socket.exists():
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"Valkey under valgrind did not start (see {counted}.log)")
            time.sleep(0.1)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=120)


async def run(
    games: int, rounds: int, runs: int, events: int, *, counted: Path | None = None
) -> list[dict[str, float]]:
    """One figure set per run: Valkey CPU µs per append, appends per call, and Valkey's
    own execution µs per append (commandstats)."""
    out: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="umpire-valkey-append-") as tmp:
        server: _Counted | _Embedded = (
            _Counted(Path(tmp), counted) if counted else _Embedded(Path(tmp))
        )
        store = RedisEventStore.from_url(server.url, prefix="va")
        admin = aioredis.Redis.from_url(server.url)
        listener = aioredis.Redis.from_url(server.url)
        pubsub = listener.pubsub()
        drain: asyncio.Task[None] | None = None
        try:
            ids = [f"va{n}" for n in range(games)]
            heads = dict.fromkeys(ids, (0, GENESIS_HASH))
            credential = Credential(hashlib.sha256(b"player").hexdigest(), "player")
            for game in ids:
                await store.credentials.grant(game, credential.digest, "player")
            await pubsub.subscribe(*(store.keys(g).channel for g in ids))
            drain = asyncio.create_task(_drain(pubsub))
            step = 0

            async def one_round(first: bool = False) -> None:
                nonlocal step
                step += 1
                batches = []
                for game in ids:
                    version, prev = heads[game]
                    batches.append(
                        seal_batch(
                            game,
                            [PendingEvent("Opaque", 1, PAYLOAD) for _ in range(events)],
                            expected_version=version,
                            prev_hash=prev,
                            command_id=f"c{step}",
                            recorded_at=NOW,
                            secret=os.urandom(32) if first else None,
                            credential=None if first else credential,
                            body_hash=hashlib.sha256(b"%d" % step).hexdigest()[:32],
                        )
                    )
                results = await asyncio.gather(*(store.append(b) for b in batches))
                for game, result in zip(ids, results, strict=True):
                    heads[game] = (result.last_seq, result.last_hash)

            await one_round(first=True)
            for _ in range(20):  # warm up
                await one_round()
            batcher = store._batcher
            for _ in range(runs):
                await admin.config_resetstat()
                calls = batcher.batches if batcher is not None else 0
                before = _cpu(server.pid)
                for _ in range(rounds):
                    await one_round()
                used = _cpu(server.pid) - before
                stats = await admin.info("commandstats")
                appends = games * rounds
                sent = (batcher.batches - calls) if batcher is not None else 0
                out.append(
                    {
                        "valkey_cpu_us_per_append": used / appends * 1e6,
                        "appends_per_call": appends / max(sent, 1),
                        "evalsha_us_per_append": stats["cmdstat_evalsha"]["usec"] / appends,
                        "commands_in_scripts_per_append": sum(
                            v["calls"] for k, v in stats.items() if k != "cmdstat_evalsha"
                        )
                        / appends,
                    }
                )
        finally:
            if drain is not None:
                drain.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await drain
            await pubsub.aclose()
            await listener.aclose()
            await admin.aclose()
            await store.close()
            server.stop()
    return out


def instructions(games: int, rounds: int, events: int) -> float:
    """Valkey's instructions per append: a run of `rounds` and one of twice as many, each
    on a new server under cachegrind, the difference divided by the appends between."""
    counts = []
    with tempfile.TemporaryDirectory(prefix="umpire-valkey-count-") as tmp:
        for n in (rounds, 2 * rounds):
            counted = Path(tmp) / f"cachegrind.{n}"
            asyncio.run(run(games, n, 1, events, counted=counted))
            summary = re.search(r"^summary: (\d+)", counted.read_text(), re.MULTILINE)
            assert summary is not None, "cachegrind wrote no summary"
            counts.append(int(summary.group(1)))
    return (counts[1] - counts[0]) / (games * rounds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--events", type=int, default=2)
    parser.add_argument(
        "--instructions", action="store_true", help="count Valkey's instructions (valgrind)"
    )
    args = parser.parse_args(argv)
    if args.instructions:
        per_append = instructions(args.games, args.rounds, args.events)
        print(f"Valkey instructions {per_append:,.0f} per append")
        return 0
    for figures in asyncio.run(run(args.games, args.rounds, args.runs, args.events)):
        print(
            f"Valkey CPU {figures['valkey_cpu_us_per_append']:.2f} us per append; "
            f"{figures['appends_per_call']:.1f} appends per call; script execution "
            f"{figures['evalsha_us_per_append']:.2f} us per append; "
            f"{figures['commands_in_scripts_per_append']:.2f} commands per append"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
