"""A scripted dogfight through `games` on a real Redis: two player aircraft against four
bots (one a mission aircraft, one with a rotary engine), audited at the end; and bad input
refused with nothing written."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.age_of_dogfights.setups import SETUP
from tests.support.gateway_games import create_bound
from umpire.engine.audit import audit
from umpire.engine.errors import InvalidSetup, RuleError
from umpire.engine.roles import Role
from umpire.engine.rulesets.age_of_dogfights import RULESET
from umpire.engine.rulesets.age_of_dogfights.geometry import Board, step
from umpire.server.games import Games


async def test_scripted_dogfight_audits(games: Games) -> None:
    created = await create_bound(
        games, "age_of_dogfights", SETUP, "dogfight-1", opponent_manual_dice=True
    )
    gid = created.game_id
    await games.handle(gid, "setup", {"type": "RollSetup"})
    _, game = await games.load(gid)
    assert game.state.phase == "combat"
    assert game.state.plane("B1").aggressiveness is not None
    assert game.state.plane("B4").aggressiveness is None  # mission aircraft: no roll
    board = Board(game.state.model.width, game.state.model.height)
    flown = 0
    for rnd in range(1, 6):
        _, game = await games.load(gid)
        if game.meta.ended:
            break
        await games.handle(gid, f"round{rnd}", {"type": "FlyBots"})
        flown += 1
        _, game = await games.load(gid)
        if game.meta.ended:
            break
        for plane in game.state.players():
            nxt = step(plane.position, plane.heading, 2)
            if not board.contains(nxt):
                nxt = plane.position
            await games.handle(gid, f"r{rnd}{plane.id}", {
                "type": "ReportAircraft", "aircraft": plane.id, "position": list(nxt),
                "heading": plane.heading.value, "level": plane.level,
            })  # fmt: skip
        if rnd == 2:
            bots = [b for b in game.state.bots() if not b.retreating]
            if bots:
                await games.handle(
                    gid, "dmg", {"type": "ReportBotDamage", "aircraft": bots[0].id,
                                 "damage": "tail"}, manual_dice=[[1]],
                )  # fmt: skip
                _, game = await games.load(gid)
                assert game.state.plane(bots[0].id).retreating
    assert flown >= 3
    _, game = await games.load(gid)
    if not game.meta.ended:
        await games.handle(gid, "end", {"type": "EndGame", "result": "scripted end"})
    envelopes = await games.store.read(gid)
    report = audit(envelopes)
    assert report.ok, report.failure
    assert report.player_rolls == 1 and report.server_rolls > 20
    assert report.seed_revealed and report.rolls_verified == report.server_rolls
    types = {e.type for e in envelopes}
    for needed in ("age_of_dogfights.DieChosen", "age_of_dogfights.BotMoved",
                   "age_of_dogfights.ExposureChecked", "age_of_dogfights.FiringPositionsFound",
                   "age_of_dogfights.RetreatDecided"):  # fmt: skip
        assert needed in types
    _, game = await games.load(gid)
    data = RULESET.view(game.state, Role.PLAYER)
    assert {p["id"] for p in data["planes"]} == {"P1", "P2", "B1", "B2", "B3", "B4"}
    assert RULESET.secret_fields == ()


def bad(**changes: Any) -> dict[str, Any]:
    data = {k: list(v) if isinstance(v, list) else v for k, v in SETUP.items()}
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": [{**SETUP["players"][0], "aircraft_type": "gotha"}]}, "unknown aircraft"),
        ({"players": [{**SETUP["players"][0], "position": [0, 40]}]}, "off the board"),
        ({"players": [{**SETUP["players"][0], "aircraft_type": "nieuport_17", "level": 6}]},
         "above its service ceiling"),
    ],
)  # fmt: skip
async def test_bad_setup_writes_nothing(games: Games, change: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleError, match=message) as info:
        await games.create("age_of_dogfights", bad(**change), game_id="gbad")
    assert info.value.rule.startswith("001_989a2f850da69b66.txt") or "base game" in info.value.rule
    assert await games.store.version("gbad") == 0


async def test_malformed_setup_is_invalid(games: Games) -> None:
    with pytest.raises(InvalidSetup):
        await games.create("age_of_dogfights", {"players": [], "bots": []})


async def test_bad_commands_are_rule_errors_and_write_nothing(games: Games) -> None:
    created = await create_bound(games, "age_of_dogfights", SETUP, "bad")
    gid = created.game_id
    with pytest.raises(RuleError, match="RollSetup") as info:
        await games.handle(gid, "early", {"type": "FlyBots"})
    assert info.value.rule.endswith("Game Setup")
    await games.handle(gid, "setup", {"type": "RollSetup"})
    version = await games.store.version(gid)
    cases = [
        ({"type": "ReportAircraft", "aircraft": "P1", "position": [5, 5], "heading": "E",
          "level": 7}, "above its service ceiling L6", "(service ceiling)"),
        ({"type": "ReportAircraft", "aircraft": "P1", "position": [30, 5], "heading": "E",
          "level": 3}, "off the board", "board"),
        ({"type": "ReportAircraft", "aircraft": "B1", "position": [5, 5], "heading": "E",
          "level": 3}, "not a player aircraft", "Introduction"),
        ({"type": "ReportAircraft", "aircraft": "P9", "position": [5, 5], "heading": "E",
          "level": 3}, "no player aircraft 'P9'", "Introduction"),
        ({"type": "ReportBotDamage", "aircraft": "P1", "damage": "tail"},
         "not a bot aircraft", "General Rules"),
        ({"type": "RollSetup"}, "already", "Game Setup"),
    ]  # fmt: skip
    for i, (command, message, rule_end) in enumerate(cases):
        with pytest.raises(RuleError, match=message) as info:
            await games.handle(gid, f"bad{i}", command)
        assert info.value.rule.endswith(rule_end), info.value.rule
    assert await games.store.version(gid) == version
