"""Issue 32, item 2 acceptance: while the largest allowed setup's opponent turn runs, another
game's commands are answered.

A real gateway process and real websockets: one client plays the largest Conflict of
Heroes setup the schema allows (testing/support/largest_setups.py: 40 x 40 map, 60 units,
60 cards of 12 Move orders; created with `umpire new --setup`, since the setup is larger
than a client frame) by Pass and TakeAiTurn in a loop; meanwhile another client sends
commands to a counter game one after another, and each AI turn counts how many of them
were answered while it was outstanding. The admission budgets are raised so that nothing
but the loop limits them. On main each AI turn of a larger setup held the gateway's loop
~4 s; the bounds make it ~0.13 s of CPU, and `decide` runs in a worker thread
(server/games.py), so the loop keeps serving.

How fast the other game is answered meanwhile (the issue's goal: p99 under 50 ms) is the
machine's speed, not asserted here: `python -m bench ai_turn` (bench/ai_turn.py) prints
that p99 beside its goal.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from tests.support.processes import REPO, start_gateway
from umpire.clients import UmpireClient
from umpire.events.errors import UmpireError
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.largest_setups import largest_conflict_of_heroes

AI_TURNS = 10  # opponent turns that must run while the other game plays
# The other game's answers during one AI turn, on the median turn: a held loop answers at
# most the one command in flight as the turn begins.
MIN_ANSWERED_PER_TURN = 3
CLIENT_FRAME_LIMIT = 2**24  # clients/client.py max_size; docs/protocol.md


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


async def test_another_game_is_answered_while_the_largest_ai_turns_run(
    redis_server: EmbeddedRedis, prefix: str, tmp_path: Path
) -> None:
    heavy = _create_largest(redis_server, prefix, tmp_path)
    # Budgets raised so that the AI turns run back to back: this checks the event loop,
    # not admission (which charges each turn's work and would space them out:
    # tests/server/test_command_work_charged.py).
    unlimited = str(10**9)
    gateway, port = start_gateway(
        redis_server.url, prefix, UMPIRE_COST_PER_SECOND=unlimited, UMPIRE_COST_BURST=unlimited,
        UMPIRE_ADDRESS_COST_PER_SECOND=unlimited, UMPIRE_ADDRESS_COST_BURST=unlimited,
    )  # fmt: skip
    url = f"ws://127.0.0.1:{port}/ws"
    # One counter: the other game's answers so far. Each AI turn notes it when the turn is
    # sent and when it is answered; the difference is how many of the other game's commands
    # were answered while that turn was outstanding (an order of events, not a duration).
    answered = 0
    overlaps: list[int] = []
    stop = asyncio.Event()

    async def ai_loop() -> None:
        async with UmpireClient(url) as player:
            await player.auth(heavy["player_credential"])
            while not stop.is_set():
                for command in ({"type": "Pass"}, {"type": "TakeAiTurn"}):
                    before = answered
                    try:
                        await player.send(heavy["game_id"], command)
                    except UmpireError:
                        continue  # the rules refused it now (whose turn): the other one
                    if command["type"] == "TakeAiTurn":
                        overlaps.append(answered - before)

    try:
        async with UmpireClient(url) as other:
            game = (await other.create("counter", {"target": 1_000_000})).game_id
            await other.send(game, {"type": "Add", "amount": 1})  # warm
            loop_task = asyncio.create_task(ai_loop())
            # The other game plays on, one command after another, until AI_TURNS turns
            # have run beside it (or the AI loop failed: its error is raised below).
            while len(overlaps) < AI_TURNS and not loop_task.done():
                await other.send(game, {"type": "Add", "amount": 1})
                answered += 1
            stop.set()
            await asyncio.wait_for(loop_task, 300)
    finally:
        gateway.terminate()
        gateway.wait(20)
    # Each AI turn's `decide` runs in a worker thread, so the loop keeps answering the other
    # game while it runs: a turn that held the loop would see at most the one command in
    # flight when it began, answered before or after it. The median, so that a turn the
    # scheduler starved of the other client does not decide it.
    print(f"the other game's answers during each AI turn: {overlaps}")
    overlaps.sort()
    assert overlaps[len(overlaps) // 2] >= MIN_ANSWERED_PER_TURN, overlaps
