"""Revocation is immediate on every gateway: two gateways on one Valkey; a credential
revoked through one (or through the store, as `umpire revoke` does) gets no answer to
its next message on the other, and no event appended after the revocation. The periodic
re-check is set to 10 minutes here, so only the push (server/revocations.py) can do it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from tests.support.waiting import until
from umpire.events.redis_store import RedisEventStore
from umpire.server import credentials
from umpire.server.app import Running, running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.server.revocation_announcements import parse
from umpire.testing.support.gateways import gateway_settings
from umpire.testing.support.peer import Peer

OPERATOR = "o" * 32


@pytest.fixture
async def two_gateways(
    redis_server: EmbeddedRedis, prefix: str
) -> AsyncIterator[tuple[Running, Running]]:
    settings = gateway_settings(prefix, credential_recheck_seconds=600)
    async with (
        running_gateway(settings, redis_server.url) as a,
        running_gateway(settings, redis_server.url) as b,
    ):
        yield a, b


async def heard(*gateways: Running, within: float = 10.0) -> None:
    """Wait until every gateway has heard one revocation announcement."""
    async with asyncio.timeout(within):
        while any(g.gateway.metrics.revocations_heard < 1 for g in gateways):
            await asyncio.sleep(0.005)


def url(running: Running) -> str:
    return f"ws://127.0.0.1:{running.port}/ws"


async def spectators_on(gateway: Running, gid: str, credential: str, n: int) -> list[Peer]:
    peers = []
    for _ in range(n):
        peer = await Peer.open(url(gateway))
        await peer.ok({"type": "subscribe", "game_id": gid, "from_seq": 0,
                       "credential": credential})  # fmt: skip
        peers.append(peer)
    return peers


def test_announcements_parse() -> None:
    assert parse(b"g1 " + b"a" * 64) == ("g1", "a" * 64)
    assert parse(b"garbage") is None and parse(b"g1 short") is None


async def test_a_revoke_on_one_gateway_refuses_the_next_read_on_another(
    two_gateways: tuple[Running, Running],
) -> None:
    # Fails on main: the other gateway answered `view` and sent events for seconds.
    a, b = two_gateways
    owner = await Peer.open(url(a))
    created = await owner.ok({"type": "create", "ruleset": "counter", "setup": {"target": 999},
                              "client_entropy": "waived"})  # fmt: skip
    gid, spectator = created["game_id"], created["spectator_credential"]
    readers = await spectators_on(b, gid, spectator, 5)
    # A subscription on b that stays (the operator's): once it has an event, b's feed has
    # handed that event to every subscription it still feeds.
    witness = await Peer.open(url(b))
    await witness.ok({"type": "auth", "credential": OPERATOR})
    await witness.ok({"type": "subscribe", "game_id": gid, "from_seq": 0})
    for reader in readers:  # reading works before the revocation
        assert (await reader.request({"type": "view", "game_id": gid}))["type"] == "state"

    # The readers keep asking while the operator revokes on the other gateway.
    stop = asyncio.Event()

    async def hammer(peer: Peer) -> None:
        while not stop.is_set():
            await peer.request({"type": "view", "game_id": gid})

    started = [len(r.frames) for r in readers]
    hammering = [asyncio.create_task(hammer(r)) for r in readers]
    await until(  # every reader under way (a count, not a time)
        lambda: all(len(r.frames) >= n + 3 for r, n in zip(readers, started, strict=True)),
        what="three answers to every reader",
    )
    operator = await Peer.open(url(a))
    await operator.ok({"type": "auth", "credential": OPERATOR})
    revoked = await operator.ok({"type": "revoke", "credential": spectator})
    assert revoked["existed"] is True
    marks = [len(r.frames) for r in readers]
    stop.set()
    await asyncio.gather(*hammering)
    await heard(b)
    # Every message sent after the revoke was answered `unauthorized`; nothing else came.
    for reader in readers:
        answer = await reader.request({"type": "view", "game_id": gid})
        assert answer["code"] == "unauthorized" and "revoked" in answer["message"]
        listed = await reader.request({"type": "list_games"})
        assert listed["games"] == []
    await owner.ok({"type": "command", "game_id": gid, "command_id": "after",
                    "command": {"type": "Push"}})  # fmt: skip
    await witness.wait_for(lambda f: f.get("command_id") == "after", 30)
    for reader in readers:  # a round trip: it comes back after anything queued before it
        await reader.request({"type": "list_games"})
    for reader, mark in zip(readers, marks, strict=True):
        later = reader.frames[mark:]
        # At most the answer to a view sent before the revoke was answered (in flight).
        assert sum(f["type"] == "state" for f in later) <= 1, later
        assert not [f for f in later if f["type"] == "event"]
        assert [f for f in reader.frames if f.get("code") == "credential_revoked"]
    assert b.gateway.holders == {}
    assert b.gateway.metrics.revocations_heard == 1
    for peer in (owner, operator, witness, *readers):
        await peer.close()


async def test_a_revoke_through_the_store_reaches_every_gateway(
    two_gateways: tuple[Running, Running], store: RedisEventStore
) -> None:
    a, b = two_gateways
    owner = await Peer.open(url(a))
    created = await owner.ok({"type": "create", "ruleset": "counter", "setup": {"target": 999},
                              "client_entropy": "waived"})  # fmt: skip
    gid, player = created["game_id"], created["player_credential"]
    holders = [await Peer.open(url(g)) for g in (a, b)]
    for peer in holders:
        await peer.ok({"type": "auth", "credential": player})
    assert await credentials.revoke(store, player)  # what `umpire revoke` does
    # The announcement is pushed, not awaited by the revoker: each gateway acts on it as
    # its listener reads it (milliseconds; a view racing it on a loaded machine may still
    # be answered). What holds is that from then on nothing more is answered.
    await heard(a, b)
    for peer in holders:
        answer = await peer.request({"type": "view", "game_id": gid})
        assert answer["code"] == "unauthorized" and "revoked" in answer["message"]
        refused = await peer.request({"type": "auth", "credential": player})
        assert refused["code"] == "unauthorized"
    for peer in (owner, *holders):
        await peer.close()
