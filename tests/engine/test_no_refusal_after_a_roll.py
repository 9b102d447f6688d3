"""A command is refused before it rolls, never after (issue #30 item 5, docs/security.md).

With a nonce per command, a command the rules refused after rolling for it, on the faces
rolled, could be sent again with another nonce until the faces suit the player (before
nonces the same command rolled the same dice again). A refusal writes nothing, so only the
rules' code shows whether one comes after a roll: this plays every shipped ruleset's
driver (most of its proposals are refused) and fails where a refusal follows a server roll
of the same command."""

from __future__ import annotations

import random

import msgspec
import pytest

from umpire.engine import registry
from umpire.engine.dice import ServerDice, commitment
from umpire.engine.game import apply, parse_setup, start
from umpire.engine.handling import decide_command
from umpire.events.errors import UmpireError
from umpire.events.types import ClientEntropy, GameCreated
from umpire.testing.support.drivers import driver, rulesets

SEED = bytes(range(32))
COMMANDS = 200


@pytest.mark.parametrize("name", rulesets())
def test_no_refusal_comes_after_a_roll_of_its_command(name: str) -> None:
    ruleset = registry.get(name)
    setup, propose = driver(name)
    created = GameCreated(
        game_id="g-refusals",
        ruleset=ruleset.name,
        ruleset_version=ruleset.version,
        setup=msgspec.to_builtins(parse_setup(ruleset, setup)),
        seed_commitment=commitment(SEED),
        client_entropy=ClientEntropy.WAIVED,
    )
    game = start(ruleset, created)
    rng = random.Random(5)
    seq, refused, after_a_roll = 1, 0, []
    for i in range(COMMANDS):
        if game.meta.ended:
            break
        command = rng.choice(propose(game.state, rng))
        nonce = f"{i:032x}"
        dice = ServerDice(SEED, "", game.meta.rolls, nonce=nonce)
        try:
            events = decide_command(ruleset, game, command, dice, nonce=nonce)
        except UmpireError as refusal:
            refused += 1
            if dice.rolled:
                after_a_roll.append((command.get("type"), refusal.code, refusal.message))
            continue
        for event in events:
            seq += 1
            game = apply(ruleset, game, event, seq=seq, command_id=f"c{i}")
    assert not after_a_roll, after_a_roll
    if not refused:  # a small ruleset (the counter, hi-lo) offers nothing the rules refuse
        pytest.skip(f"{name}: random play met no refusal, so there was nothing to check")
