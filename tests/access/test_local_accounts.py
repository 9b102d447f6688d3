"""Each local account is its own client (issue 43, item 5).

umpire listens on loopback, where every account of the machine connects from 127.0.0.1.
Counted per address, another account holding the limit's worth of idle websockets locked
the owner out (close 4029), and with `--workers 2` each worker allowed the whole limit.
Here another local account holds as many idle connections as it can get on `umpire serve
--workers 2`: it gets the documented limit in all (each worker its share, not twice
over), and the owner's client still connects on both workers and plays. /metrics counts
the connections per local account, summed over the workers.

Fails before the change: the other account's connections fill 127.0.0.1's limit on both
workers (40 of them, twice the limit) and the owner's client is closed with 4029.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.support.local_user import other_user
from tests.support.serving import Serve, peers_on
from tests.support.waiting import until
from umpire.testing.support.gateways import http_get
from umpire.testing.support.raw_ws import RawWebSocket

# The documented limit (UMPIRE_MAX_CONNECTIONS_PER_ADDRESS) made small to keep this fast;
# 1,000 behaves alike. Each of the two workers holds half.
LIMIT = 40
ATTEMPTS = 100  # enough that each worker sees more than its share (the kernel spreads them)
WELCOME, CLOSE = 0x1, 0x8


def hold_connections(port: int, report: int, release: int) -> int:
    """As the other account: open ATTEMPTS websockets, keep those welcomed, write
    "<welcomed> <refused>" to `report`, and hold them until `release` is readable."""
    held: list[RawWebSocket] = []
    refused = 0
    for _ in range(ATTEMPTS):
        ws = RawWebSocket(port)
        opcode, payload = ws.read_frame()
        if opcode == WELCOME:
            held.append(ws)
        else:
            assert opcode == CLOSE and int.from_bytes(payload[:2], "big") == 4029, payload
            refused += 1
            ws.close()
    os.write(report, f"{len(held)} {refused}".encode())
    os.read(release, 1)
    for ws in held:
        ws.close()
    return 0


def local_connections(body: str, uid: int) -> float:
    for family in text_string_to_metric_families(body):
        for sample in family.samples:
            if sample.name == "umpire_local_user_connections" and sample.labels == {
                "uid": str(uid)
            }:
                return sample.value
    return 0.0


async def test_another_accounts_idle_connections_leave_the_owner_connecting(
    tmp_path: Path,
) -> None:
    if os.geteuid() != 0:
        pytest.skip("another local account's connections need root to drop to it")
    with other_user() as attacker:
        serve = Serve(tmp_path / "data", UMPIRE_MAX_CONNECTIONS_PER_ADDRESS=str(LIMIT))
        report_r, report_w = os.pipe()
        release_r, release_w = os.pipe()
        child = None
        try:

            def attack() -> int:
                os.close(report_r)
                os.close(release_w)
                return hold_connections(serve.port, report_w, release_r)

            for peer in await peers_on(serve.url, ["0", "1"]):  # both workers listen
                await peer.close()
            child = attacker.start(attack)
            os.close(report_w)
            os.close(release_r)
            line = await asyncio.wait_for(asyncio.to_thread(os.read, report_r, 100), 60)
            welcomed, refused = map(int, line.split())
            # The documented limit holds across the workers: not twice it.
            assert (welcomed, refused) == (LIMIT, ATTEMPTS - LIMIT)
            # The owner connects on both workers and plays.
            peers = await peers_on(serve.url, ["0", "1"])
            for n, peer in enumerate(peers):
                created = await peer.ok(
                    {"type": "create", "ruleset": "counter", "setup": {"target": 10}}
                )
                command = {
                    "type": "command",
                    "game_id": created["game_id"],
                    "command_id": f"owner-{n}",
                    "command": {"type": "Add", "amount": 1},
                }
                assert (await peer.ok(command))["type"] == "accepted"

            async def counted() -> str | None:
                _, body = await http_get(serve.port, "/metrics")
                mine = local_connections(body, os.getuid())
                return (
                    body if local_connections(body, attacker.uid) == LIMIT and mine == 2 else None
                )

            await until(counted, what=f"{LIMIT} connections of uid {attacker.uid} in /metrics")
            for peer in peers:
                await peer.close()
        finally:
            if child is not None:
                os.write(release_w, b"x")
                os.waitpid(child, 0)
            for fd in (report_r, release_w):
                os.close(fd)
            serve.stop()
