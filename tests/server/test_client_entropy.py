"""Grind-proof dice over a real gateway (issue #16 item 3, docs/audit.md (4.1)): the server's
commitment reaches the client before the client's seed is taken, and no server roll happens
before that seed is bound."""

from __future__ import annotations

import hashlib
import secrets

import msgspec
import pytest
from umpire_counter import RULESET

from umpire.clients import UmpireClient, UmpireError
from umpire.engine.audit import audit
from umpire.engine.dice import d6, derive_faces
from umpire.engine.game import codec_for
from umpire.events.types import ClientSeedBound, DiceRolled, GameCreated, SeedRevealed
from umpire.server.app import Running
from umpire.testing.support.nonces import roll_nonces

CODEC = codec_for(RULESET)


async def _events(gateway: Running, game_id: str) -> list[msgspec.Struct]:
    envelopes = await gateway.gateway.store.read(game_id)
    return [CODEC.decode(e.type, e.version, e.payload) for e in envelopes]


async def test_the_commitment_comes_first_and_no_roll_before_the_client_seed(
    gateway: Running, ws_url: str
) -> None:
    store = gateway.gateway.store
    async with UmpireClient(ws_url) as client:
        created = await client.request(
            {"type": "create", "ruleset": "counter", "setup": {"target": 30}}
        )
        # The commitment is in the client's hands; the log holds it and no client seed.
        seen_commitment = created.seed_commitment
        assert len(seen_commitment) == 64 and created.client_seed == ""
        assert created.client_entropy == "bind"
        (first,) = await _events(gateway, created.game_id)
        assert isinstance(first, GameCreated) and first.client_seed == ""
        assert first.seed_commitment == seen_commitment and first.client_entropy == "bind"
        # A command that needs a server roll is refused, and writes nothing.
        with pytest.raises(UmpireError) as refused:
            await client.send(created.game_id, {"type": "Push"}, command_id="early")
        assert refused.value.code == "client_seed_required"
        assert "bind a client seed first" in refused.value.message
        # It names no roll: which roll a command makes next can hang on what the view hides
        # (issue #30 item 5). On main it said the roll's kind, purpose and rule.
        assert set(refused.value.details) <= {"epoch"}, refused.value.details
        assert "d6" not in refused.value.message and "Push" not in refused.value.message
        assert await store.version(created.game_id) == 1
        assert await store.command_result(created.game_id, "early") is None
        # A command that rolls nothing needs no client seed.
        added = await client.send(created.game_id, {"type": "Add", "amount": 1})
        assert added.seqs == [2, 3]
        # Only now, having seen the commitment, does the client choose its seed.
        mine = secrets.token_hex(16)
        bound = await client.bind_seed(created.game_id, mine)
        assert bound.command_id == "umpire:bind:0" and bound.seqs == [4]
        again = await client.bind_seed(created.game_id, mine)  # a re-sent bind: same answer
        assert again.duplicate and again.seqs == [4]
        with pytest.raises(UmpireError) as twice:
            await client.bind_seed(created.game_id, "another")
        assert twice.value.code == "client_seed_refused"
        pushes = 0
        while True:
            pushes += 1
            accepted = await client.send(created.game_id, {"type": "Push"})
            events = await _events(gateway, created.game_id)
            if isinstance(events[-1], SeedRevealed):
                break
        assert accepted.seqs[0] > 4
    events = await _events(gateway, created.game_id)
    assert isinstance(events[3], ClientSeedBound) and events[3].client_seed == mine
    revealed = events[-1]
    assert isinstance(revealed, SeedRevealed) and revealed.next_commitment == ""
    seed = bytes.fromhex(revealed.seed)
    # The seed the server rolled from is the one it had committed to before the client
    # seed existed, and every roll derives from both.
    assert hashlib.sha256(seed).hexdigest() == seen_commitment
    rolls = [e for e in events if isinstance(e, DiceRolled)]
    assert len(rolls) == pushes
    nonces = roll_nonces(events)  # and from the nonce the client sent with each command
    assert all(nonces.values())
    for roll in rolls:
        assert roll.faces == derive_faces(seed, mine, roll.roll, d6(), nonces[roll.roll])
    report = audit(await store.read(created.game_id))
    assert report.ok and report.rolls_verified == pushes and report.client_entropy == "bind"


async def test_a_client_seed_sent_with_create_is_refused_and_creates_nothing(
    gateway: Running, ws_url: str
) -> None:
    store = gateway.gateway.store
    before = await store.games()
    async with UmpireClient(ws_url) as client:
        with pytest.raises(UmpireError) as refused:
            await client.request(
                {"type": "create", "ruleset": "counter", "client_seed": "chosen-too-early"}
            )
    assert refused.value.code == "client_seed_refused"
    assert "seed commitment" in refused.value.message and "bind" in refused.value.message
    assert await store.games() == before


async def test_the_clients_bind_fresh_entropy_after_the_commitment(
    gateway: Running, ws_url: str
) -> None:
    async with UmpireClient(ws_url) as client:
        one = await client.create("counter", {"target": 1000})
        two = await client.create("counter", {"target": 1000})
        await client.send(one.game_id, {"type": "Push"})  # bound: it rolls
    assert len(one.client_seed) == 32 and one.client_seed != two.client_seed
    for created in (one, two):
        events = await _events(gateway, created.game_id)
        assert isinstance(events[1], ClientSeedBound)
        assert events[1].client_seed == created.client_seed and events[1].epoch == 0


async def test_a_waived_game_records_the_waiver_and_takes_no_client_seed(
    gateway: Running, ws_url: str
) -> None:
    async with UmpireClient(ws_url) as client:
        created = await client.create("counter", {"target": 1000}, client_entropy="waived")
        assert created.client_entropy == "waived" and created.client_seed == ""
        await client.send(created.game_id, {"type": "Push"})  # rolls at once
        with pytest.raises(UmpireError) as refused:
            await client.bind_seed(created.game_id, "late")
        assert refused.value.code == "client_seed_refused" and "waiv" in refused.value.message
    events = await _events(gateway, created.game_id)
    assert isinstance(events[0], GameCreated) and events[0].client_entropy == "waived"
    assert not any(isinstance(e, ClientSeedBound) for e in events)


async def test_only_the_player_binds_the_client_seed(gateway: Running, ws_url: str) -> None:
    async with UmpireClient(ws_url) as player:
        created = await player.request({"type": "create", "ruleset": "counter"})
    async with UmpireClient(ws_url) as spectator:
        await spectator.auth(created.spectator_credential)
        with pytest.raises(UmpireError) as refused:
            await spectator.bind_seed(created.game_id, "spectators-seed")
    assert refused.value.code == "unauthorized"
    assert await gateway.gateway.store.version(created.game_id) == 1


async def test_after_a_mid_game_reveal_the_next_epochs_secrets_stay_hidden(
    gateway: Running, ws_url: str
) -> None:
    """A spectator attacking the frames: the reveal opens neither the hidden roll of epoch 0
    nor epoch 0's ruleset secret, and the hidden roll and secret made after it (epoch 1) stay
    redacted, in the subscription
    and in the view, and the next epoch's seed is nowhere in what the spectator gets."""
    async with UmpireClient(ws_url) as player:
        created = await player.create("counter", {"target": 1000})
        await player.send(created.game_id, {"type": "Hide"})  # seqs 3-5: epoch 0
        await gateway.gateway.games.reveal(created.game_id)  # seq 6
        await player.bind_seed(created.game_id)  # seq 7
        await player.send(created.game_id, {"type": "Hide"})  # seqs 8-10: epoch 1
    new_seed = (await gateway.gateway.store.secret(created.game_id)).hex()
    async with UmpireClient(ws_url) as spectator:
        await spectator.auth(created.spectator_credential)
        frames = []
        async for frame in spectator.subscribe(created.game_id, 0):
            frames.append(frame)
            if frame.seq == 10:
                break
        view = await spectator.view(created.game_id)
    by_seq = {f.seq: f for f in frames}
    # epoch 0's hidden roll stays hidden too: its key is not the seed (issue #30 item 4)
    assert by_seq[4].event_type == "DiceRolled" and not by_seq[4].payload["faces"]
    # epoch 0's secret (the ruleset's, not a die) stays sealed until the end (issue #30 item 4)
    assert by_seq[5].payload is None and by_seq[5].committed
    assert by_seq[6].event_type == "SeedRevealed" and by_seq[6].payload["next_commitment"]
    assert by_seq[9].event_type == "DiceRolled" and not by_seq[9].payload["faces"]
    assert 10 not in by_seq or by_seq[10].payload is None  # epoch 1's secret: hidden
    assert "secret" not in view.state
    everything = msgspec.json.encode([msgspec.to_builtins(f) for f in frames]).decode()
    assert new_seed not in everything


async def test_physical_dice_before_the_bind_leave_the_epoch_open_to_it(
    gateway: Running, ws_url: str
) -> None:
    """issue #30 break 7: a command with the player's physical dice before `bind_seed` used
    to close the epoch for good (the bind refused as "has rolled already", every later
    server roll refused as "bind a client seed first"). Physical faces derive from no
    seed, so only a server roll closes the epoch to its client seed."""
    store = gateway.gateway.store
    async with UmpireClient(ws_url) as client:
        created = await client.request(  # the bot's push takes physical dice too
            {
                "type": "create",
                "ruleset": "counter",
                "setup": {"target": 30},
                "opponent_manual_dice": True,
            }
        )
        game_id = created.game_id
        physical = await client.send(game_id, {"type": "Push"}, dice=[[5]])
        assert physical.seqs[0] == 2
        bound = await client.bind_seed(game_id, secrets.token_hex(16))
        assert bound.command_id == "umpire:bind:0"
        served = await client.send(game_id, {"type": "Push"})  # a server roll, now bound
        rolls = [e for e in await _events(gateway, game_id) if isinstance(e, DiceRolled)]
        assert [r.by for r in rolls] == ["player", "server"] and served.seqs
        # The epoch is closed by that server roll: a second bind is refused.
        with pytest.raises(UmpireError) as late:
            await client.bind_seed(game_id, secrets.token_hex(16))
        assert late.value.code == "client_seed_refused"
    report = audit(await store.read(game_id))
    assert report.ok, report.failure
