"""bench/command_path.py: the command path it counts runs on this checkout, against the
suite's real Valkey (the count itself needs valgrind and is not taken here)."""

from __future__ import annotations

from bench import command_path
from umpire.server.embedded import EmbeddedRedis


async def test_the_peer_benchs_move_runs_through_a_session_and_its_driver(
    redis_server: EmbeddedRedis,
) -> None:
    # Downtown's RollDice with a nonce, each answered `accepted` (asserted in the loop).
    await command_path._commands(redis_server.url, 3, "downtown")


async def test_the_counters_move_runs_too(redis_server: EmbeddedRedis) -> None:
    await command_path._commands(redis_server.url, 3, "counter")
