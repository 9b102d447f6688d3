"""Issue 32, item 2 acceptance: while the largest allowed setup's opponent turn runs, another
game's commands are answered promptly.

A real gateway process and real websockets: one client plays the largest Conflict of
Heroes setup the schema allows (tests/support/largest_setups.py: 40 x 40 map, 60 units,
60 cards of 12 Move orders; created with `umpire new --setup`, since the setup is larger
than a client frame) by Pass and TakeAiTurn in a loop; meanwhile another client sends
COMMANDS commands to a counter game one after another. Their round trips' 99th percentile
must stay under the issue's 50 ms. Shape, for a busy 2-core machine: many commands (the
p99 of 400 tolerates 4 slow ones), the AI loop runs throughout and must have finished
several turns during the measurement (else nothing was measured); the admission budgets
are raised so that nothing but the loop limits them. On main each AI turn of
a larger setup held the gateway's loop ~4 s; the bounds make it ~0.13 s of CPU, and
`decide` runs in a worker thread (server/games.py), so the loop keeps serving.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from tests.support.largest_setups import largest_conflict_of_heroes
from tests.support.processes import REPO, start_gateway
from umpire.clients import UmpireClient
from umpire.events.errors import UmpireError
from umpire.server.embedded import EmbeddedRedis

COMMANDS = 400
BOUND_MS = 50.0


async def test_another_games_p99_stays_under_50_ms_during_the_largest_ai_turn(
    redis_server: EmbeddedRedis, prefix: str, tmp_path: Path
) -> None:
    setup = tmp_path / "largest.json"
    setup.write_text(json.dumps(largest_conflict_of_heroes()))
    env = {**os.environ, "PYTHONPATH": str(REPO), "REDIS_URL": redis_server.url,
           "UMPIRE_PREFIX": prefix, "UMPIRE_DATA_DIR": str(tmp_path / "data"),
           "UMPIRE_EXTRA_RULESETS": "umpire_counter:RULESET"}  # fmt: skip
    made = subprocess.run(
        [sys.executable, "-m", "umpire.server.cli", "new", "conflict_of_heroes", "--json",
         "--setup", str(setup)], capture_output=True, text=True, timeout=120, env=env, cwd=REPO,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    heavy = json.loads(made.stdout)
    # Budgets raised so that the AI turns run back to back: this measures the event loop,
    # not admission (which charges each turn's work and would space them out:
    # tests/server/test_command_work_charged.py).
    unlimited = str(10**9)
    gateway, port = start_gateway(
        redis_server.url, prefix, UMPIRE_COST_PER_SECOND=unlimited, UMPIRE_COST_BURST=unlimited,
        UMPIRE_ADDRESS_COST_PER_SECOND=unlimited, UMPIRE_ADDRESS_COST_BURST=unlimited,
    )  # fmt: skip
    url = f"ws://127.0.0.1:{port}/ws"
    turns = 0
    stop = asyncio.Event()

    async def ai_loop() -> None:
        nonlocal turns
        async with UmpireClient(url) as player:
            await player.auth(heavy["player_credential"])
            while not stop.is_set():
                for command in ({"type": "Pass"}, {"type": "TakeAiTurn"}):
                    try:
                        await player.send(heavy["game_id"], command)
                    except UmpireError:
                        continue  # the rules refused it now (whose turn): the other one
                    turns += command["type"] == "TakeAiTurn"

    try:
        async with UmpireClient(url) as other:
            game = (await other.create("counter", {"target": 1_000_000})).game_id
            await other.send(game, {"type": "Add", "amount": 1})  # warm
            loop_task = asyncio.create_task(ai_loop())
            deadline = time.monotonic() + 120
            while turns < 1 and time.monotonic() < deadline:
                await asyncio.sleep(0.05)  # until the AI turns are under way
            assert turns >= 1, "no AI turn completed"
            started = turns
            times = []
            for _ in range(COMMANDS):
                t0 = time.perf_counter()
                await other.send(game, {"type": "Add", "amount": 1})
                times.append((time.perf_counter() - t0) * 1000)
            during = turns - started
            stop.set()
            await asyncio.wait_for(loop_task, 60)
    finally:
        gateway.terminate()
        gateway.wait(20)
    assert during >= 3, f"only {during} AI turns ran during the measurement"
    times.sort()
    p99 = times[int(len(times) * 0.99) - 1]
    p50 = times[len(times) // 2]
    assert p99 < BOUND_MS, f"p99 {p99:.1f} ms (p50 {p50:.1f} ms) over {during} AI turns"
