"""Issue 32, item 2 acceptance: while the largest allowed setup's opponent turn runs, another
game's commands are answered promptly.

A real gateway process and real websockets: one client plays the largest Conflict of
Heroes setup the schema allows (tests/support/largest_setups.py: 40 x 40 map, 60 units,
60 cards of 12 Move orders; created with `umpire new --setup`, since the setup is larger
than a client frame) by Pass and TakeAiTurn in a loop; meanwhile another client sends
COMMANDS commands to a counter game one after another. Their round trips' 99th percentile
must stay under the issue's 50 ms. Shape, for a busy 2-core machine: many commands (the
p99 of 400 tolerates 4 slow ones), sent for as long as it takes 10 AI turns to run
(else nothing was measured); the admission budgets
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
from typing import Any

import pytest
from websockets.asyncio.client import connect

from tests.support.largest_setups import largest_conflict_of_heroes
from tests.support.processes import REPO, start_gateway
from umpire.clients import UmpireClient
from umpire.events.errors import UmpireError
from umpire.server.embedded import EmbeddedRedis

COMMANDS = 400
AI_TURNS = 10  # opponent turns that must run while the other game is measured
CLIENT_FRAME_LIMIT = 2**24  # clients/client.py max_size; docs/protocol.md
BOUND_MS = 50.0


def _create_largest(redis_server: EmbeddedRedis, prefix: str, tmp_path: Path) -> Any:
    """`umpire new conflict_of_heroes --setup` the largest setup; its `--json` answer."""
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
    return json.loads(made.stdout)


async def test_the_largest_setups_frames_fit_what_a_client_receives(
    redis_server: EmbeddedRedis, prefix: str, tmp_path: Path
) -> None:
    # A client receiving at the documented limit (docs/protocol.md, 16 MiB) gets the
    # largest setup's GameCreated and its state frame (a larger frame closes it with 1009).
    heavy = _create_largest(redis_server, prefix, tmp_path)
    gateway, port = start_gateway(redis_server.url, prefix)
    try:
        async with connect(f"ws://127.0.0.1:{port}/ws", max_size=CLIENT_FRAME_LIMIT) as ws:
            subscribe = {
                "type": "subscribe",
                "game_id": heavy["game_id"],
                "from_seq": 0,
                "view": True,
                "credential": heavy["spectator_credential"],
                "id": "1",
            }
            await ws.send(json.dumps(subscribe))
            frames: dict[str, int] = {}
            while "event" not in frames:
                raw = await asyncio.wait_for(ws.recv(), 30)
                kind = json.loads(raw)["type"]
                assert kind != "error", raw[:500]
                frames[kind] = len(raw.encode() if isinstance(raw, str) else raw)
    finally:
        gateway.terminate()
        gateway.wait(20)
    assert set(frames) >= {"subscribed", "state", "event"}
    assert max(frames.values()) < CLIENT_FRAME_LIMIT, frames


# The default run checks that the other game is served all through the AI turns; the p99
# itself is the machine's speed, asserted in the timing lane (.ci/run `-m timing`).
@pytest.mark.parametrize("strict", [False, pytest.param(True, marks=pytest.mark.timing)])
async def test_another_games_p99_stays_under_50_ms_during_the_largest_ai_turn(
    redis_server: EmbeddedRedis, prefix: str, tmp_path: Path, strict: bool
) -> None:
    heavy = _create_largest(redis_server, prefix, tmp_path)
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
            # At least COMMANDS commands, and for as long as it takes AI_TURNS turns.
            until = time.monotonic() + 120
            while len(times) < COMMANDS or turns - started < AI_TURNS:
                assert time.monotonic() < until, f"{turns - started} AI turns in 120 s"
                t0 = time.perf_counter()
                await other.send(game, {"type": "Add", "amount": 1})
                times.append((time.perf_counter() - t0) * 1000)
            during = turns - started
            stop.set()
            await asyncio.wait_for(loop_task, 60)
    finally:
        gateway.terminate()
        gateway.wait(20)
    times.sort()
    p99 = times[int(len(times) * 0.99) - 1]
    p50 = times[len(times) // 2]
    assert p99 < BOUND_MS or not strict, (
        f"p99 {p99:.1f} ms (p50 {p50:.1f} ms) over {during} AI turns"
    )
