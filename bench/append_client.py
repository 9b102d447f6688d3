"""The append's client, redis-py's connection against a bare protocol (issue #33 item 2).

`python -m bench.append_client [--calls N] [--runs R]` starts an embedded Valkey
(`everysec`) and makes N sequential calls of a one-line script, alternating R times
between umpire's `AppendBatcher` (hand-packed RESP on redis-py's connection and parser,
events/append_batch.py) and bench/floor.py's `RawAppends` (the same bytes on a bare
asyncio unix-socket protocol, hiredis parsing). It prints the wall time and this
process's CPU per call of each: what a Redis client of umpire's own would save a
sequential move.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable

import redis.asyncio as redis

from bench.floor import RawAppends
from umpire.events.append_batch import AppendBatcher
from umpire.events.resp import bulks, pack
from umpire.server.embedded import EmbeddedRedis

# One game's flat answer, as the many-games append script gives it (the batcher sends each
# call's argument count first, events/append_batch.py; the raw path sends the bytes alone).
SCRIPT = "return {'ok', ARGV[1]}"


async def main(calls: int, runs: int) -> None:
    with tempfile.TemporaryDirectory(prefix="umpire-bench-append-client-") as tmp:
        server = EmbeddedRedis(tmp, appendfsync="everysec").start()
        client = redis.Redis.from_url(server.url, socket_timeout=5)
        try:
            sha = str(await client.script_load(SCRIPT))
            batcher = AppendBatcher(client, script=SCRIPT, sha=sha)
            raw = await RawAppends.open(server.url)

            async def through_batcher() -> None:
                for n in range(calls):
                    await batcher.run(("k",), 2, bulks(1, n))

            async def through_raw() -> None:
                for n in range(calls):
                    await raw.call(pack("EVALSHA", sha, 1, "k", n))

            paths: list[tuple[str, Callable[[], Awaitable[None]]]] = [
                ("AppendBatcher (redis-py connection)", through_batcher),
                ("bare protocol (hiredis)", through_raw),
            ]
            for run in range(runs):
                for name, path in paths:
                    cpu, wall = time.process_time(), time.perf_counter()
                    await path()
                    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
                    print(f"run {run + 1}, {name}: {wall / calls * 1e6:.0f} µs wall, "
                          f"{cpu / calls * 1e6:.0f} µs CPU a sequential call")  # fmt: skip
        finally:
            await client.aclose()
            server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    asyncio.run(main(options.calls, options.runs))
