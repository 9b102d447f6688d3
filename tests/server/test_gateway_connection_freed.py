"""A closed connection is freed when its handler returns, not at the next full garbage
collection: the gateway's collector makes those rare (server/collector.py), so cyclic
garbage of every closed connection (its Connection, Session, socket buffers) piled up in
the heap; the quick bench saw the gateway's RSS after its stages 30 MiB higher and twice the
growth per idle connection. The cycles were the Connection and its Session naming each
other and the cancelled writer task's error holding the writer's frame."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect

from tests.support.waiting import until
from umpire.server.app import running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.gateways import gateway_settings
from umpire.testing.support.nonces import nonce_of


async def _request(ws: ClientConnection, message: dict[str, Any]) -> dict[str, Any]:
    await ws.send(msgspec.json.encode(message).decode())
    while True:
        reply: dict[str, Any] = msgspec.json.decode(await ws.recv())
        if reply.get("id") == message["id"]:
            return reply


async def test_a_closed_connection_is_freed_without_a_garbage_collection(
    redis_server: EmbeddedRedis, prefix: str
) -> None:
    async with running_gateway(gateway_settings(prefix), redis_server.url) as running:
        gc.collect()
        gc.disable()
        try:
            async with connect(f"ws://127.0.0.1:{running.port}/ws") as ws:
                await ws.recv()  # welcome
                create = {"type": "create", "ruleset": "counter", "setup": {}, "id": "c"}
                created = await _request(ws, create)
                game_id = created["game_id"]
                subscribe = {"type": "subscribe", "game_id": game_id, "from_seq": 0, "id": "s"}
                await _request(ws, subscribe)
                command = {
                    "type": "command",
                    "game_id": game_id,
                    "command_id": "one",
                    "nonce": nonce_of("one"),  # as the umpire clients send it
                    "command": {"type": "Add", "amount": 1},
                    "id": "k",
                }
                assert (await _request(ws, command))["type"] == "accepted"
                [conn] = running.gateway.connections
                connection, session = weakref.ref(conn), weakref.ref(conn.session)
                del conn
            gateway = running.gateway
            await until(
                lambda: not gateway.handlers and not gateway.connections,
                what="the connection's handler ended",
            )
            # Its last references go as the handler's callbacks run (gc still off).
            await until(lambda: connection() is None, what="the Connection freed, gc off")
            assert session() is None, "the Session outlived its connection"
        finally:
            gc.enable()
