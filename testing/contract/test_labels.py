"""Contract: every installed ruleset shows its view in the rules' words (issue 41 item 2).

Each ruleset declares its labels once (`Ruleset.labels`, engine/kit/labels.py); this
derives the rest. Over seeded random play (the player's listed commands,
fields drawn from their schemas), every field of every view reached, as the player sees it and
after the reveal, has a label, and every coded value in it (a snake_case word such as an
enum's `minus_1`, or a negative number such as a sentinel -1) has a name.
"""

from __future__ import annotations

import random
import re
from typing import Any

import msgspec
import pytest

from umpire.engine import registry
from umpire.engine.dice import ServerDice
from umpire.engine.game import Game, apply
from umpire.engine.handling import decide_command
from umpire.engine.kit.labels import Labels
from umpire.engine.redaction import view_for
from umpire.engine.roles import Role
from umpire.events.errors import UmpireError
from umpire.testing.contract.test_actions_truth import _new_game
from umpire.testing.support.drivers import listed, rulesets
from umpire.testing.support.schema_sampler import sample

STEPS = 150  # commands tried per game
CODED = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")  # an enum value's snake_case word


def unlabelled(labels: Labels, view: Any) -> set[str]:
    """What a view shows without the ruleset's words: `field KEY` without a label,
    `value KEY=VALUE` of a coded value without a name."""
    missing: set[str] = set()

    def walk(value: Any, key: str, keyed: bool) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if not keyed and k not in labels.fields:
                    missing.add(f"field {k}")
                walk(v, str(k) if not keyed else key, not keyed and k in labels.keyed)
        elif isinstance(value, list):
            for v in value:
                walk(v, key, False)
        elif _coded(value) and labels.shown(key, value) is None:
            missing.add(f"value {key}={value}")

    walk(view, "", False)
    return missing


def _coded(value: Any) -> bool:
    if isinstance(value, str):
        return bool(CODED.match(value))
    return isinstance(value, int) and not isinstance(value, bool) and value < 0


@pytest.mark.parametrize("name", rulesets())
def test_every_field_of_every_view_reached_has_a_label(name: str) -> None:
    ruleset = registry.get(name)
    rng = random.Random(41)
    game: Game = _new_game(name)
    missing: set[str] = set()
    for step in range(STEPS):
        for revealed in (False, True):
            view = view_for(ruleset, game.state, Role.PLAYER, revealed=revealed)
            missing |= unlabelled(ruleset.labels, msgspec.to_builtins(view))
        if game.meta.ended:
            break
        offered = listed(ruleset, game.state)
        if not offered:
            break
        command = sample(rng.choice(offered).schema, rng)
        dice = ServerDice(bytes(32), f"labels-{step}", game.meta.rolls)
        try:
            events = decide_command(ruleset, game, command, dice)
        except UmpireError:
            continue
        for event in events:
            game = apply(ruleset, game, event)
            game = Game(msgspec.structs.replace(game.meta, seq=game.meta.seq + 1), game.state)
    assert not missing, f"{name} shows without a label:\n" + "\n".join(sorted(missing))
