"""umpire.engine.redaction.is_secret (unrolled for the command path) agrees with `redact`: an
event is secret exactly when a player or a spectator would see less of it."""

from __future__ import annotations

import dataclasses
from typing import Any

from msgspec import Struct
from umpire_counter import RULESET, Added, SecretChosen

from umpire.engine.redaction import is_secret, redact
from umpire.engine.roles import Role
from umpire.engine.secret_fields import Redactions, SecretFields
from umpire.events.types import DiceRolled


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


# The shortcut for the types a ruleset's Redactions declares nothing for (engine.redaction
# `_declared`, kept per ruleset): it must answer for the ruleset asked, never another.


def test_a_ruleset_with_other_declarations_is_answered_by_its_own() -> None:
    hides_added = Redactions(SecretFields(Added, fields={"amount": 0}, why="test"))
    other = dataclasses.replace(RULESET, redact=hides_added.redact)
    assert not is_secret(RULESET, Added(amount=1))  # asked first: the original is kept
    assert is_secret(other, Added(amount=1))
    assert redact(other, Added(amount=1), Role.PLAYER, revealed=False) == Added(amount=0)
    assert not is_secret(RULESET, Added(amount=1))
    assert redact(RULESET, Added(amount=2), Role.PLAYER, revealed=False) == Added(amount=2)


def test_a_declaration_limited_by_when_is_still_asked() -> None:
    odd = Redactions(
        SecretFields(Added, fields={"amount": 0}, when=lambda e: e.amount % 2 == 1, why="t")
    )
    ruleset = dataclasses.replace(RULESET, redact=odd.redact)
    assert [is_secret(ruleset, Added(amount=n)) for n in (1, 2, 3)] == [True, False, True]
    assert [_by_redact(ruleset, Added(amount=n)) for n in (1, 2, 3)] == [True, False, True]


def test_a_redactions_subclass_with_its_own_redact_is_asked_about_every_event() -> None:
    class HidesEverything(Redactions):
        def redact(self, event: Struct, role: Role) -> Struct | None:
            return None

    ruleset = dataclasses.replace(RULESET, redact=HidesEverything().redact)
    assert is_secret(ruleset, Added(amount=1))
    assert redact(ruleset, Added(amount=1), Role.PLAYER, revealed=False) is None
