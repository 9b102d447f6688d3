"""What a player reads of every shipped ruleset says a count as a reader says it: no
"(s)" left in a scenario's description (`umpire scenarios`, the table's list), a command's
description (`umpire play`'s help, the table's forms, the published schemas) or a listed
action's words (events/plurals.py `counted` says a count that varies)."""

from __future__ import annotations

import json

import msgspec
import pytest

from tests.support.golden_logs import start
from umpire.engine import registry
from umpire.engine.actions import legal_actions
from umpire.engine.roles import Role
from umpire.engine.scenarios import scenarios
from umpire.server.publish_schemas import documents


@pytest.mark.parametrize("name", registry.shipped())
def test_no_plural_is_said_as_a_form(name: str) -> None:
    ruleset = registry.get(name)
    for each in scenarios(ruleset):
        assert "(s)" not in each.description, each.description
        game = start(ruleset, dict(each.setup))
        for action in legal_actions(ruleset, game.state, Role.PLAYER, ended=False, game=game):
            assert "(s)" not in json.dumps(msgspec.to_builtins(action)), action
    (document,) = [d for d in documents() if d["ruleset"] == name]
    assert "(s)" not in json.dumps(document), name
