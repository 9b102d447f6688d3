"""Reveal rotates the seed (issue #16 item 4, docs/audit.md (4.1)): a mid-game reveal
publishes the current epoch's seed and commits the next; the next epoch's rolls derive from
the new seed and a fresh client seed, so none of them is computable from what was published;
the audit verifies every epoch."""

from __future__ import annotations

import hashlib

import msgspec
import pytest
from umpire_counter import RULESET

from tests.support.gateway_games import create_bound
from umpire.engine.audit import audit
from umpire.engine.dice import d6, derive_faces
from umpire.engine.errors import ClientSeedRefused, ClientSeedRequired, GameOver
from umpire.engine.game import codec_for, fold
from umpire.events.envelope import seal
from umpire.events.errors import UmpireError
from umpire.events.types import ClientSeedBound, DiceRolled, GameCreated, SeedRevealed
from umpire.server.games import Games
from umpire.testing.support.nonces import roll_nonces

CODEC = codec_for(RULESET)


async def _decoded(games: Games, game_id: str) -> list[msgspec.Struct]:
    return [CODEC.decode(e.type, e.version, e.payload) for e in await games.store.read(game_id)]


async def test_a_mid_game_reveal_rotates_to_a_seed_nobody_could_know(games: Games) -> None:
    created = await create_bound(games, "counter", {"target": 60}, "before")
    gid = created.game_id
    for n in range(4):
        await games.handle(gid, f"a{n}", {"type": "Push"})
    reveal = await games.reveal(gid)
    assert reveal.command_id == "umpire:reveal"
    published = (await _decoded(games, gid))[-1]
    assert isinstance(published, SeedRevealed) and published.epoch == 0
    old_seed = bytes.fromhex(published.seed)
    assert hashlib.sha256(old_seed).hexdigest() == created.seed_commitment
    assert len(published.next_commitment) == 64
    # The new seed is the game's secret now, committed in the reveal, never in the log.
    new_seed = await games.store.secret(gid)
    assert (
        hashlib.sha256(new_seed).hexdigest()
        == published.next_commitment
        != (created.seed_commitment)
    )
    for env in await games.store.read(gid):
        assert new_seed.hex().encode() not in env.payload and new_seed not in env.payload
    # The new epoch rolls only after a fresh client seed: a roll now is refused, unwritten.
    head = await games.store.version(gid)
    with pytest.raises(ClientSeedRequired, match="epoch 1"):
        await games.handle(gid, "early", {"type": "Push"})
    assert await games.store.version(gid) == head
    bound = await games.bind_client_seed(gid, "after")
    assert bound.command_id == "umpire:bind:1"
    with pytest.raises(ClientSeedRefused):
        await games.bind_client_seed(gid, "again")
    # What anyone could predict from the published seed for the next roll numbers...
    _, game = await games.load(gid)
    first_new = game.meta.rolls
    assert first_new == 4
    for n in range(60):  # push until the target is reached (the game then ends)
        await games.handle(gid, f"b{n}", {"type": "Push"})
        _, game = await games.load(gid)
        if game.meta.ended:
            break
    assert game.meta.ended
    events = await _decoded(games, gid)
    later = [e for e in events if isinstance(e, DiceRolled) and e.roll >= first_new]
    assert len(later) >= 3, "the game should roll several times after the reveal"
    # ...is not what the server rolled: it rolled from the new epoch's seed and client seed.
    predicted = [derive_faces(old_seed, "before", e.roll, d6()) for e in later]
    rolled = [e.faces for e in later]
    assert rolled != predicted
    nonces = roll_nonces(events)  # each command's own entropy (issue #30 item 5)
    assert rolled == [derive_faces(new_seed, "after", e.roll, d6(), nonces[e.roll]) for e in later]
    final = (await _decoded(games, gid))[-1]
    assert isinstance(final, SeedRevealed) and final.epoch == 1 and not final.next_commitment
    assert final.seed == new_seed.hex()
    report = audit(await games.store.read(gid))
    assert report.ok, report.failure
    assert report.epochs == 2 and report.rolls_verified == report.server_rolls == 4 + len(later)
    with pytest.raises(GameOver):
        await games.reveal(gid)


async def test_the_audit_checks_each_epochs_rolls_against_that_epochs_seed(
    games: Games,
) -> None:
    """A log whose epoch-1 roll was derived from the epoch-0 seed (what a server that kept
    rolling from the published seed would write) fails the audit at that roll."""
    created = await create_bound(games, "counter", {"target": 10_000}, "c0")
    gid = created.game_id
    await games.handle(gid, "a", {"type": "Push"})
    await games.reveal(gid)
    await games.bind_client_seed(gid, "c1")
    await games.handle(gid, "b", {"type": "Push"})
    await games.reveal(gid)
    envelopes = await games.store.read(gid)
    assert audit(envelopes).ok and audit(envelopes).rolls_verified == 2
    events = [CODEC.decode(e.type, e.version, e.payload) for e in envelopes]
    old_seed = bytes.fromhex(next(e for e in events if isinstance(e, SeedRevealed)).seed)
    index = max(i for i, e in enumerate(events) if isinstance(e, DiceRolled))
    roll = events[index]
    assert isinstance(roll, DiceRolled) and roll.roll == 1
    stale = derive_faces(old_seed, "c0", 1, d6())
    if stale == roll.faces:  # pragma: no cover - 1 in 6: the forgery needs another face
        pytest.skip("the stale seed gives the same face for this roll")
    forged = msgspec.structs.replace(roll, faces=stale, total=sum(stale))
    resealed = _reseal(envelopes, index, forged)
    report = audit(resealed)
    assert report.failure is not None
    assert report.failure.seq == envelopes[index].seq
    assert report.failure.check in ("server_roll", "decision")


def _reseal(envelopes, index, event):  # type: ignore[no-untyped-def]
    tag, version, payload = CODEC.encode(event)
    out = list(envelopes[:index])
    prev = envelopes[index - 1].hash
    for offset, env in enumerate(envelopes[index:]):
        body = payload if offset == 0 else env.payload
        new = seal(
            game_id=env.game_id, seq=env.seq, type=env.type if offset else tag,
            version=env.version if offset else version, payload=body,
            command_id=env.command_id, recorded_at=env.recorded_at, prev_hash=prev,
        )  # fmt: skip
        out.append(new)
        prev = new.hash
    return out


async def test_an_old_log_with_the_client_seed_at_creation_is_epoch_0_bound(
    games: Games,
) -> None:
    """GameCreated of a log written before client seed binding holds the client seed: it
    still decodes, folds as epoch 0 bound at creation, and audits against that seed."""
    seed = bytes(range(32))
    old = GameCreated(
        game_id="gold", ruleset="counter", ruleset_version="1", setup={"target": 50},
        seed_commitment=hashlib.sha256(seed).hexdigest(), client_seed="legacy",
    )  # fmt: skip
    # An old payload had no client_entropy field: encode it without.
    raw = msgspec.to_builtins(old)
    del raw["client_entropy"]
    payload = msgspec.msgpack.encode(raw)
    decoded = CODEC.decode("GameCreated", 1, payload)
    assert isinstance(decoded, GameCreated) and decoded.client_seed == "legacy"
    first = seal(
        game_id="gold", seq=1, type="GameCreated", version=1, payload=payload,
        command_id="umpire:create", recorded_at="2026-01-01T00:00:00Z",
        prev_hash="0" * 64,
    )  # fmt: skip
    game = fold([first])
    assert game is not None and game.meta.client_bound and not game.meta.needs_client_seed
    assert game.meta.client_seed == "legacy" and game.meta.epoch == 0


async def test_a_physical_roll_does_not_close_the_epoch_to_its_bind(games: Games) -> None:
    """Physical faces derive from no seed: the bind still comes before the epoch's first
    server roll (issue #30 break 7: a player roll used to lock the game for good)."""
    created = await games.create(
        "counter", {"target": 1000}, client_entropy="bind", opponent_manual_dice=True
    )
    gid = created.game_id
    await games.handle(gid, "m", {"type": "Push"}, manual_dice=[[4]])  # a player roll
    await games.bind_client_seed(gid, "after-a-physical-roll")
    await games.handle(gid, "s", {"type": "Push"})  # the epoch's first server roll
    with pytest.raises(ClientSeedRefused):
        await games.bind_client_seed(gid, "late")
    bound = [e for e in await _decoded(games, gid) if isinstance(e, ClientSeedBound)]
    assert [b.client_seed for b in bound] == ["after-a-physical-roll"]


async def test_a_stored_seed_that_is_not_the_epochs_is_never_rolled_from(games: Games) -> None:
    """The server rolls only from the seed the log committed to: a stored secret that does
    not match the current epoch's commitment is refused at once, and nothing is written."""
    created = await games.create("counter", {"target": 1000})
    gid = created.game_id
    await games.store._redis.set(games.store.keys(gid).secret, bytes(32).hex())
    fresh = Games(games.store)
    with pytest.raises(UmpireError, match="does not match the commitment of seed epoch 0"):
        await fresh.handle(gid, "p", {"type": "Push"})
    assert await games.store.version(gid) == 1
