"""Bad input: structured errors or documented close codes; others keep being served;
nothing is written."""

from __future__ import annotations

import asyncio

import msgspec
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from umpire.clients import UmpireClient
from umpire.events.wire import CLOSE_RATE_LIMIT, CLOSE_TOO_BIG
from umpire.server.app import Running, running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.gateways import gateway_settings
from umpire.testing.support.wire import text


async def exchange(ws_url: str, frames: list[str | bytes]) -> list[dict]:
    replies = []
    async with connect(ws_url) as ws:
        await ws.recv()  # welcome
        for frame in frames:
            await ws.send(frame)
            replies.append(msgspec.json.decode(await asyncio.wait_for(ws.recv(), 5)))
    return replies


async def test_each_bad_frame_gets_a_structured_error(gateway: Running, ws_url: str) -> None:
    async with UmpireClient(ws_url) as good:
        created = await good.create("counter", {"target": 100})
        version = await gateway.gateway.store.version(created.game_id)
        command = {"type": "command", "game_id": created.game_id, "command_id": "c1",
                   "credential": created.player_credential}  # fmt: skip
        replies = await exchange(
            ws_url,
            [
                "this is not json",
                text({"type": "subscribe", "game_id": 42}),
                text({"type": "launch_missiles"}),
                text({"type": "create", "ruleset": "chess", "id": "r"}),
                text({**command, "command": {"type": "Add", "amount": 99}, "id": "v"}),
                text({**command, "command": {"type": "Fly"}, "id": "u"}),
                b"\x00\x01binary",
                text({"type": "subscribe", "game_id": "bad{id}"}),
                # The wrong shape at once, and not JSON further on: the typed decode stops
                # at the array, so only a second look finds that it is not JSON at all.
                '[1, "unterminated',
                '{"type": "auth", "credential": 5, "id": "late", "x": tru',
            ],
        )
        codes = [r["code"] for r in replies]
        assert codes == [
            "bad_json", "bad_message", "unknown_message_type", "unknown_ruleset",
            "invalid_command", "invalid_command", "binary_frame", "bad_message",
            "bad_json", "bad_json",
        ]  # fmt: skip
        assert all(r["type"] == "error" and r["message"] for r in replies)
        assert replies[3]["id"] == "r" and "counter" in replies[3]["message"]
        assert "amount" in replies[4]["message"]
        assert "Push" in replies[5]["details"]["allowed"]
        # The well-behaved client is still served, and nothing was written.
        assert await gateway.gateway.store.version(created.game_id) == version
        accepted = await good.send(created.game_id, {"type": "Add", "amount": 1})
        assert accepted.seqs == [version + 1, version + 2]


async def test_frame_over_the_size_limit_closes_1009(gateway: Running, ws_url: str) -> None:
    async with connect(ws_url, max_size=None) as ws:
        await ws.recv()
        await ws.send("x" * (gateway.gateway.settings.max_frame_bytes + 1))
        with pytest.raises(ConnectionClosed) as info:
            await asyncio.wait_for(ws.recv(), 5)
        assert info.value.rcvd is not None and info.value.rcvd.code == CLOSE_TOO_BIG
    async with UmpireClient(ws_url) as other:  # the server still serves
        await other.create("counter", {})


async def test_flood_over_the_rate_limit_closes_4008(
    redis_server: EmbeddedRedis, prefix: str
) -> None:
    settings = gateway_settings(prefix, max_messages_per_second=20, max_burst=20)
    async with running_gateway(settings, redis_server.url) as running:
        url = f"ws://127.0.0.1:{running.port}/ws"
        async with connect(url) as ws:
            await ws.recv()
            with pytest.raises(ConnectionClosed) as info:
                for _ in range(200):
                    await ws.send(text({"type": "list_games"}))
                while True:
                    await asyncio.wait_for(ws.recv(), 5)
            assert info.value.rcvd is not None and info.value.rcvd.code == CLOSE_RATE_LIMIT
        async with UmpireClient(url) as other:
            assert (await other.list_games()).games == []


async def test_too_many_subscriptions_are_refused(redis_server: EmbeddedRedis, prefix: str) -> None:
    settings = gateway_settings(prefix, max_subscriptions=2)
    async with running_gateway(settings, redis_server.url) as running:
        url = f"ws://127.0.0.1:{running.port}/ws"
        async with UmpireClient(url) as client:
            ids = [(await client.create("counter", {})).game_id for _ in range(3)]
            for game_id in ids[:2]:
                await client.request({"type": "subscribe", "game_id": game_id})
            with pytest.raises(Exception, match="at most 2 subscriptions"):
                await client.request({"type": "subscribe", "game_id": ids[2]})


async def test_a_refused_frame_lists_every_message_type(gateway: Running, ws_url: str) -> None:
    # Fails without the fix: the list the refusal gave was written out by hand and named
    # nine of the eleven client messages, without `dispute` and `rule`.
    frame = {"type": "command", "game_id": "g1", "command_id": "c", "command": {}, "dice": [[True]]}
    [reply] = await exchange(ws_url, [text(frame)])
    assert reply["code"] == "bad_message", reply
    listed = reply["message"].rsplit("(message types: ", 1)[1].rstrip(")").split(", ")
    assert set(listed) >= {"dispute", "rule", "create", "command", "bind_seed"}, listed
