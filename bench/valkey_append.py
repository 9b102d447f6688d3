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

Where the instructions go: `--callgrind FILE` (one run, `callgrind_annotate --inclusive=yes
FILE`); the AOF's share: `--instructions --no-aof`. Valkey's own CPU figure leaves out its
AOF rewrites, each a forked child: their CPU is printed beside it (the children Valkey
waited for in the run; `--rewrite-percentage P` sets `auto-aof-rewrite-percentage`), and
needs a run past the first rewrite (64 MB of AOF: `--games 100 --rounds 2000 --runs 1`,
the peer bench's 20-s `tput`). `--downtown`: envelopes of the peer bench's move's size.
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
from umpire.server import embedded
from umpire.server.embedded import EmbeddedRedis, server_binary

NOW = "2026-01-01T00:00:00.000Z"
PAYLOAD = b"\x82\xa4kind\xa4roll\xa5faces\x92\x03\x05" * 4  # ~100 bytes, like a small event
# A payload of about the peer bench's Downtown move's events (`--downtown`): their
# envelopes are 545 and 554 bytes (a `CommandRecorded` and a `DiceRolled`), this one's 549.
DOWNTOWN_PAYLOAD = PAYLOAD * 2 + PAYLOAD[:40]


def _cpu(pid: int) -> float:
    """The process's user + system CPU seconds, all its threads."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mb(pid: int) -> float:
    """The process's resident memory in MiB (its VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _children_cpu(pid: int) -> float:
    """The user + system CPU seconds of the process's children that it has waited for:
    Valkey's AOF rewrites (a forked child each), which its own figure leaves out."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


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
    its instruction count to `counted` when the server exits; or under callgrind (`tool`),
    for where they go (`callgrind_annotate --inclusive=yes counted`). `aof`: "no" for the
    variant without an append-only file (its share of the instructions)."""

    def __init__(
        self, folder: Path, counted: Path, tool: str = "cachegrind", aof: str = "yes"
    ) -> None:
        socket = folder / "valkey.sock"
        counting = (
            ["--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={counted}"]
            if tool == "cachegrind"
            else ["--tool=callgrind", f"--callgrind-out-file={counted}"]
        )
        self.process = subprocess.Popen(
            [
                "valgrind", *counting, f"--log-file={counted}.log",
                server_binary(), "--port", "0", "--unixsocket", str(socket),
                "--dir", str(folder), "--appendonly", aof, "--appendfsync", "everysec",
                "--save", "",
            ],
            # The environment umpire starts its Valkey with, where the checkout has one.
            env=getattr(embedded, "server_environment", lambda: dict(os.environ))(),
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
    games: int,
    rounds: int,
    runs: int,
    events: int,
    *,
    counted: Path | None = None,
    tool: str = "cachegrind",
    aof: str = "yes",
    rewrite_percentage: int | None = None,
    payload: bytes = PAYLOAD,
) -> list[dict[str, float]]:
    """One figure set per run: Valkey CPU µs per append, that of its AOF rewrites (the
    forked children it waited for in the run) and how many it made, appends per call,
    Valkey's own execution µs per append (commandstats), and its RSS at the run's end.
    `rewrite_percentage`: Valkey's `auto-aof-rewrite-percentage` for the runs (None: as
    the server starts)."""
    out: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="umpire-valkey-append-") as tmp:
        server: _Counted | _Embedded = (
            _Counted(Path(tmp), counted, tool, aof) if counted else _Embedded(Path(tmp))
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
            if rewrite_percentage is not None:
                await admin.config_set("auto-aof-rewrite-percentage", rewrite_percentage)
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
                            [PendingEvent("Opaque", 1, payload) for _ in range(events)],
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
                rewrites = await _rewrites(admin)
                for _ in range(rounds):
                    await one_round()
                used = _cpu(server.pid) - before
                rewrites = await _rewrites(admin, rewrites)
                stats = await admin.info("commandstats")
                appends = games * rounds
                sent = (batcher.batches - calls) if batcher is not None else 0
                out.append(
                    {
                        "valkey_cpu_us_per_append": used / appends * 1e6,
                        "rewrite_cpu_us_per_append": rewrites[1] / appends * 1e6,
                        "aof_rewrites": rewrites[0],
                        "valkey_rss_mb": _rss_mb(server.pid),
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


async def _rewrites(admin: Any, since: tuple[float, float] | None = None) -> tuple[float, float]:
    """How many AOF rewrites Valkey has made and its rewrite children's CPU seconds; with
    `since`, those since it, once any rewrite under way has finished and been waited for
    (a child's CPU reaches its parent's figures only then)."""
    while True:
        info = await admin.info("persistence")
        if not info["aof_rewrite_in_progress"] and not info["aof_rewrite_scheduled"]:
            break
        await asyncio.sleep(0.1)
    pid = (await admin.info("server"))["process_id"]
    if since is not None:  # the parent reaps a finished child in its cron (hz 10)
        await asyncio.sleep(0.3)
    figures = (float(info["aof_rewrites"]), _children_cpu(pid))
    if since is None:
        return figures
    return figures[0] - since[0], figures[1] - since[1]


def instructions(
    games: int, rounds: int, events: int, aof: str = "yes", payload: bytes = PAYLOAD
) -> float:
    """Valkey's instructions per append: a run of `rounds` and one of twice as many, each
    on a new server under cachegrind, the difference divided by the appends between
    (`aof` "no": a server without its append-only file)."""
    counts = []
    with tempfile.TemporaryDirectory(prefix="umpire-valkey-count-") as tmp:
        for n in (rounds, 2 * rounds):
            counted = Path(tmp) / f"cachegrind.{n}"
            asyncio.run(run(games, n, 1, events, counted=counted, aof=aof, payload=payload))
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
    parser.add_argument(
        "--no-aof", action="store_true", help="with --instructions: a server without its AOF"
    )
    parser.add_argument(
        "--callgrind", type=Path, default=None,
        help="one run of the rounds with Valkey under callgrind, its profile written here",
    )  # fmt: skip
    parser.add_argument(
        "--rewrite-percentage", type=int, default=None,
        help="Valkey's auto-aof-rewrite-percentage for the runs (default: as umpire starts it)",
    )  # fmt: skip
    parser.add_argument(
        "--downtown", action="store_true",
        help="envelopes of the peer bench's Downtown move's size (~550 bytes, not ~430)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    aof = "no" if args.no_aof else "yes"
    payload = DOWNTOWN_PAYLOAD if args.downtown else PAYLOAD
    if args.callgrind is not None:
        counted = args.callgrind.resolve()
        asyncio.run(
            run(
                args.games,
                args.rounds,
                1,
                args.events,
                counted=counted,
                tool="callgrind",
                aof=aof,
                payload=payload,
            )
        )
        print(f"callgrind's profile of Valkey: {counted} (callgrind_annotate --inclusive=yes)")
        return 0
    if args.instructions:
        per_append = instructions(args.games, args.rounds, args.events, aof, payload)
        print(f"Valkey instructions {per_append:,.0f} per append")
        return 0
    for figures in asyncio.run(
        run(
            args.games,
            args.rounds,
            args.runs,
            args.events,
            rewrite_percentage=args.rewrite_percentage,
            payload=payload,
        )
    ):
        print(
            f"Valkey CPU {figures['valkey_cpu_us_per_append']:.2f} us per append, its AOF "
            f"rewrites' {figures['rewrite_cpu_us_per_append']:.2f} "
            f"({figures['aof_rewrites']:.0f} rewrites); "
            f"{figures['appends_per_call']:.1f} appends per call; script execution "
            f"{figures['evalsha_us_per_append']:.2f} us per append; "
            f"{figures['commands_in_scripts_per_append']:.2f} commands per append; "
            f"Valkey's RSS {figures['valkey_rss_mb']:.0f} MiB"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
