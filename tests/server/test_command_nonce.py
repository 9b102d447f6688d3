"""Each command's own entropy (issue #30 item 5, break 8; docs/security.md): in a game that
binds client entropy every command without physical dice carries a nonce, recorded in its
CommandRecorded, and its server rolls derive from it; a command without one is refused
before the rules run, writing nothing and saying nothing of what it would have done."""

from __future__ import annotations

import msgspec
import pytest
from umpire_counter import RULESET

from tests.support.gateway_games import create_bound
from umpire.clients import UmpireClient, UmpireError
from umpire.engine.audit import audit
from umpire.engine.dice import d6, derive_faces
from umpire.engine.errors import InvalidNonce, NonceRequired
from umpire.engine.game import codec_for
from umpire.events.types import CommandRecorded, DiceRolled
from umpire.server.app import Running
from umpire.server.games import Games
from umpire.testing.support.nonces import nonce_of

CODEC = codec_for(RULESET)


async def _events(games: Games, game_id: str) -> list[msgspec.Struct]:
    return [CODEC.decode(e.type, e.version, e.payload) for e in await games.store.read(game_id)]


async def test_a_command_without_a_nonce_is_refused_and_tells_nothing(games: Games) -> None:
    created = await create_bound(games, "counter", {"target": 1000}, "cs")
    gid = created.game_id
    before = await games.store.version(gid)
    messages = set()
    # One that would roll (the bot's push) and one that would not (the player's add): the
    # same refusal, before the rules run, so it previews nothing of the rule path.
    for command in ({"type": "Push"}, {"type": "Add", "amount": 2}):
        with pytest.raises(NonceRequired) as refused:
            await games.handle(gid, f"c-{command['type']}", command, nonce="")
        messages.add(refused.value.message)
        assert refused.value.details == {}
    assert len(messages) == 1 and "nonce" in messages.pop()
    assert await games.store.version(gid) == before  # nothing written
    with pytest.raises(InvalidNonce):
        await games.handle(gid, "c-bad", {"type": "Push"}, nonce="NOT-HEX")
    assert await games.store.version(gid) == before


async def test_physical_dice_and_a_waived_game_take_no_nonce(games: Games) -> None:
    bound = await create_bound(games, "counter", {"target": 1000}, "cs", opponent_manual_dice=True)
    await games.handle(bound.game_id, "m", {"type": "Push"}, manual_dice=[[4]], nonce="")
    waived = await games.create("counter", {"target": 1000})
    await games.handle(waived.game_id, "w", {"type": "Push"}, nonce="")
    await games.handle(waived.game_id, "w2", {"type": "Push"}, nonce="ab" * 16)  # not used
    for gid in (bound.game_id, waived.game_id):
        recorded = [e for e in await _events(games, gid) if isinstance(e, CommandRecorded)]
        assert recorded and all(r.nonce is msgspec.UNSET for r in recorded)  # as before
    assert audit(await games.store.read(waived.game_id)).ok


async def test_the_recorded_nonce_derives_the_batchs_rolls_and_the_audit_checks_it(
    games: Games,
) -> None:
    created = await create_bound(games, "counter", {"target": 1000}, "cs")
    gid = created.game_id
    seed = await games.store.secret(gid)
    for n in range(3):
        await games.handle(gid, f"p{n}", {"type": "Push"})  # NoncedGames: nonce_of(id)
    events = await _events(games, gid)
    recorded = [e for e in events if isinstance(e, CommandRecorded)]
    rolls = [e for e in events if isinstance(e, DiceRolled)]
    assert [r.nonce for r in recorded] == [nonce_of(f"p{n}") for n in range(3)]
    for roll, command in zip(rolls, recorded, strict=True):
        assert roll.faces == derive_faces(seed[:32], "cs", roll.roll, d6(), command.entropy)
    await games.reveal(gid)
    report = audit(await games.store.read(gid))
    assert report.ok, report.failure
    assert report.rolls_verified == 3 and report.nonce_rolls == 3


async def test_the_clients_send_a_nonce_with_every_command(gateway: Running, ws_url: str) -> None:
    """The Python client adds one by itself (the same for every sending of one command id,
    so a server that drops a command after seeing its roll gets that roll again); a raw
    command without one, in a game that binds client entropy, is refused."""
    store = gateway.gateway.store
    async with UmpireClient(ws_url) as client:
        created = await client.create("counter", {"target": 1000})  # binds a fresh seed
        gid = created.game_id
        accepted = await client.send(gid, {"type": "Push"}, command_id="c-one")
        again = await client.send(gid, {"type": "Push"}, command_id="c-one")
        assert again.duplicate and again.seqs == accepted.seqs
        assert client.nonce_for(gid, "c-one") == client.nonce_for(gid, "c-one")
        assert client.nonce_for(gid, "c-one") != client.nonce_for(gid, "c-two")
        with pytest.raises(UmpireError) as refused:
            await client.request(
                {"type": "command", "game_id": gid, "command_id": "raw",
                 "command": {"type": "Push"}}
            )  # fmt: skip
        assert refused.value.code == "nonce_required"
        with pytest.raises(UmpireError) as malformed:
            await client.request(
                {"type": "command", "game_id": gid, "command_id": "raw", "nonce": "xyz",
                 "command": {"type": "Push"}}
            )  # fmt: skip
        assert "nonce" in malformed.value.message
    envelopes = await store.read(gid)
    recorded = [
        e for e in (CODEC.decode(v.type, v.version, v.payload) for v in envelopes)
        if isinstance(e, CommandRecorded)
    ]  # fmt: skip
    assert [r.nonce for r in recorded] == [client.nonce_for(gid, "c-one")]
