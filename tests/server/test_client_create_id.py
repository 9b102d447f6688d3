"""`UmpireClient.create(create_id=...)`: a create refused `store_unavailable` is retried
by the caller with the same create_id, which the refusal carries when the client made it
up (docs/protocol.md, "Re-sending a create"), and the retry answers with one game."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from umpire.clients import UmpireClient, UmpireError, new_create_id
from umpire.server.app import Running, running_gateway
from umpire.server.commands import game_id_for_create
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.gateways import gateway_settings

BOUNDED = 30.0  # seconds: far past the gateway's reconnect to a restarted store


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[tuple[EmbeddedRedis, Running]]:
    """A Valkey of this test's own (it is killed and started again) and a gateway on it."""
    redis = EmbeddedRedis(tmp_path / "redis", appendfsync="always").start()
    try:
        async with running_gateway(gateway_settings("create-id"), redis.url) as running:
            yield redis, running
    finally:
        redis.stop()


async def test_a_given_create_id_names_the_game(gateway: Running, ws_url: str) -> None:
    chosen = new_create_id()
    async with UmpireClient(ws_url) as client:
        created = await client.create("counter", {"target": 5}, create_id=chosen)
        again = await client.create(
            "counter", {"target": 5}, client_entropy="waived", create_id=new_create_id()
        )
    assert created.game_id == game_id_for_create(chosen)
    assert again.game_id != created.game_id  # a fresh one each create, by default


async def test_a_create_refused_store_unavailable_is_retried_with_its_create_id(
    site: tuple[EmbeddedRedis, Running],
) -> None:
    redis, running = site
    url = f"ws://127.0.0.1:{running.port}/ws"
    async with UmpireClient(url) as client:
        redis.kill()
        with pytest.raises(UmpireError) as refused:
            await client.create("counter", {"target": 5}, client_entropy="waived")
        assert refused.value.code == "store_unavailable"
        create_id = refused.value.create_id
        assert isinstance(create_id, str) and len(create_id) >= 16

        redis.start()  # same data directory
        async with asyncio.timeout(BOUNDED):
            while True:  # until the gateway finds the store again
                try:
                    created = await client.create(
                        "counter", {"target": 5}, client_entropy="waived", create_id=create_id
                    )
                    break
                except UmpireError as again:
                    assert again.code == "store_unavailable"
                    assert again.create_id == create_id  # the one given, carried back
                    await asyncio.sleep(0.1)
        assert created.game_id == game_id_for_create(create_id)
        # Sent once more with the same id (as after a lost answer): the same game, once.
        resent = await client.create(
            "counter", {"target": 5}, client_entropy="waived", create_id=create_id
        )
        assert resent.game_id == created.game_id
        assert await running.gateway.store.version(created.game_id) == 1
