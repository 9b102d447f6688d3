"""Ready scenarios (engine/scenarios.py): every scenario each ruleset ships starts by name
(straight and through the gateway's `create`) and plays its first turn with server dice;
the log audits. The defaults `umpire new RULESET` uses are among them."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.gateway_games import create_bound
from umpire.engine import registry, scenarios
from umpire.engine.audit import audit
from umpire.engine.errors import InvalidSetup
from umpire.engine.rulesets.down_in_flames.card_play import hand_limits
from umpire.server.games import Games

Send = Callable[[dict[str, Any]], Awaitable[None]]
State = Callable[[], Awaitable[Any]]

ALL = [
    (name, s.name) for name in registry.shipped() for s in scenarios.scenarios(registry.get(name))
]


async def _nightfighter(send: Send, state: State) -> None:
    s = await state()
    first = s.fighters[0]
    assert (s.turn, s.phase) == (1, "bomber_movement")  # the game opens at turn 1's (v9)
    await send({"type": "MoveBombers"})
    # The last fighter moved: the phase ends by itself (pace run_on, README "Pace").
    await send({"type": "MoveFighter", "fighter": first.id, "path": [], "facing": first.facing})
    await send({"type": "PlaceRadarSearches", "searches": []})
    s = await state()
    # Nothing to decide in the AI radar, searchlight, tally and combat phases: turn 2.
    assert (s.turn, s.phase) == (2, "bomber_movement")
    assert any(c.bomber == "B1" for c in s.counters), "the first bomber entered"


async def _downtown(send: Send, state: State) -> None:
    await send({"type": "DeployGroundUnits"})
    await send({"type": "CheckDrvRadar"})
    await send({"type": "DeployDrvAir", "early_warning": "good", "placement": "in_the_air"})
    board_entry = (await state()).setup.entry
    assert board_entry
    await send({"type": "RunDetectionPhase", "detected": []})
    await send({"type": "RunSamAcquisitionPhase"})
    await send({"type": "RunAdminPhase"})
    assert (await state()).turn == 2


async def _conflict_of_heroes(send: Send, state: State) -> None:
    # 4.0: the counters on the Mission Track (0 and 0 is what umpire holds: nothing to do).
    await send({"type": "ReportCounters", "rumored": 1, "reinforcements": 1})
    for _ in range(100):
        s = await state()
        if s.round >= 2:
            return
        await send({"type": "Pass"} if s.turn == "player" else {"type": "TakeAiTurn"})
    raise AssertionError("the first round did not end")


async def _down_in_flames(send: Send, state: State) -> None:
    if any(e.altitude == 0 for e in (await state()).elements.values()):
        await send({"type": "RollStartingAltitude"})
    for side in ("A", "B"):
        await send({"type": "BeginTurn", "side": side})
        s = await state()
        for plane in s.aircraft.values():
            excess = plane.hand - hand_limits(s, plane).most
            if plane.side == side and plane.station == "leader" and excess > 0:
                await send({"type": "Discard", "aircraft": plane.id, "count": excess})
        await send({"type": "EndTurn", "side": side})


async def _age_of_dogfights(send: Send, state: State) -> None:
    await send({"type": "RollSetup"})
    assert (await state()).phase == "combat"
    await send({"type": "FlyBots"})


FIRST_TURN = {
    "nightfighter": _nightfighter,
    "downtown": _downtown,
    "conflict_of_heroes": _conflict_of_heroes,
    "down_in_flames": _down_in_flames,
    "age_of_dogfights": _age_of_dogfights,
}


def test_every_builtin_ruleset_has_a_default_scenario() -> None:
    for name in registry.shipped():
        ruleset = registry.get(name)
        assert ruleset.default_scenario in [s.name for s in scenarios.scenarios(ruleset)], name
        assert ruleset.seed_title, name


@pytest.mark.parametrize(("ruleset", "scenario"), ALL, ids=[f"{r}-{s}" for r, s in ALL])
async def test_scenario_starts_and_plays_its_first_turn(
    games: Games, ruleset: str, scenario: str
) -> None:
    created = await create_bound(games, ruleset, None, f"{ruleset}-{scenario}", scenario=scenario)
    gid = created.game_id
    count = 0

    async def send(command: dict[str, Any]) -> None:
        nonlocal count
        count += 1
        await games.handle(gid, f"c{count}", command)

    async def state() -> Any:
        return (await games.load(gid))[1].state

    await FIRST_TURN[ruleset](send, state)
    report = audit(await games.store.read(gid))
    assert report.ok, report.failure


async def test_setup_fields_lay_over_the_scenario(games: Games) -> None:
    created = await games.create("downtown", {"aaa_points": 9}, scenario="D3")
    _, game = await games.load(created.game_id)
    assert game.state.setup.scenario == "D3" and game.state.setup.mig_day
    assert game.state.setup.aaa_points == 9


async def test_an_unknown_scenario_lists_the_shipped_ones(games: Games) -> None:
    with pytest.raises(InvalidSetup) as raised:
        await games.create("nightfighter", None, scenario="9Z")
    assert "4B" in str(raised.value) and "9Z" in str(raised.value)


@pytest.mark.parametrize("ruleset", registry.shipped())
def test_the_readme_example_set_up_file_loads(ruleset: str) -> None:
    """Each ruleset README's example set-up file is a valid setup that starts a game."""
    readme = (Path(__file__).parents[2] / "engine" / "rulesets" / ruleset / "README.md").read_text()
    section = readme.split("## Scenarios and set-up files", 1)[1].split("\n## ", 1)[0]
    fence = re.search(r"```(json|toml)\n(.*?)```", section, re.DOTALL)
    assert fence, "the section shows an example file"
    rules = registry.get(ruleset)
    data = scenarios.setup_file(rules, fence.group(2), f"example.{fence.group(1)}")
    rules.initial_state(scenarios.validate_setup(rules, data))
