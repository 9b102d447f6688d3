"""Revocation across two gateways on the cluster, with a password: the store URL names an
ACL user, and the default user may not subscribe to any channel for the test's duration,
so every pub/sub connection (the revocation listener's SSUBSCRIBE, each shard's feed
connection) works only if it authenticates as the URL's user (server/store_access.py,
`node_client`).

Fails on main: ShardChannels opened its node clients with host and port alone (the default
user, refused here with NOPERM), and the revocation listener passed every cluster
connection setting to `Redis()`, which does not take them all."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from bench.cluster import LocalCluster
from umpire.server.app import Running, running_gateway
from umpire.testing.support.gateways import gateway_settings
from umpire.testing.support.peer import Peer

OPERATOR = "o" * 32
USER, PASSWORD = "umpire-gw", "s3cret-pw"


@pytest.fixture
def users(cluster: LocalCluster) -> Iterator[str]:
    """The cluster's URL with an ACL user's credentials; the default user has no channels
    meanwhile (restored afterwards: the cluster is shared by the session)."""
    for port in cluster.ports:
        admin = cluster.client(port)
        admin.execute_command("ACL", "SETUSER", USER, "on", f">{PASSWORD}", "~*", "&*", "+@all")
        admin.execute_command("ACL", "SETUSER", "default", "resetchannels")
    try:
        yield f"redis://{USER}:{PASSWORD}@127.0.0.1:{cluster.ports[0]}"
    finally:
        for port in cluster.ports:
            admin = cluster.client(port)
            admin.execute_command("ACL", "SETUSER", "default", "allchannels")
            admin.execute_command("ACL", "DELUSER", USER)


def url(running: Running) -> str:
    return f"ws://127.0.0.1:{running.port}/ws"


async def test_a_revoke_on_one_cluster_gateway_refuses_the_next_read_on_another(
    cluster: LocalCluster, users: str, prefix: str
) -> None:
    settings = gateway_settings(prefix, cluster=True, credential_recheck_seconds=600)
    async with running_gateway(settings, users) as a, running_gateway(settings, users) as b:
        owner = await Peer.open(url(a))
        create = {"type": "create", "ruleset": "counter", "setup": {"target": 999}}
        created = await owner.ok({**create, "client_entropy": "waived"})
        gid, spectator = created["game_id"], created["spectator_credential"]
        reader = await Peer.open(url(b))
        await reader.ok({"type": "subscribe", "game_id": gid, "from_seq": 0,
                         "credential": spectator})  # fmt: skip
        assert (await reader.request({"type": "view", "game_id": gid}))["type"] == "state"

        # Every subscribing connection is the URL's user: both revocation listeners and
        # the shard connection of b's feed (on main the feed's was the default user).
        deadline = asyncio.get_running_loop().time() + 10
        while True:
            subscribers = [c for c in cluster.clients() if int(c.get("ssub", "0"))]
            if len(subscribers) >= 3 or asyncio.get_running_loop().time() > deadline:
                break
            await asyncio.sleep(0.1)
        assert len(subscribers) >= 3, subscribers
        assert {c["user"] for c in subscribers} == {USER}, subscribers

        operator = await Peer.open(url(a))
        await operator.ok({"type": "auth", "credential": OPERATOR})
        revoked = await operator.ok({"type": "revoke", "credential": spectator})
        assert revoked["existed"] is True
        # Pushed, not awaited by the revoker: b acts on it as its listener reads it.
        async with asyncio.timeout(10):
            while b.gateway.metrics.revocations_heard < 1:
                await asyncio.sleep(0.005)
        answer = await reader.request({"type": "view", "game_id": gid})
        assert answer["code"] == "unauthorized" and "revoked" in answer["message"], answer
        assert b.gateway.metrics.revocations_heard == 1
        assert b.gateway.holders == {}
        for peer in (owner, operator, reader):
            await peer.close()
