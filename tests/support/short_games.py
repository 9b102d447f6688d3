"""A short game of every ruleset, driven through the `umpire` command line with server
dice: each ruleset's own opening commands (so its decisions are in the log), a generic
roll, and the end of the game (which reveals the seed).

Setups come from each ruleset's scripted tests, so they stay valid as the rulesets grow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.support.forgery import Cli
from umpire.engine import registry


def _downtown() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    from tests.rulesets.downtown.setups import SETUP

    return SETUP, [{"type": "DeployGroundUnits"}, {"type": "CheckDrvRadar"}]


def _nightfighter() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    from tests.rulesets.nightfighter.setups import setup_4b

    return setup_4b(), [{"type": "EndPhase"}, {"type": "MoveBombers"}]


def _age_of_dogfights() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    from tests.rulesets.age_of_dogfights.setups import SETUP

    return SETUP, [{"type": "RollSetup"}, {"type": "FlyBots"}]


def _down_in_flames() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    from tests.rulesets.down_in_flames.setups import ENGAGEMENT_SETUP as SETUP

    return SETUP, [{"type": "RollStartingAltitude"}, {"type": "BeginTurn", "side": "B"}]


def _conflict_of_heroes() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return {}, [{"type": "ReportCounters", "rumored": 1, "reinforcements": 1},
                {"type": "Pass"}, {"type": "TakeAiTurn"}]  # fmt: skip


def _counter() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return {"target": 100}, [{"type": "Push"}, {"type": "Hide"}, {"type": "Add", "amount": 2}]


OPENINGS: dict[str, Callable[[], tuple[dict[str, Any], list[dict[str, Any]]]]] = {
    "downtown": _downtown,
    "nightfighter": _nightfighter,
    "age_of_dogfights": _age_of_dogfights,
    "down_in_flames": _down_in_flames,
    "conflict_of_heroes": _conflict_of_heroes,
    "counter": _counter,
}


def every_ruleset() -> list[str]:
    """Every installed ruleset; one with no scripted opening here fails its test loudly."""
    return sorted(set(registry.available()) | {"counter"})


def short_game(cli: Cli, ruleset: str, *, end: bool = True) -> str:
    """Create a game of `ruleset`, play its opening and a generic roll, and end it."""
    if ruleset not in OPENINGS:
        raise AssertionError(f"no scripted opening for ruleset {ruleset!r}: add one above")
    setup, commands = OPENINGS[ruleset]()
    game = cli.new(ruleset, setup)
    for command in commands:
        cli.send(game, command)
    cli.send(game, {"type": "RollDice", "dice": "2d6", "purpose": "export test"})
    if end:
        cli.send(game, {"type": "EndGame", "result": "export test over"})
    return game
