"""The sequence of play's next step (`Action.next`, engine/actions.py `as_next`): each
ruleset marks what its rules expect now where it knows it, one action at most, one of its
own (never a roll of the player's own, EndGame or TakeBack); the wire carries the flag only
when set, so an old client reads the same frame as before; and the flag is a channel the
twin differential reads (testing/access: a game that marks by a secret fails it)."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from umpire.engine import registry
from umpire.engine.actions import as_next, legal_actions, offer
from umpire.engine.commands import EndGame
from umpire.engine.dice import ServerDice
from umpire.engine.game import Game, apply, start
from umpire.engine.handling import decide_command
from umpire.engine.roles import Role
from umpire.events.errors import UmpireError
from umpire.events.types import ClientEntropy, GameCreated
from umpire.testing.support.drivers import driver, rulesets

STEPS = 60
NOT_STEPS = frozenset({"RollDice", "EndGame", "TakeBack"})


def _new_game(name: str, setup: dict[str, Any]) -> Game:
    ruleset = registry.get(name)
    created = GameCreated(
        game_id="next",
        ruleset=name,
        ruleset_version=ruleset.version,
        setup=setup,
        seed_commitment="0" * 64,
        client_entropy=ClientEntropy.WAIVED,
    )
    return start(ruleset, created)


@pytest.mark.parametrize("name", rulesets())
def test_each_ruleset_marks_at_most_one_next_step_of_its_own(name: str) -> None:
    """Over a driven game: never two next steps, never a universal one, and some step
    marked (every shipped ruleset has phases whose step its rules name)."""
    ruleset = registry.get(name)
    setup, propose = driver(name)
    game = _new_game(name, setup)
    rng = random.Random(3)
    marked = 0
    for step in range(STEPS):
        if game.meta.ended:
            break
        actions = legal_actions(ruleset, game.state, Role.PLAYER, ended=False, game=game)
        nexts = [a.type for a in actions if a.next]
        assert len(nexts) <= 1, f"{name} step {step}: {nexts}"
        assert not set(nexts) & NOT_STEPS, f"{name} step {step}: {nexts}"
        marked += len(nexts)
        command = rng.choice(propose(game.state, rng))
        dice = ServerDice(bytes(32), f"next-{step}", game.meta.rolls)
        try:
            events = decide_command(ruleset, game, command, dice)
        except UmpireError:
            continue
        for event in events:
            game = apply(ruleset, game, event)
            game = Game(msgspec.structs.replace(game.meta, seq=game.meta.seq + 1), game.state)
    # The shipped rulesets know their sequence of play; an example (counter, hi-lo) needn't.
    shipped = getattr(ruleset.actions, "__module__", "").startswith("umpire.engine.rulesets.")
    assert marked or not shipped, f"{name}: no step of the driven game marks a next step"


def test_the_flag_is_on_the_wire_only_when_set() -> None:
    """An old client's frame is unchanged: `next` is left out unless true."""
    plain = offer(EndGame, "R1", "End it")
    assert b"next" not in msgspec.json.encode(plain.wire())
    assert b'"next":true' in msgspec.json.encode(as_next(plain).wire())
    assert as_next(plain).wire().schema == plain.wire().schema
