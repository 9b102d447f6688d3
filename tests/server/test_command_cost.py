"""What a player's command costs the store: one Redis call (the append script) once the
game is cached. The credential check, the version check, the hash link and a retried
command id are all answered inside that one call, and a cache that fell behind the log is
caught by it (tests/engine/test_handling.py). Measured on a private Valkey, so no other
test's traffic is counted."""

from __future__ import annotations

from pathlib import Path

import redis.asyncio as aioredis

from umpire.server.app import running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.gateways import gateway_settings
from umpire.testing.support.peer import Peer

UNCOUNTED = {"info", "config|resetstat", "config", "ping", "hello", "client|setinfo"}


async def _calls(client: aioredis.Redis) -> dict[str, int]:
    stats = await client.info("commandstats")
    calls = {name.removeprefix("cmdstat_"): int(v["calls"]) for name, v in stats.items()}
    return {name: n for name, n in calls.items() if name not in UNCOUNTED}


async def test_a_command_on_a_cached_game_is_one_redis_call(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "redis") as server:
        settings = gateway_settings("cost", credential_recheck_seconds=3600)
        async with running_gateway(settings, server.url) as running:
            peer = await Peer.open(f"ws://127.0.0.1:{running.port}/ws")
            created = await peer.ok(
                {
                    "type": "create",
                    "client_entropy": "waived",
                    "ruleset": "counter",
                    "setup": {"target": 1000},
                }
            )
            gid = created["game_id"]

            def command(n: int) -> dict[str, object]:
                add = {"type": "Add", "amount": 1}
                return {"type": "command", "game_id": gid, "command_id": f"c{n}", "command": add}

            client = aioredis.Redis.from_url(server.url)
            try:
                # The gateway that created the game has it cached, with its secret: even
                # the first command reads nothing first.
                await client.config_resetstat()
                accepted = await peer.ok(command(0))
                assert accepted["seqs"] == [2, 3]
                for n in range(1, 11):
                    accepted = await peer.ok(command(n))
                    assert accepted["seqs"] == [2 * n + 2, 2 * n + 3]
                again = await peer.ok(command(10))  # a retried id: answered by the script
                assert again["duplicate"] is True
                # Valkey counts the script's own calls too: per command 1 HGET (credential),
                # 1 HMGET (version and last hash), 1 HSETNX (the command id's entry), 2
                # XADDs, 1 HSET (the head), 1 PUBLISH; the retried id stops at its HSETNX
                # and an HGET of the first result. No XRANGE, no HEXISTS: nothing outside
                # the script.
                calls = await _calls(client)
                assert calls == {
                    "evalsha": 12, "hget": 13, "hmget": 12, "hsetnx": 12, "xadd": 22,
                    "hset": 11, "publish": 11,
                }  # fmt: skip
            finally:
                await client.aclose()
            await peer.close()
