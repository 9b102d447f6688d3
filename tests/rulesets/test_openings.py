"""Every ruleset declares its test openings (Ruleset.openings), and they play.

A contract test may play a ruleset's openings first in a game of its default scenario:
each must be accepted as wire data with server dice, and together they must append more
than the commands themselves (the ruleset's decisions are in the log).
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from umpire_counter import RULESET as COUNTER

from tests.support.golden_logs import send, start
from umpire.engine.registry import available, get
from umpire.engine.ruleset import Ruleset
from umpire.engine.scenarios import default_setup
from umpire.events.types import CommandRecorded


def _rulesets() -> list[Ruleset[Any]]:
    return [*(get(name) for name in available()), COUNTER]


@pytest.mark.parametrize("ruleset", _rulesets(), ids=lambda r: r.name)
def test_openings_are_declared_and_play_from_the_default_scenario(ruleset: Ruleset[Any]) -> None:
    assert ruleset.openings, f"{ruleset.name} declares no test openings"
    setup = default_setup(ruleset) if ruleset.default_scenario else {}
    game = start(ruleset, setup)
    decided = []
    for command in ruleset.openings:
        wire = msgspec.to_builtins(command)
        assert wire["type"] == command.__struct_config__.tag
        game, events = send(ruleset, game, wire)
        decided += [e for e in events if not isinstance(e, CommandRecorded)]
    assert decided, f"{ruleset.name}'s openings decided nothing"
