"""Per-ruleset drivers for gateway-level tests: a setup and, for a state, commands worth
trying next. Each ruleset's comes from its own test set-ups (`driver()` in
tests/rulesets/<name>/setups.py, which reuses its random-play generators and scripted
set-ups), so whole games go through the real gateway. A ruleset with no driver of its
own (a newly installed one) is driven from its default scenario by its legal actions
alone. A command a driver proposes may be refused by the rules; callers skip those.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable
from typing import Any

from tests.support.peer import Peer
from tests.support.schema_sampler import sample
from umpire.engine import registry, scenarios
from umpire.engine.actions import legal_actions
from umpire.engine.roles import Role
from umpire.server.app import Running

Propose = Callable[[Any, random.Random], list[dict[str, Any]]]


def _universal(rng: random.Random) -> list[dict[str, Any]]:
    dice = rng.choice(["d6", "2d6", "d10", "d20", "d100"])
    return [{"type": "RollDice", "dice": dice, "purpose": f"check {rng.randrange(100)}"}]


def _counter() -> tuple[dict[str, Any], Propose]:
    return {"target": 10_000}, lambda state, rng: [
        {"type": "Push"},
        {"type": "Add", "amount": rng.randint(1, 3)},
    ]


def _of_ruleset(name: str) -> Callable[[], tuple[dict[str, Any], Propose]] | None:
    """The `driver` of the ruleset's own test set-ups (tests/rulesets/<name>/setups.py), if
    it has one."""
    if name == "counter":  # the example ruleset, a package of its own (examples/)
        return _counter
    try:
        setups = importlib.import_module(f"tests.rulesets.{name}.setups")
    except ModuleNotFoundError as exc:
        if exc.name not in (f"tests.rulesets.{name}", f"tests.rulesets.{name}.setups"):
            raise
        return None
    made: Callable[[], tuple[dict[str, Any], Propose]] | None = getattr(setups, "driver", None)
    return made


def start_setup(name: str) -> dict[str, Any]:
    """The setup a test game of `name` starts from, as `umpire new` starts one: its
    default scenario's, else {}."""
    return scenarios.default_setup(registry.get(name))


def _by_actions(name: str) -> tuple[dict[str, Any], Propose]:
    """Any ruleset: its default scenario, and one of the player's listed commands (never
    EndGame) with fields drawn from the action's schema alone."""
    ruleset = registry.get(name)

    def propose(state: Any, rng: random.Random) -> list[dict[str, Any]]:
        listed = legal_actions(ruleset, state, Role.PLAYER, ended=False)
        own = [a for a in listed if a.type not in ("RollDice", "EndGame")]
        return [sample(rng.choice(own).schema, rng)] if own else _universal(rng)

    return start_setup(name), propose


def driver(name: str) -> tuple[dict[str, Any], Propose]:
    """(setup, propose) for a ruleset; a ruleset without a driver here is driven by its
    legal actions (so a new ruleset is covered from the day it is installed)."""
    make = _of_ruleset(name)
    setup, propose = make() if make is not None else _by_actions(name)

    def with_universal(state: Any, rng: random.Random) -> list[dict[str, Any]]:
        # Mostly the ruleset's own commands, so games get somewhere; now and then a roll.
        return propose(state, rng) if rng.random() < 0.8 else _universal(rng)

    return setup, with_universal


def rulesets() -> list[str]:
    """Every installed ruleset (entry points; not ones a test registered by hand)."""
    return sorted(registry.installed())


SECONDS = 20.0


async def play(
    running: Running, player: Peer, game_id: str, name: str, seed: int, count: int
) -> int:
    """Send up to `count` driver commands to a game; how many were accepted."""
    _, propose = driver(name)
    rng = random.Random(seed)
    accepted = 0
    deadline = time.monotonic() + SECONDS
    for i in range(count):
        if time.monotonic() > deadline:
            break
        _, game = await running.gateway.games.load(game_id)
        command = rng.choice(propose(game.state, rng))
        reply = await player.request(
            {"type": "command", "game_id": game_id, "command_id": f"c{i}", "command": command}
        )
        if reply["type"] == "accepted":
            accepted += 1
        elif reply["code"] == "game_over":
            break  # the rules ended the game (and revealed the seed)
        else:
            assert reply["code"] in (
                "rule_violation",
                "command_not_allowed",
                "invalid_command",
                "manual_dice",
            ), reply
        if i % 10 == 0:
            await player.ok({"type": "view", "game_id": game_id})
    return accepted
