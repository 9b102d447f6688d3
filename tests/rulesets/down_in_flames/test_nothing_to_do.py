"""Issue 41 item 8: a position set to the one the attacker already holds changes nothing.

3.1: `SetPosition` records the base-game position of an attacker on a target (or lifts
it, null). The position held (none, before any is set) is not listed for that pair and
is refused `nothing_to_do`, writing nothing; every other position is listed. Before, a
position set to itself (none to none) was accepted and logged.
"""

from __future__ import annotations

from tests.rulesets.down_in_flames.setups import ENGAGEMENT_SETUP as SETUP
from tests.support.restating import listed_schema, refused_as_nothing_to_do
from umpire.server.games import Games
from umpire.testing.support.schema_sampler import accepts

NONE = {"type": "SetPosition", "attacker": "f1", "target": "bomber1", "position": None}


async def test_3_1_a_position_set_to_the_one_held_is_refused(games: Games) -> None:
    created = await games.create("down_in_flames", {**SETUP, "starting_altitude": 12})
    gid = created.game_id
    await games.handle(gid, "turn", {"type": "BeginTurn", "side": "B"})
    refusal = await refused_as_nothing_to_do(games, gid, "none", NONE)
    assert "f1's position on bomber1 is none already" in str(refusal)
    assert "another: neutral, advantaged, tailing" in str(refusal)
    neutral = {**NONE, "position": "neutral"}
    schema = await listed_schema(games, gid, "SetPosition")
    assert schema is not None and accepts(schema, neutral)
    await games.handle(gid, "neutral", neutral)
    refusal = await refused_as_nothing_to_do(games, gid, "neutral-again", neutral)
    assert "another: advantaged, tailing, none (null)" in str(refusal)
    # Lifting it is a change now, and f1 on another target still holds none.
    schema = await listed_schema(games, gid, "SetPosition")
    assert schema is not None and accepts(schema, NONE)
    await refused_as_nothing_to_do(games, gid, "other", {**NONE, "target": "bomber2"})
    await games.handle(gid, "lift", NONE)
    await refused_as_nothing_to_do(games, gid, "lift-again", NONE)
