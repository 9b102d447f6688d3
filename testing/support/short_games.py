"""A short game of every ruleset, driven through the `umpire` command line with server
dice: its default scenario, the ruleset's own openings (`Ruleset.openings`, so its
decisions are in the log), a generic roll, and the end of the game (which reveals the
seed). Nothing here names a ruleset: a new one is played from its own declarations.
"""

from __future__ import annotations

from typing import Any

import msgspec

from umpire.engine import registry
from umpire.testing.support.drivers import start_setup
from umpire.testing.support.forgery import Cli


def every_ruleset() -> list[str]:
    """Every installed ruleset (umpire's test command installs the examples too)."""
    return sorted(registry.available())


def short_game(cli: Cli, ruleset: str, *, end: bool = True) -> str:
    """Create a game of `ruleset`, play its openings and a generic roll, and end it."""
    openings = registry.get(ruleset).openings
    assert openings, (
        f"{ruleset} declares no openings (Ruleset.openings): its log would hold no decision"
    )
    game = cli.new(ruleset, start_setup(ruleset))
    for command in openings:
        cli.send(game, msgspec.to_builtins(command))
    log = cli("log", game, "--json")
    assert log.code == 0, log.err
    assert "GameEnded" not in log.out, (
        f"{ruleset}'s openings (Ruleset.openings) end the game: the audit tests roll, reveal "
        f"and end it themselves after them, so the openings must leave it running"
    )
    cli.send(game, {"type": "RollDice", "dice": "2d6", "purpose": "export test"})
    if end:
        cli.send(game, {"type": "EndGame", "result": "export test over"})
    return game


def opening(ruleset: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(set-up, commands) of `ruleset`'s declared opening: its driver's set-up and its
    `Ruleset.openings`, as wire dicts."""
    openings = registry.get(ruleset).openings
    return start_setup(ruleset), [msgspec.to_builtins(command) for command in openings]
