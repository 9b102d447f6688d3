"""A subscribe past the end of the log: a mistaken seq is told apart from a lost one.

The gateway runs as `umpire serve` runs it on its embedded store, with the data
directory's head checkpoints (server/head_checkpoints.py): they say the highest seq of a
game ever acknowledged, so a `from_seq` past it was never sent to anyone (red team 9: a
client's typo was told "the store lost events you were sent").
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.support.lost_writes import lose_writes_after_seq_1
from umpire.clients import UmpireClient, UmpireError
from umpire.server.app import Running, running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.gateways import gateway_settings


@pytest.fixture
async def checkpointed(
    redis_server: EmbeddedRedis, prefix: str, tmp_path: Path
) -> AsyncIterator[Running]:
    """A gateway on the suite's Redis that records its heads in `tmp_path`'s checkpoints."""
    async with running_gateway(
        gateway_settings(prefix), redis_server.url, disk=tmp_path
    ) as running:
        yield running


async def _game(client: UmpireClient, running: Running) -> tuple[str, int]:
    """A game of a few commands, and its head."""
    created = await client.create("counter", {"target": 1_000})
    for n in range(3):
        await client.send(created.game_id, {"type": "Add", "amount": 1}, command_id=f"c{n}")
    return created.game_id, await running.gateway.store.version(created.game_id)


async def test_a_from_seq_never_sent_is_refused_as_past_the_head(checkpointed: Running) -> None:
    async with UmpireClient(f"ws://127.0.0.1:{checkpointed.port}/ws") as client:
        gid, head = await _game(client, checkpointed)
        mistaken = {"type": "subscribe", "game_id": gid, "from_seq": head + 40}
        with pytest.raises(UmpireError) as refused:
            await client.request(mistaken)
        assert refused.value.code == "from_seq_past_head", refused.value
        assert refused.value.details == {"game_id": gid, "head": head, "from_seq": head + 40}
        assert f"allowed: 0 to {head}" in str(refused.value), refused.value
        assert "lost" not in str(refused.value), refused.value
        assert gid not in checkpointed.gateway.notifier.feeds  # a refusal opens nothing


async def test_a_from_seq_the_store_lost_is_still_log_rewound(checkpointed: Running) -> None:
    async with UmpireClient(f"ws://127.0.0.1:{checkpointed.port}/ws") as client:
        gid, held = await _game(client, checkpointed)
        await lose_writes_after_seq_1(checkpointed.gateway.store, gid, ["c0", "c1", "c2"])
        resume = {"type": "subscribe", "game_id": gid, "from_seq": held}
        with pytest.raises(UmpireError) as refused:  # acknowledged once: it was sent
            await client.request(resume)
        assert refused.value.code == "log_rewound", refused.value
        assert refused.value.details == {"game_id": gid, "head": 1, "from_seq": held}
        assert "allowed: 0 to 1" in str(refused.value), refused.value
