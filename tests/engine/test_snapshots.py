"""Snapshots every N events, verified against their state hash before use."""

from __future__ import annotations

import msgspec

from tests.support.gateway_games import create_bound
from umpire.engine.game import fold, state_hash
from umpire.server.games import Games


async def test_snapshot_is_taken_and_reproduces_the_fold(games: Games) -> None:
    created = await games.create("counter", {"target": 100_000})
    for i in range(40):
        await games.handle(created.game_id, f"c{i}", {"type": "Push"})
    snap = await games.store.load_snapshot(created.game_id)
    assert snap is not None and snap.seq >= 50
    envelopes = await games.store.read(created.game_id, 1, snap.seq)
    assert state_hash(fold(envelopes)) == snap.state_hash
    fresh = Games(games.store)
    _, from_snapshot = await fresh.load(created.game_id)
    full = fold(await games.store.read(created.game_id))
    assert state_hash(from_snapshot) == state_hash(full)


async def test_a_tampered_snapshot_is_ignored(games: Games) -> None:
    created = await games.create("counter", {"target": 100_000})
    for i in range(40):
        await games.handle(created.game_id, f"c{i}", {"type": "Add", "amount": 1})
    snap = await games.store.load_snapshot(created.game_id)
    assert snap is not None
    from umpire_counter import RULESET

    from umpire.engine.game import Game, decode_game, encode_game

    held = decode_game(RULESET, snap.state)
    bumped = Game(held.meta, msgspec.structs.replace(held.state, total=held.state.total + 1000))
    # The forged state keeps the old hash, as an attacker without the log would have to.
    forged = msgspec.structs.replace(snap, state=encode_game(bumped))
    assert forged.state != snap.state
    await games.store.redis.delete(games.store.keys(created.game_id).snapshot)
    await games.store.save_snapshot(created.game_id, forged)
    _, game = await Games(games.store).load(created.game_id)
    assert game.state.total == 40  # folded from the log, not from the forged snapshot


async def test_same_log_always_folds_to_the_same_hash(games: Games) -> None:
    created = await create_bound(games, "counter", {"target": 100_000}, "fixed")
    for i in range(10):
        await games.handle(created.game_id, f"p{i}", {"type": "Push"})
        await games.handle(created.game_id, f"h{i}", {"type": "Hide"})
    envelopes = await games.store.read(created.game_id)
    assert len({state_hash(fold(envelopes)) for _ in range(3)}) == 1
