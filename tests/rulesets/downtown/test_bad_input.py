"""Bad input: each illegal command is a RuleError naming the rule, and nothing is written."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.downtown.setups import flight
from tests.support.gateway_games import create_bound
from umpire.engine.errors import InvalidSetup, RuleError
from umpire.server.games import Games


async def _game(games: Games) -> str:
    created = await create_bound(games, "downtown", {}, "bad")
    return created.game_id


async def _refused(games: Games, gid: str, command: dict[str, Any], match: str, rule: str) -> None:
    before = await games.store.version(gid)
    with pytest.raises(RuleError, match=match) as info:
        await games.handle(gid, f"bad-{before}-{command['type']}", command)
    assert rule in info.value.rule
    assert info.value.rule.startswith("000_842c81c5c58bc2f6.txt")
    assert await games.store.version(gid) == before


async def test_phase_out_of_order(games: Games) -> None:
    """Sequence of play: the Admin Phase cannot come before the ground deployment."""
    gid = await _game(games)
    await _refused(games, gid, {"type": "RunAdminPhase"}, "belongs to the Movement phase", "2.1.5")
    await _refused(games, gid, {"type": "CheckDrvRadar"}, "DRV Radar phase", "3.3")
    await games.handle(gid, "g1", {"type": "DeployGroundUnits"})
    await _refused(
        games, gid, {"type": "DeployGroundUnits"}, "DRV Ground Unit Deployment phase;", "2.1.4"
    )
    await _refused(games, gid, {"type": "RunSamAcquisitionPhase"}, "SAM Acquisition phase", "3.2.1")


async def _to_movement(games: Games) -> str:
    gid = await _game(games)
    await games.handle(gid, "g1", {"type": "DeployGroundUnits"})
    await games.handle(gid, "g2", {"type": "CheckDrvRadar"})
    await games.handle(
        gid, "g3", {"type": "DeployDrvAir", "early_warning": "poor", "placement": "in_the_air"}
    )
    await games.handle(
        gid,
        "g4",
        {
            "type": "ReportUsFlights",
            "flights": [flight("S1", "strike", "bombing", "0820", bomber=True)],
        },
    )
    await games.handle(gid, "g5", {"type": "RunDetectionPhase"})
    await games.handle(gid, "g6", {"type": "RunSamAcquisitionPhase"})
    return gid


async def test_flight_that_does_not_exist(games: Games) -> None:
    """US and DRV flights must exist (3.4.4, 5.9, 5.6.2, 5.6.1)."""
    gid = await _to_movement(games)
    await _refused(
        games,
        gid,
        {"type": "MoveUsFlight", "flight_id": "S9", "hex": "0920", "altitude": "low", "facing": 2},
        "no US flight 'S9'",
        "3.4.4",
    )
    await _refused(
        games,
        gid,
        {"type": "ReportDrvFlight", "flight_id": "M99", "status": "aborting"},
        "no DRV flight 'M99'",
        "5.9.1",
    )
    await _refused(
        games, gid, {"type": "IdentifyVisually", "flight_id": "M99"}, "no DRV flight", "5.6.2"
    )
    await _refused(
        games,
        gid,
        {"type": "CheckActivation", "flight_id": "M99", "reason": "targeted"},
        "no DRV flight",
        "5.6.1",
    )
    await _refused(
        games,
        gid,
        {"type": "RollDrvAttack", "unit_id": "SAM99", "flight_id": "S1", "kind": "sam_attack"},
        "no active DRV unit",
        "4",
    )


async def test_hex_off_the_map(games: Games) -> None:
    """Every reported hex must be on the map (map data)."""
    gid = await _to_movement(games)
    await _refused(
        games,
        gid,
        {"type": "MoveUsFlight", "flight_id": "S1", "hex": "4560", "altitude": "low", "facing": 2},
        "off the map",
        "3.4.4",
    )
    await _refused(
        games,
        gid,
        {"type": "ReportUsFlights", "flights": [flight("S1", "strike", "bombing", "0099")]},
        "off the map",
        "1.2.1",
    )


async def test_scenario_not_in_the_table_writes_nothing(games: Games) -> None:
    """5.3: a scenario id that is not D1-D16 is refused at creation; no game is written."""
    with pytest.raises(RuleError, match="not in the DRV Air Activation Table") as info:
        await games.create("downtown", {"scenario": "D17"})
    assert "5.3" in info.value.rule
    with pytest.raises(InvalidSetup, match="raid target"):
        await games.create("downtown", {"raid_target": "nowhere"})
    assert await games.store.games() == []
