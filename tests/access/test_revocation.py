"""Revocation: a revoked credential is refused on its next auth; on the gateway that revoked
it, every connection holding it loses the game at once (subscription dropped, a
`credential_revoked` frame); any gateway refuses its next command; other gateways drop its
subscriptions within `credential_recheck_seconds`."""

from __future__ import annotations

from umpire.events.redis_store import RedisEventStore
from umpire.server import credentials
from umpire.server.app import Running, running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.gateways import gateway_settings
from umpire.testing.support.peer import Peer

OPERATOR = "o" * 32


async def _game(url: str) -> tuple[Peer, dict]:
    owner = await Peer.open(url)
    created = await owner.ok(
        {
            "type": "create",
            "client_entropy": "waived",
            "ruleset": "counter",
            "setup": {"target": 99},
        }
    )
    return owner, created


async def test_operator_revokes_a_player_credential(gateway: Running, ws_url: str) -> None:
    owner, created = await _game(ws_url)
    gid, player = created["game_id"], created["player_credential"]
    holder = await Peer.open(ws_url)
    await holder.ok({"type": "auth", "credential": player})
    await holder.ok({"type": "subscribe", "game_id": gid, "from_seq": 0})
    await holder.ok({"type": "command", "game_id": gid, "command_id": "c1",
                     "command": {"type": "Push"}})  # fmt: skip
    spectator = await Peer.open(ws_url)
    await spectator.ok({"type": "subscribe", "game_id": gid, "from_seq": 0,
                        "credential": created["spectator_credential"]})  # fmt: skip
    version = await gateway.gateway.store.version(gid)

    stranger = await Peer.open(ws_url)
    refused = await stranger.request({"type": "revoke", "credential": player})
    assert refused["type"] == "error" and refused["code"] == "unauthorized"
    assert "operator" in refused["message"]
    await stranger.ok({"type": "auth", "credential": player})  # not revoked by that

    operator = await Peer.open(ws_url)
    await operator.ok({"type": "auth", "credential": OPERATOR})
    revoked = await operator.ok({"type": "revoke", "credential": player})
    assert revoked["type"] == "revoked" and revoked["existed"] is True
    assert revoked["game_id"] == gid and revoked["dropped"] == 3  # owner, holder, stranger

    notice = await holder.wait_for(lambda f: f.get("code") == "credential_revoked", 5)
    assert notice["details"] == {"game_id": gid, "subscription_dropped": True}
    assert "id" not in notice or notice["id"] is None
    for peer in (owner, holder):
        again = await peer.request({"type": "command", "game_id": gid, "command_id": "c2",
                                    "command": {"type": "Push"}})  # fmt: skip
        assert again["type"] == "error" and again["code"] == "unauthorized"
    fresh = await Peer.open(ws_url)
    denied = await fresh.request({"type": "auth", "credential": player})
    assert denied["code"] == "unauthorized"
    assert (await operator.ok({"type": "revoke", "credential": player}))["existed"] is False
    # The spectator credential still works; nothing was written by any refusal.
    await fresh.ok({"type": "auth", "credential": created["spectator_credential"]})
    assert await gateway.gateway.store.version(gid) == version
    # The dropped subscription sends nothing more: a later event reaches the spectator only.
    await gateway.gateway.games.handle(gid, "late", {"type": "Push"})
    await spectator.wait_for(lambda f: f.get("command_id") == "late", 5)
    # The feed handed the event to every live subscription at once, before the spectator
    # had it; a round trip on the holder's connection comes back after anything queued.
    await holder.request({"type": "list_games"})
    assert all(f.get("command_id") != "late" for f in holder.frames)
    for peer in (owner, holder, spectator, stranger, operator, fresh):
        await peer.close()


async def test_revocation_elsewhere_refuses_the_next_command_and_drops_subscriptions(
    redis_server: EmbeddedRedis, prefix: str, store: RedisEventStore
) -> None:
    """Revoked through the store (as the CLI or another gateway would): this gateway
    refuses the next command at once and drops the subscription on its re-check."""
    settings = gateway_settings(prefix, credential_recheck_seconds=0.3)
    async with running_gateway(settings, redis_server.url) as running:
        url = f"ws://127.0.0.1:{running.port}/ws"
        owner, created = await _game(url)
        gid, player = created["game_id"], created["player_credential"]
        watcher = await Peer.open(url)
        await watcher.ok({"type": "subscribe", "game_id": gid, "credential": player})
        assert await credentials.revoke(store, player)
        refused = await owner.request({"type": "command", "game_id": gid, "command_id": "x",
                                       "command": {"type": "Push"}})  # fmt: skip
        assert refused["code"] == "unauthorized" and "revoked" in refused["message"]
        notice = await watcher.wait_for(lambda f: f.get("code") == "credential_revoked", 3)
        assert notice["details"]["subscription_dropped"] is True
        assert await store.version(gid) == 1
        assert running.gateway.holders == {}
        await owner.close()
        await watcher.close()
