"""The store path of one sequential command, without the gateway (issue #33 item 2).

`python -m bench.store_path [--commands N] [--runs R]` starts an embedded Valkey
(`everysec`), creates a Downtown game and sends it N `RollDice` commands one after
another through `Games.handle` in this process: the rules, the seal, the append's one
round trip (events/append_batch.py) and the fold into the cached game, nothing of the
websocket, the session or admission. With `--checkpoints` each append also waits for its
head checkpoint on disk, as `umpire serve` does on the embedded store
(server/head_checkpoints.py). It prints the wall time and this process's CPU
(user + system) per command for each of R runs. The CPU is the figure to compare: the
wall time also holds Valkey's own work, on the other core.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import tempfile
import time
from pathlib import Path

from umpire.events.redis_store import RedisEventStore
from umpire.server.embedded import EmbeddedRedis
from umpire.server.games import Games, decide_for
from umpire.server.rules_pool import RulesPool
from umpire.server.store_access import with_checkpoints

COMMAND = {"type": "RollDice", "dice": "d6", "purpose": "bench"}
WARM_UP = 300  # commands before the timed ones: the light test, caches, the connection


async def per_command(store: RedisEventStore, commands: int, tag: str) -> tuple[float, float]:
    """(wall µs, CPU µs) per command over `commands` sequential commands on a new game."""
    games = Games(store, rules=RulesPool(decide_for, processes=0))
    game = (await games.create("downtown", {})).game_id
    for n in range(WARM_UP):
        await games.handle(game, f"{tag}w{n}", COMMAND, nonce=secrets.token_hex(16))
    cpu, wall = time.process_time(), time.perf_counter()
    for n in range(commands):
        await games.handle(game, f"{tag}c{n}", COMMAND, nonce=secrets.token_hex(16))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return wall / commands * 1e6, cpu / commands * 1e6


async def main(commands: int, runs: int, checkpoints: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="umpire-bench-store-path-") as tmp:
        server = EmbeddedRedis(tmp, appendfsync="everysec").start()
        store = RedisEventStore.from_url(server.url, prefix="bench")
        heads = with_checkpoints(store, Path(tmp)) if checkpoints else None
        try:
            for run in range(runs):
                wall, cpu = await per_command(store, commands, f"r{run}")
                print(f"run {run + 1}: {commands} sequential Downtown RollDice through "
                      f"Games.handle: {wall:.0f} µs wall, {cpu:.0f} µs CPU a command")  # fmt: skip
        finally:
            await store.close()
            if heads is not None:
                heads.close()
            server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", type=int, default=4000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--checkpoints", action="store_true", help="write head checkpoints")
    options = parser.parse_args()
    asyncio.run(main(options.commands, options.runs, options.checkpoints))
