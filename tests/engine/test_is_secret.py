"""engine.redaction.is_secret (unrolled for the command path) agrees with `redact`: an
event is secret exactly when a player or a spectator would see less of it."""

from __future__ import annotations

import dataclasses
from typing import Any

from msgspec import Struct

from engine.redaction import is_secret, redact
from engine.roles import Role
from events.types import DiceRolled
from tests.support.counter_ruleset import RULESET, Added, SecretChosen


def _by_redact(ruleset: Any, event: Struct) -> bool:
    return any(
        redact(ruleset, event, role, revealed=False) is not event
        for role in (Role.PLAYER, Role.SPECTATOR)
    )


def _rolled(hidden: bool) -> DiceRolled:
    return DiceRolled(
        roll=1, kind="d6", sides=(6,), faces=(4,), total=4, purpose="p", rule="R", hidden=hidden
    )


def test_is_secret_is_what_redact_says_for_each_kind_of_event() -> None:
    events: list[Struct] = [
        Added(amount=1),
        SecretChosen(value=3, rule="R3", dice=(3,)),
        _rolled(hidden=True),
        _rolled(hidden=False),
    ]
    assert [is_secret(RULESET, e) for e in events] == [False, True, True, False]
    assert [is_secret(RULESET, e) for e in events] == [_by_redact(RULESET, e) for e in events]


def test_a_ruleset_that_hides_from_spectators_only_makes_the_event_secret() -> None:
    def spectators_only(event: Struct, role: Role) -> Struct | None:
        return None if role is Role.SPECTATOR else event

    ruleset = dataclasses.replace(RULESET, redact=spectators_only)
    assert is_secret(ruleset, Added(amount=1))
    assert _by_redact(ruleset, Added(amount=1))
