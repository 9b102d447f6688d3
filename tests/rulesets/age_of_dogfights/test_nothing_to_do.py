"""Issue 41 item 8: a report that restates the game as umpire holds it changes nothing.

Introduction: the player reports their own aircraft after the base game moved it; the
same aircraft, where and as it already is, is not listed (the schema's `not`) and is
refused `nothing_to_do`, writing nothing. General Rules / Jammed Machine Guns: jammed
guns reported on a bot whose guns are jammed already are not listed for it, and refused
so. Before, both were accepted and logged a report that changed nothing.
"""

from __future__ import annotations

from tests.rulesets.age_of_dogfights.setups import SETUP
from tests.support.gateway_games import create_bound
from tests.support.restating import listed_schema, refused_as_nothing_to_do
from umpire.server.games import Games
from umpire.testing.support.schema_sampler import accepts


async def test_introduction_an_aircraft_reported_as_it_is_is_refused(games: Games) -> None:
    created = await create_bound(games, "age_of_dogfights", SETUP, "restate-1")
    gid = created.game_id
    await games.handle(gid, "setup", {"type": "RollSetup"})
    _, game = await games.load(gid)
    p1 = game.state.plane("P1")
    same = {"type": "ReportAircraft", "aircraft": "P1", "position": list(p1.position),
            "heading": p1.heading.value, "level": p1.level}  # fmt: skip
    refusal = await refused_as_nothing_to_do(games, gid, "same", same)
    assert "report what the base game changed" in str(refusal)
    # Every field as it was, sent in full, is the same report.
    full = {**same, "attitude": "level", "has_ammo": True, "jammed": False, "damaged": False,
            "can_fire": True, "mission_done": False, "lost": False}  # fmt: skip
    await refused_as_nothing_to_do(games, gid, "full", full)
    # One field changed is listed and accepted.
    moved = {**same, "attitude": "nose-up"}
    schema = await listed_schema(games, gid, "ReportAircraft")
    assert schema is not None and accepts(schema, moved)
    await games.handle(gid, "moved", moved)
    _, game = await games.load(gid)
    assert game.state.plane("P1").attitude == "nose-up"
    # Now the nose-up report is the one that changes nothing; the first, attitude left
    # out (level), changes it back.
    await refused_as_nothing_to_do(games, gid, "again", moved)
    schema = await listed_schema(games, gid, "ReportAircraft")
    assert schema is not None and accepts(schema, same)


async def test_jammed_guns_reported_on_a_jammed_bot_are_refused(games: Games) -> None:
    created = await create_bound(games, "age_of_dogfights", SETUP, "restate-2")
    gid = created.game_id
    await games.handle(gid, "setup", {"type": "RollSetup"})
    jammed = {"type": "ReportBotDamage", "aircraft": "B1", "damage": "jammed"}
    schema = await listed_schema(games, gid, "ReportBotDamage")
    assert schema is not None and accepts(schema, jammed)
    await games.handle(gid, "jam", jammed)
    refusal = await refused_as_nothing_to_do(games, gid, "jam-again", jammed)
    assert "B1's guns are jammed already" in str(refusal)
    assert "wings" in str(refusal) and "jammed," not in str(refusal)
    # The other bots may still be reported jammed, and B1 hit elsewhere.
    schema = await listed_schema(games, gid, "ReportBotDamage")
    assert schema is not None
    assert accepts(schema, {**jammed, "aircraft": "B2"})
    assert accepts(schema, {**jammed, "damage": "wings"})
