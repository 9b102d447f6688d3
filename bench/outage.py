"""`python -m bench outage`: how soon a request is answered `store_unavailable` when the
store is away. Goals: killed (connections refused), each answer in under FAIL_FAST_SECONDS;
frozen (SIGSTOP: requests wait on the socket), within the store's socket timeout + 2 s.

One Valkey (appendfsync always) and one in-process gateway, as
tests/faults/test_redis_outage.py runs them; that test checks the behaviour (the error, the
gateway still answering, the retry exactly once), not these times.
"""

from __future__ import annotations

import os
import signal
import tempfile
import time
from pathlib import Path
from typing import Any

from umpire.server.app import running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.gateways import gateway_settings
from umpire.testing.support.peer import Peer

FAIL_FAST_SECONDS = 3.0
SOCKET_TIMEOUT = 10.0  # events/redis_store.py: the client's socket timeout
ANSWER_WITHIN = 60.0


def _command(gid: str, command_id: str) -> dict[str, Any]:
    return {"type": "command", "game_id": gid, "command_id": command_id,
            "command": {"type": "Add", "amount": 1}}  # fmt: skip


async def _answered(peer: Peer, message: dict[str, Any]) -> tuple[str, float]:
    """The error code the request was answered with, and after how many seconds."""
    started = time.monotonic()
    reply = await peer.request(message, timeout=ANSWER_WITHIN)
    return str(reply.get("code", reply["type"])), time.monotonic() - started


async def run() -> dict[str, Any]:
    """The measurement: seconds to each answer, killed and frozen."""
    with tempfile.TemporaryDirectory(prefix="umpire-bench-outage-") as tmp:
        redis = EmbeddedRedis(Path(tmp) / "redis", appendfsync="always").start()
        try:
            async with running_gateway(gateway_settings("bout"), redis.url) as running:
                player = await Peer.open(f"ws://127.0.0.1:{running.port}/ws")
                create = {"type": "create", "client_entropy": "waived", "ruleset": "counter",
                          "setup": {"target": 999}}  # fmt: skip
                created = await player.ok(create)
                gid = created["game_id"]
                await player.ok(_command(gid, "warm"))
                assert redis.process is not None
                os.kill(redis.process.pid, signal.SIGSTOP)
                try:
                    frozen = await _answered(player, _command(gid, "frozen"))
                finally:
                    os.kill(redis.process.pid, signal.SIGCONT)
                redis.kill()
                killed = [await _answered(player, _command(gid, f"down{n}")) for n in range(5)] + [
                    await _answered(player, {"type": "view", "game_id": gid})
                ]
                await player.close()
        finally:
            redis.stop()
    return {
        "killed": {"answers": sorted({code for code, _ in killed}),
                   "max_seconds": round(max(s for _, s in killed), 3)},
        "frozen": {"answer": frozen[0], "seconds": round(frozen[1], 3)},
        "machine_load_1min": round(os.getloadavg()[0], 2),
    }  # fmt: skip


def rows(figures: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(figure, measured, goal) for the table."""
    k, f = figures["killed"], figures["frozen"]
    return [
        ("store killed: slowest of 6 answers", f"{k['max_seconds']} s ({', '.join(k['answers'])})",
         f"< {FAIL_FAST_SECONDS:g} s, store_unavailable"),
        ("store frozen: the command's answer", f"{f['seconds']} s ({f['answer']})",
         f"≤ {SOCKET_TIMEOUT + 2:g} s (socket timeout + 2), store_unavailable "
         f"(load now {figures['machine_load_1min']})"),
    ]  # fmt: skip
