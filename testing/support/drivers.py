"""Per-ruleset drivers for gateway-level tests: a setup and, for a state, commands worth
trying next. Each ruleset's comes from its own test set-ups (`driver()` in
tests/rulesets/<name>/setups.py, which reuses its random-play generators and scripted
set-ups), so whole games go through the real gateway. A ruleset with no driver of its
own (a newly installed one) is driven from its default scenario by its legal actions
alone. A command a driver proposes may be refused by the rules; callers skip those.

Whatever its own generator thinks of, a driver sends every command type the ruleset lists
(its `actions`, hidden rules included) that it has not sent by the time the type has been
listed PATIENCE times: a check that plays games must play every rule that makes a secret
(the counter's own generator never sent `Hide`, so its hidden roll was never played). The
generator has the first say, so scripted openings play as they did. `Coverage` checks
that of a driven game.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import msgspec

from umpire.engine import registry, scenarios
from umpire.engine.actions import legal_actions
from umpire.engine.errors import InvalidCommand, RuleError
from umpire.engine.offers import command_tag
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.server.app import Running
from umpire.testing.support.peer import Peer
from umpire.testing.support.schema_sampler import sample

Propose = Callable[[Any, random.Random], list[dict[str, Any]]]

# What may refuse a driven command: the engine's typed errors for a command the rules do
# not allow now (RuleError, CommandNotAllowed among them) or that is of no allowed shape
# (a driver fills fields freely). Anything else a command raises is a failure.
REFUSALS: tuple[type[Exception], ...] = (RuleError, InvalidCommand)
# The same refusals as the gateway answers them (the `code` of its error frame).
REFUSAL_CODES = ("rule_violation", "nothing_to_do", "command_not_allowed", "invalid_command")
# How many states may list a command type the driver has not sent before it sends it.
PATIENCE = 3


def _universal(rng: random.Random) -> list[dict[str, Any]]:
    dice = rng.choice(["d6", "2d6", "d10", "d20", "d100"])
    return [{"type": "RollDice", "dice": dice, "purpose": f"check {rng.randrange(100)}"}]


def setups_of(name: str) -> ModuleType | None:
    """The ruleset's own test set-ups (tests/rulesets/<name>/setups.py), if it has them."""
    try:
        return importlib.import_module(f"tests.rulesets.{name}.setups")
    except ModuleNotFoundError as exc:
        if exc.name not in (f"tests.rulesets.{name}", f"tests.rulesets.{name}.setups"):
            raise
        return None


def _of_ruleset(name: str) -> Callable[[], tuple[dict[str, Any], Propose]] | None:
    """The `driver` of the ruleset's own test set-ups, if it has one."""
    setups = setups_of(name)
    made: Callable[[], tuple[dict[str, Any], Propose]] | None = getattr(setups, "driver", None)
    return made


def start_setup(name: str) -> dict[str, Any]:
    """The setup a test game of `name` starts from, as `umpire new` starts one: its
    default scenario's, else {}."""
    return scenarios.default_setup(registry.get(name))


def own_types(ruleset: Ruleset[Any]) -> frozenset[str]:
    """The tags of the ruleset's own command types (not the universal RollDice, EndGame,
    TakeBack)."""
    return frozenset(command_tag(t) for t in ruleset.command_types)


def listed(ruleset: Ruleset[Any], state: Any) -> list[Any]:
    """The ruleset's own command types the player is offered in `state`, as wire actions."""
    own = own_types(ruleset)
    return [a for a in legal_actions(ruleset, state, Role.PLAYER, ended=False) if a.type in own]


def driven_setup(name: str) -> dict[str, Any]:
    """The set-up a driven game of `name` starts from: its test profile's
    (`Ruleset.testing.setup`), else `start_setup`."""
    declared = registry.get(name).testing.setup
    return msgspec.to_builtins(declared) if declared is not None else start_setup(name)


def _by_actions(name: str) -> tuple[dict[str, Any], Propose]:
    """Any ruleset: its test profile's set-up (or its default scenario), and one of the
    player's listed commands (never EndGame) with fields drawn from the action's schema
    alone."""
    ruleset = registry.get(name)

    def propose(state: Any, rng: random.Random) -> list[dict[str, Any]]:
        listed = legal_actions(ruleset, state, Role.PLAYER, ended=False)
        own = [a for a in listed if a.type not in ("RollDice", "EndGame")]
        return [sample(rng.choice(own).schema, rng)] if own else _universal(rng)

    return driven_setup(name), propose


def driver(name: str) -> tuple[dict[str, Any], Propose]:
    """(setup, propose) for a ruleset; a ruleset without a driver here is driven by its
    legal actions (so a new ruleset is covered from the day it is installed). `propose`
    proposes one command, and a command type listed PATIENCE times and never proposed is
    proposed before any other, its fields drawn from its schema."""
    ruleset = registry.get(name)
    make = _of_ruleset(name)
    setup, propose = make() if make is not None else _by_actions(name)
    due = Due()

    def every_type(state: Any, rng: random.Random) -> list[dict[str, Any]]:
        now = listed(ruleset, state)
        owed = due.listed({a.type for a in now})
        if owed:
            action = next(a for a in now if a.type == owed[0])
            due.sent(action.type)
            return [sample(action.schema, rng)]
        # Mostly the ruleset's own commands, so games get somewhere; now and then a roll.
        # One command, chosen here: what is sent is what the driver knows it sent.
        chosen = rng.choice(propose(state, rng) if rng.random() < 0.8 else _universal(rng))
        due.sent(str(chosen.get("type")))
        return [chosen]

    return setup, every_type


@dataclass
class Due:
    """Counts how many states listed each command type not yet sent; those listed PATIENCE
    times are due."""

    seen: dict[str, int] = field(default_factory=dict)
    done: set[str] = field(default_factory=set)

    def listed(self, types: set[str]) -> list[str]:
        """Note the types listed in one state; the due ones, in order."""
        for kind in types - self.done:
            self.seen[kind] = self.seen.get(kind, 0) + 1
        return sorted(k for k in types - self.done if self.seen[k] >= PATIENCE)

    def sent(self, kind: str) -> None:
        """Note a type sent."""
        self.done.add(kind)


@dataclass
class Coverage:
    """Which of a ruleset's own command types were listed to the player over a driven
    game, and which were sent. A type listed PATIENCE times and not sent yet is due; it is
    owed when the driver sends a command of another type instead. `check` fails the test
    when an owed type was never sent: a rule the game offered again and again and the
    check never played (the counter's `Hide`, before the drivers sent every listed type).
    A type listed fewer times may go unsent: one command per state, and a state may list
    alternatives (Down in Flames offers to roll or to bid for the starting altitude)."""

    name: str
    offered: set[str] = field(default_factory=set)
    owed: set[str] = field(default_factory=set)
    _due: Due = field(default_factory=Due)
    _now: list[str] = field(default_factory=list)

    @property
    def sent(self) -> set[str]:
        """The types sent so far."""
        return self._due.done

    def offer(self, state: Any) -> None:
        """Note what the player is offered in `state` (of a game that has not ended)."""
        now = {a.type for a in listed(registry.get(self.name), state)}
        self.offered |= now
        self._now = self._due.listed(now)

    def send(self, command: dict[str, Any]) -> None:
        """Note a command sent in the state last offered."""
        kind = str(command.get("type"))
        if self._now and kind not in self._now:
            self.owed |= set(self._now)
        self._due.sent(kind)

    def check(self) -> None:
        """Fail when an owed command type was never sent."""
        missing = sorted(self.owed - self.sent)
        assert not missing, (
            f"{self.name}: the driver never sent {missing}, which the ruleset listed "
            f"{PATIENCE} times and more while it sent other commands (sent {sorted(self.sent)})"
        )


@dataclass
class Played:
    """What `play` did: commands accepted, whether the rules ended the game, the index of
    the command that ended it (the commands before it leave the game running), and which
    command types were offered and sent."""

    accepted: int
    coverage: Coverage
    ended: bool = False
    ending: int = -1


SECONDS = 20.0


async def play(
    running: Running, player: Peer, game_id: str, name: str, seed: int, count: int
) -> Played:
    """Send up to `count` driver commands to a game, until the rules end it. Every refusal
    must be one of the rules' (REFUSAL_CODES)."""
    _, propose = driver(name)
    rng = random.Random(seed)
    played = Played(0, Coverage(name))
    deadline = time.monotonic() + SECONDS
    for i in range(count):
        if time.monotonic() > deadline:
            break
        _, game = await running.gateway.games.load(game_id)
        if game.meta.ended:
            played.ended = True
            break  # the rules ended the game (and revealed the seed)
        played.coverage.offer(game.state)
        command = rng.choice(propose(game.state, rng))
        played.coverage.send(command)
        reply = await player.request(
            {"type": "command", "game_id": game_id, "command_id": f"c{i}", "command": command}
        )
        if reply["type"] == "accepted":
            played.accepted += 1
            played.ending = i
        else:
            assert reply["code"] in REFUSAL_CODES, reply
        if i % 10 == 0:
            await player.ok({"type": "view", "game_id": game_id})
    else:
        _, game = await running.gateway.games.load(game_id)
        played.ended = game.meta.ended
    if not played.ended:
        played.ending = -1
    return played


def rulesets() -> list[str]:
    """Every installed ruleset (entry points; not ones a test registered by hand)."""
    return sorted(registry.installed())
