"""Issue #44: an `accepted` receipt is signed while its append is on its way to the store
(server/receipt_batch.py `EarlySignatures`), and only a reply whose statement is that very
one uses it: a duplicate, whose append writes nothing, is signed as before. Over real
websockets, against the suite's Valkey."""

from __future__ import annotations

from typing import Any

import pytest
from redis.asyncio.connection import AbstractConnection

from tests.support.receipts import accepted_verifies
from umpire.clients import UmpireClient
from umpire.server.app import Running


async def test_a_lone_players_receipts_are_signed_before_their_appends_are_answered(
    gateway: Running, ws_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    gw = gateway.gateway
    batcher = gw.store._batcher
    assert batcher is not None
    # In order: each signature asked for, and each reply the store's batcher read.
    order: list[str] = []
    read = AbstractConnection.read_response

    async def reading(conn: AbstractConnection, *args: Any, **kwargs: Any) -> Any:
        reply = await read(conn, *args, **kwargs)
        if conn in batcher._made:
            order.append("answered")
        return reply

    sign = gw.signing.sign

    def signing(*args: Any) -> Any:
        order.append("signed")
        return sign(*args)

    monkeypatch.setattr(AbstractConnection, "read_response", reading)
    monkeypatch.setattr(gw.signing, "sign", signing)
    signed_before = gw.signing.leaves
    async with UmpireClient(ws_url) as client:
        game = await client.create("counter", {"target": 100})
        started, used = gw.early.started, gw.early.used
        order.clear()
        sent = [
            await client.send(game.game_id, {"type": "Push"}, command_id=f"c{n}") for n in range(5)
        ]
    assert all(accepted_verifies(game.receipt_key, a) for a in sent)
    # Each reply used the signature made for it, asked for before the store's answer to
    # its own append was read.
    assert (gw.early.started - started, gw.early.used - used) == (5, 5)
    assert order == ["signed", "answered"] * 5
    assert len(gw.early) == 0
    assert gw.signing.leaves - signed_before >= 5


async def test_a_duplicate_drops_its_early_signature_and_is_signed_as_before(
    gateway: Running, ws_url: str
) -> None:
    gw = gateway.gateway
    async with UmpireClient(ws_url) as client:
        game = await client.create("counter", {"target": 100})
        first = await client.send(game.game_id, {"type": "Push"}, command_id="once")
        then = await client.send(game.game_id, {"type": "Push"}, command_id="then")
        # The cache forgets the game, so the retried id reaches the append script, which
        # answers it as a duplicate after its early signature was started.
        gw.games._forget(game.game_id)
        started, used = gw.early.started, gw.early.used
        again = await client.send(game.game_id, {"type": "Push"}, command_id="once")
    assert again.duplicate and again.seqs == first.seqs
    assert again.head_seq == then.head_seq  # the head now, past `then`
    assert accepted_verifies(game.receipt_key, again)
    assert gw.early.started - started == 1 and gw.early.used == used
    assert len(gw.early) == 0
