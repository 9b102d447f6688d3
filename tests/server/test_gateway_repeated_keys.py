"""A frame that names one field twice in an object is refused, naming the field, and
writes nothing (server/repeated_keys.py). Before (red team, 2026-11-29), the gateway kept
the last value without a word: `"command": {Add 1}, "command": {Add 4}` added 4, and an
inner `"amount": 1, "amount": 5` added 5, where a proxy, a log or the sender's own check
reading the first value saw another command; `"type": "view", "type": "command"` was
refused with "Invalid value 'command' ... allowed: 'command'"."""

from __future__ import annotations

import asyncio

import msgspec
from websockets.asyncio.client import connect

from umpire.clients import UmpireClient
from umpire.server.app import Running
from umpire.testing.support.nonces import nonce_of


async def test_a_repeated_field_is_refused_by_name_and_writes_nothing(
    gateway: Running, ws_url: str
) -> None:
    async with UmpireClient(ws_url) as owner:
        created = await owner.create("counter", {"target": 100}, client_entropy="waived")
        game = created.game_id
        store = gateway.gateway.store
        version = await store.version(game)
        head = (
            f'"type": "command", "game_id": "{game}", "credential": "{created.player_credential}"'
        )
        frames = {
            "command": f'{{{head}, "command_id": "a", "id": "1", '
            '"command": {"type": "Add", "amount": 1}, "command": {"type": "Add", "amount": 4}}',
            "amount": f'{{{head}, "command_id": "b", "id": "2", '
            '"command": {"type": "Add", "amount": 1, "amount": 5}}',
            "type": f'{{"type": "view", "type": "command", "game_id": "{game}", "id": "3"}}',
            # The same key once escaped: one key to every parser that decodes it.
            "command_id": f'{{{head}, "command_id": "c", "command_\\u0069d": "d", "id": "4", '
            '"command": {"type": "Add", "amount": 1}}',
            # Not JSON to msgspec (NaN), JSON to the standard library: answered, no id.
            "n": '{"type": "list_games", "n": NaN, "n": 1}',
        }
        async with connect(ws_url) as ws:
            await ws.recv()  # welcome
            for field, frame in frames.items():
                await ws.send(frame)
                reply = msgspec.json.decode(await asyncio.wait_for(ws.recv(), 5))
                assert reply["type"] == "error" and reply["code"] == "bad_message", reply
                assert reply["details"] == {"field": field}, reply
                assert f"'{field}' twice" in reply["message"], reply
            assert await store.version(game) == version  # nothing was written
            # The connection stays, and a frame with each field once is served.
            await ws.send(
                f'{{{head}, "command_id": "e", "id": "5", "nonce": "{nonce_of("e")}", '
                '"command": {"type": "Add", "amount": 2}}'
            )
            reply = msgspec.json.decode(await asyncio.wait_for(ws.recv(), 5))
            assert reply["type"] == "accepted", reply
        assert (await owner.view(game)).state["total"] == 2
