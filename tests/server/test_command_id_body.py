"""A command id is bound to its body (issue 42): sent again with the same body it answers
`duplicate`; with another command, dice or nonce it is refused `command_id_reused`, and
nothing is written."""

from __future__ import annotations

import pytest

from umpire.clients import UmpireClient, UmpireError
from umpire.server.app import Running

NONCE = "5a" * 16


async def test_the_same_id_with_another_body_is_refused(gateway: Running, ws_url: str) -> None:
    store = gateway.gateway.store
    async with UmpireClient(ws_url) as client:
        created = await client.create("counter", {"target": 100})
        game = created.game_id
        add = {"type": "Add", "amount": 1}
        first = await client.send(game, add, command_id="c1", nonce=NONCE)
        head = await store.version(game)
        again = await client.send(game, dict(reversed(add.items())), command_id="c1", nonce=NONCE)
        assert again.duplicate and again.seqs == first.seqs
        others = [
            ({"type": "Add", "amount": 2}, {"nonce": NONCE}),  # another field value
            ({"type": "Push"}, {"nonce": NONCE}),  # another command type
            (add, {"nonce": "6b" * 16}),  # another nonce: a second draw of the dice
            (add, {"dice": [[3]]}),  # entered dice instead of the nonce
            ({"type": "Add", "amount": 99}, {"nonce": NONCE}),  # one the rules refuse
        ]
        for command, extra in others:
            with pytest.raises(UmpireError) as info:
                await client.send(game, command, command_id="c1", **extra)
            assert info.value.code == "command_id_reused", (command, extra, info.value)
            assert "c1" in str(info.value)
        assert await store.version(game) == head
        found = await store.command_result(game, "c1")
        assert found is not None and found.seqs == first.seqs
        # The first body is still answered as a duplicate.
        third = await client.send(game, add, command_id="c1", nonce=NONCE)
        assert third.duplicate and third.seqs == first.seqs
