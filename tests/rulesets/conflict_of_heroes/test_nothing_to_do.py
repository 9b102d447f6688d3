"""Issue 41 item 8: a counter reported where and as it stands changes nothing (5.3.1).

`ReportPosition` places a counter as on the table (a reinforcement arriving, a
correction); the same hex, facing and in-play again is not listed (the schema's `not`)
and is refused `nothing_to_do`, writing nothing. Before, it was accepted and logged.
"""

from __future__ import annotations

from tests.support.gateway_games import create_bound
from tests.support.restating import listed_schema, refused_as_nothing_to_do
from umpire.engine.hexgrid import DIRECTION_NAMES
from umpire.server.games import Games
from umpire.testing.support.schema_sampler import accepts


async def test_5_3_1_a_counter_reported_where_it_stands_is_refused(games: Games) -> None:
    created = await create_bound(games, "conflict_of_heroes", {}, "restate-coh")
    gid = created.game_id
    _, game = await games.load(gid)
    u = next(x for x in game.state.units if x.in_play and not x.destroyed)
    same = {"type": "ReportPosition", "unit": u.id, "hex": u.hex, "facing": u.facing}
    refusal = await refused_as_nothing_to_do(games, gid, "same", same)
    said = f"{u.id} is in hex {u.hex} facing {DIRECTION_NAMES[u.facing]} ({u.facing}), in play"
    assert said + ", already" in str(refusal)
    await refused_as_nothing_to_do(games, gid, "full", {**same, "in_play": True})
    # Another facing is listed and accepted; then it is the report that changes nothing.
    turned = {**same, "facing": (u.facing + 1) % 6}
    schema = await listed_schema(games, gid, "ReportPosition")
    assert schema is not None and accepts(schema, turned)
    await games.handle(gid, "turned", turned)
    await refused_as_nothing_to_do(games, gid, "turned-again", turned)
    schema = await listed_schema(games, gid, "ReportPosition")
    assert schema is not None and accepts(schema, same)
    # Out of play where it stands is a change: listed, and accepted.
    out = {**turned, "in_play": False}
    assert accepts(schema, out)
    await games.handle(gid, "out", out)
    await refused_as_nothing_to_do(games, gid, "out-again", out)
