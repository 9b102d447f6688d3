"""`offers` (engine/actions.py), the command path's question "is this type listed now?",
answers as the whole listing (`offered`) does, for every type but TakeBack (whose rule
engine/takeback.py answers, and check_allowed asks it)."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgspec
import pytest

from umpire.engine import registry
from umpire.engine.actions import offered, offers
from umpire.engine.commands import TakeBack
from umpire.engine.game import parse_setup
from umpire.engine.handling import command_types
from umpire.engine.roles import Role
from umpire.testing.support.drivers import rulesets, start_setup


def _agree(ruleset: Any, state: Any) -> None:
    for role in Role:
        for ended in (False, True):
            listed = {a.type for a in offered(ruleset, state, role, ended=ended)}
            for tag, command_type in command_types(ruleset).items():
                if command_type is TakeBack:
                    continue
                asked = offers(ruleset, state, role, command_type, ended)
                assert asked == (tag in listed), (ruleset.name, role, ended, tag)


@pytest.mark.parametrize("name", rulesets())
def test_offers_agrees_with_the_listing_at_the_start(name: str) -> None:
    ruleset = registry.get(name)
    state = ruleset.initial_state(parse_setup(ruleset, start_setup(name)))
    _agree(ruleset, state)
    _agree(dataclasses.replace(ruleset, actions=None), state)  # every type, unnarrowed


def test_offers_follows_the_state_it_is_given() -> None:
    # At the target the counter offers no Add (R1); one short of it, it does. (Read from
    # the registry, not imported: a ruleset package runs this module without the counter.)
    counter = registry.get("counter")
    state = counter.state_type
    for total in (0, 5, 9, 10):
        _agree(counter, state(target=10, total=total))
    add: type[msgspec.Struct] = command_types(counter)["Add"]
    assert offers(counter, state(target=10, total=9), Role.PLAYER, add, False)
    assert not offers(counter, state(target=10, total=10), Role.PLAYER, add, False)
