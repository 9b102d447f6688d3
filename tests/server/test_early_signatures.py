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
from umpire.server.session import Session


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


async def test_a_reply_signed_early_asks_for_nothing_after_its_command(
    gateway: Running, ws_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command's answer carries its early receipt (server/driver.py
    `_early_signature`): the session makes no request after `Handle`, where it asked for
    the cached game, the receipt key and the signature, and the receipt is the same."""
    made: list[str] = []
    receive, resume = Session.receive, Session.resume

    def receiving(self: Session, *args: Any) -> Any:
        request = receive(self, *args)
        made.append(type(request).__name__)
        return request

    def resuming(self: Session, *args: Any) -> Any:
        request = resume(self, *args)
        made.append(type(request).__name__)
        return request

    gw = gateway.gateway
    async with UmpireClient(ws_url) as client:
        game = await client.create("counter", {"target": 100})
        monkeypatch.setattr(Session, "receive", receiving)
        monkeypatch.setattr(Session, "resume", resuming)
        used = gw.early.used
        sent = await client.send(game.game_id, {"type": "Push"}, command_id="c1")
        state = await client.view(game.game_id)
    assert made[:2] == ["Handle", "NoneType"]
    assert gw.early.used - used == 1
    assert accepted_verifies(game.receipt_key, sent)
    assert (sent.head_seq, sent.head_hash) == (state.seq, state.head_hash)


async def test_a_reply_whose_head_moved_on_states_the_head_it_finds(
    gateway: Running, ws_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the cache no longer holds the head its early receipt states (here: another
    command of the game is appended as this one is answered), the session asks as before,
    and the receipt states the head it then finds."""
    gw = gateway.gateway
    handle = gw.games.handle

    async def handled(game_id: str, *args: Any, **kwargs: Any) -> Any:
        result = await handle(game_id, *args, **kwargs)
        await handle(game_id, "between", {"type": "Push"}, nonce=f"{7:032x}")
        return result

    async with UmpireClient(ws_url) as client:
        game = await client.create("counter", {"target": 100})
        monkeypatch.setattr(gw.games, "handle", handled)
        sent = await client.send(game.game_id, {"type": "Push"}, command_id="c1")
    assert sent.head_seq > sent.seqs[-1]
    assert accepted_verifies(game.receipt_key, sent)
