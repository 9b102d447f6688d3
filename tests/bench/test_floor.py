"""bench/floor.py, the floor under issue #33's ratios, serves what the peer bench's umpire
adapter sends, and with --store acknowledges a move only after its XADD (no speed is
asserted: its figures come from the peer bench on a quiet machine)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import redis.asyncio as redis
from websockets.asyncio.client import connect

from tests.support.processes import REPO, wait_for_port
from umpire.server.embedded import EmbeddedRedis, free_port


@pytest.mark.parametrize("client", [[], ["--raw"]], ids=["redis-py", "raw"])
async def test_the_floor_plays_the_peer_bench_moves_and_appends_each_before_its_ack(
    tmp_path: Path, client: list[str]
) -> None:
    server = EmbeddedRedis(tmp_path / "redis", appendfsync="everysec").start()
    port = free_port()
    floor = subprocess.Popen(
        [sys.executable, "-m", "bench.floor", "--store", "--workers", "1", *client],
        cwd=REPO,
        env={**os.environ, "UMPIRE_PORT": str(port), "REDIS_URL": server.url},
    )
    store = redis.Redis.from_url(server.url)
    try:
        wait_for_port(port)
        async with connect(f"ws://127.0.0.1:{port}/ws") as ws:

            async def ask(message: dict[str, object]) -> dict[str, object]:
                await ws.send(json.dumps(message))
                reply = json.loads(await ws.recv())
                assert isinstance(reply, dict)
                return reply

            created = await ask({"type": "create", "ruleset": "downtown", "setup": {}, "id": "c"})
            assert created["type"] == "created"
            game = created["game_id"]
            assert (await ask({"type": "bind_seed", "game_id": game, "id": "b"}))[
                "type"
            ] == "accepted"
            assert (await ask({"type": "auth", "id": "a", "credential": "x"}))[
                "type"
            ] == "authenticated"
            for seq in (1, 2, 3):
                move = {"type": "RollDice", "dice": "d6", "purpose": "bench"}
                accepted = await ask(
                    {"type": "command", "id": "k", "game_id": game, "command": move}
                )
                assert accepted["type"] == "accepted" and accepted["seqs"] == [seq]
                assert accepted["face"] in range(1, 7)
                # Acknowledged, so already in the store.
                assert await store.xlen(f"floor:{game}") == seq
    finally:
        floor.send_signal(signal.SIGTERM)
        assert floor.wait(timeout=30) is not None
        await store.aclose()
        server.stop()
