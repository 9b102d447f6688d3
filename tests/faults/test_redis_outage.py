"""Redis unreachable for a while. Killed (connections refused): every request gets a
`store_unavailable` error frame, nothing is written, the gateway keeps serving,
and when Redis is back on the same port and data directory the same command ids are
accepted without any restart and subscribers receive every event with no gap. Frozen
(SIGSTOP, so requests time out instead of failing fast): the error comes when the store's
socket timeout expires, another connection is answered meanwhile, and a command that did
reach Redis is found by its id on retry, exactly once.

How soon each error comes is printed by `python -m bench outage` (bench/outage.py)."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from typing import Any

import pytest

from umpire.engine.audit import audit
from umpire.events.backoff import CAP_SECONDS, FIRST_SECONDS
from umpire.events.redis_store import RedisEventStore
from umpire.server import credentials
from umpire.server.app import Running, running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.gateways import gateway_settings, http_get
from umpire.testing.support.peer import Peer

FAIL_FAST_SECONDS = 3.0  # Redis down: connection refused, no waiting
SOCKET_TIMEOUT = 10.0  # events/redis_store.py: the client's socket timeout


@pytest.fixture
async def site(tmp_path) -> Any:
    redis = EmbeddedRedis(tmp_path / "redis", appendfsync="always").start()
    settings = gateway_settings("outage")
    try:
        async with running_gateway(settings, redis.url) as running:
            yield redis, running
    finally:
        redis.stop()


def command(gid: str, command_id: str) -> dict[str, Any]:
    return {"type": "command", "game_id": gid, "command_id": command_id,
            "command": {"type": "Add", "amount": 1}}  # fmt: skip


# How soon the error comes is the machine's speed, not asserted here: the tests wait for it
# generously; `python -m bench outage` (bench/outage.py) prints how soon beside the goals
# (refused: under FAIL_FAST_SECONDS; frozen: within the socket timeout + 2 s).
ANSWER_WITHIN = 60.0


async def until(condition: Any, what: str, seconds: float = 30.0) -> None:
    """Wait for `condition()` to hold, failing with `what` after a generous bound."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


async def test_redis_down_then_back(site: tuple[EmbeddedRedis, Running]) -> None:
    redis, running = site
    url = f"ws://127.0.0.1:{running.port}/ws"
    player = await Peer.open(url)
    created = await player.ok(
        {
            "type": "create",
            "client_entropy": "waived",
            "ruleset": "counter",
            "setup": {"target": 999},
        }
    )
    gid = created["game_id"]
    await player.ok({"type": "subscribe", "game_id": gid, "from_seq": 0})
    spectator = await Peer.open(url)
    await spectator.ok({"type": "subscribe", "game_id": gid, "from_seq": 0,
                        "credential": created["spectator_credential"]})  # fmt: skip
    for i in range(5):
        await player.ok(command(gid, f"before{i}"))
    before = await running.gateway.store.version(gid)

    redis.kill()
    refused = [
        command(gid, "during0"),
        command(gid, "during1"),
        {"type": "create", "client_entropy": "waived", "ruleset": "counter", "setup": {}},
        {"type": "auth", "credential": created["spectator_credential"]},
        {"type": "view", "game_id": gid},
    ]
    for message in refused:
        reply = await player.request(message, timeout=ANSWER_WITHIN)
        assert reply["type"] == "error" and reply["code"] == "store_unavailable", reply
        assert "retry" in reply["message"], reply
    status, body = await http_get(running.port, "/healthz")
    assert status == 503 and "unreachable" in body
    late = await Peer.open(url)  # new connections are still accepted and answered
    assert (await late.request({"type": "list_games"}))["type"] == "games"
    gateway = running.gateway
    await until(  # the pub/sub listeners met the outage and are backing off
        lambda: gateway.notifier.backoff.pauses and gateway.revocations.backoff.pauses,
        "the gateway's listeners never noticed the outage",
    )

    redis.start()  # same port, same data directory
    deadline = time.monotonic() + 15
    while True:  # the gateway reconnects by itself; the client retries by command id
        reply = await player.request(command(gid, "during0"), timeout=15)
        if reply["type"] == "accepted":
            break
        assert reply["code"] == "store_unavailable" and time.monotonic() < deadline, reply
        await asyncio.sleep(0.2)
    assert not reply["duplicate"] and reply["seqs"][0] == before + 1  # nothing partial before
    await player.ok(command(gid, "during1"))
    for i in range(5):
        await player.ok(command(gid, f"after{i}"))
    store = running.gateway.store
    head = await store.version(gid)
    assert head == before + 7 * 2
    for peer in (player, spectator):
        await peer.wait_for(lambda f: f["type"] == "event" and f["seq"] == head, 10)
        assert [e["seq"] for e in peer.events(gid)] == list(range(1, head + 1))
    status, _ = await http_get(running.port, "/healthz")
    assert status == 200
    envelopes = await store.read(gid)
    assert audit(envelopes).ok
    assert running.gateway.metrics.errors["internal"] == 0
    for peer in (player, spectator, late):
        await peer.close()


async def test_redis_frozen_times_out_and_the_retry_is_exactly_once(
    site: tuple[EmbeddedRedis, Running],
) -> None:
    redis, running = site
    assert redis.process is not None
    url = f"ws://127.0.0.1:{running.port}/ws"
    player = await Peer.open(url)
    created = await player.ok(
        {
            "type": "create",
            "client_entropy": "waived",
            "ruleset": "counter",
            "setup": {"target": 999},
        }
    )
    gid = created["game_id"]
    await player.ok(command(gid, "warm"))
    before = await running.gateway.store.version(gid)
    os.kill(redis.process.pid, signal.SIGSTOP)
    try:
        frozen = asyncio.create_task(player.request(command(gid, "frozen"), ANSWER_WITHIN))
        # The gateway itself never stops answering: another connection is answered while
        # the frozen command still waits on the store (an order, not a duration).
        other = await Peer.open(url)
        answer = await other.request({"type": "list_games"}, timeout=ANSWER_WITHIN)
        assert answer["type"] == "games" and not frozen.done(), answer
        reply = await frozen  # then the store's socket timeout answers it with an error
        assert reply["type"] == "error" and reply["code"] == "store_unavailable", reply
    finally:
        os.kill(redis.process.pid, signal.SIGCONT)
    # The frozen command may have reached Redis (it runs when Redis thaws): the retry by
    # the same id returns it, or appends it now; either way it is in the log once.
    deadline = time.monotonic() + 15
    while True:
        reply = await player.request(command(gid, "frozen"), timeout=15)
        if reply["type"] == "accepted":
            break
        assert reply["code"] == "store_unavailable" and time.monotonic() < deadline, reply
        await asyncio.sleep(0.2)
    store: RedisEventStore = running.gateway.store
    envelopes = await store.read(gid)
    recorded = [e.command_id for e in envelopes if e.type == "CommandRecorded"]
    assert recorded.count("frozen") == 1 and len(envelopes) == before + 2
    assert audit(envelopes).ok
    await player.close()
    await other.close()


async def test_an_external_redis_that_restarts_is_retried_with_capped_jittered_backoff(
    site: tuple[EmbeddedRedis, Running],
) -> None:
    """Redis (here a Valkey reached by its URL, as an external REDIS_URL is) stopped for
    5 s and started again on the same port: the gateway's own connections (the revocation
    listener, the notifier's pub/sub) pause between tries as events/backoff.py says,
    doubling from 0.1 s up to the 2 s cap, each drawn in the upper half of its step, so
    they do not hammer a server that is coming back; once it is back, they are subscribed
    again within one cap and a revocation published then is heard. On main they retried
    every 0.5 s, ten times in those 5 s."""
    redis, running = site
    gateway = running.gateway
    url = f"ws://127.0.0.1:{running.port}/ws"
    owner = await Peer.open(url)
    created = await owner.ok({"type": "create", "client_entropy": "waived",
                              "ruleset": "counter", "setup": {"target": 999}})  # fmt: skip
    gid, player = created["game_id"], created["player_credential"]
    await owner.ok({"type": "subscribe", "game_id": gid, "from_seq": 0})

    redis.stop()
    # Four tries each (0.1 + 0.2 + 0.4 + 0.8 s of pauses at the least): enough to see the
    # doubling and the jitter, whatever the machine's speed.
    await until(
        lambda: (
            min(len(gateway.revocations.backoff.pauses), len(gateway.notifier.backoff.pauses)) >= 4
        ),
        "the listeners did not retry",
    )
    for backoff in (gateway.revocations.backoff, gateway.notifier.backoff):
        pauses = list(backoff.pauses)
        assert len(pauses) >= 4, pauses
        for n, pause in enumerate(pauses):
            step = min(CAP_SECONDS, FIRST_SECONDS * 2**n)
            assert step / 2 <= pause <= step, (n, pauses)
        assert len(set(pauses)) == len(pauses), "jittered: no two pauses alike"

    redis.start()  # same port, same data directory
    await until(  # subscribed again by itself (within one cap on a quiet machine)
        lambda: not gateway.revocations.backoff.pauses and gateway.revocations._pubsub is not None,
        "the revocation listener never came back",
    )
    holder = await Peer.open(url)
    await holder.ok({"type": "auth", "credential": player})
    assert await credentials.revoke(gateway.store, player)
    # `revoke` publishes and does not wait for the gateways (docs/security.md): ask once
    # this gateway has heard it (asking sooner could still be answered with the state).
    await until(lambda: gateway.metrics.revocations_heard == 1, "the revocation was not heard")
    answer = await holder.request({"type": "view", "game_id": gid})
    assert answer["code"] == "unauthorized" and "revoked" in answer["message"], answer
    assert gateway.metrics.revocations_heard == 1
    for peer in (owner, holder):
        await peer.close()
