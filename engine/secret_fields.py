"""Redaction declarations: which fields of which events a hidden value decides.

A ruleset declares, per event type, every field whose value derives from a hidden roll or
from secret state (the value itself, and any citation, explanation, candidate list or
count computed from it), with what a player or spectator sees instead; or that the event
is withheld from them altogether. `Redactions.redact` applies the declarations and is the
ruleset's `redact`; an event some role does not see in full is secret, so its hash covers
a commitment (engine.redaction.is_secret, docs/audit.md "Commitments").

Hidden rolls (DiceRolled with hidden=True) lose their faces and total for every ruleset
without a declaration.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine.kit.hidden_roll import redact_hidden_roll
from umpire.engine.roles import Role
from umpire.events.types import DiceRolled

# What a role sees instead of a secret field: a fixed value, or one computed from the
# event (e.g. an explanation that keeps its public part).
Mask = Callable[[Any], Any]


@dataclass(frozen=True)
class SecretFields:
    """One event type's declaration: `fields` maps each secret field to what a player or
    spectator sees instead (a value, or a function of the event); `withheld` hides the
    whole event; `when` limits the declaration to the events it returns True for."""

    event_type: type[Struct]
    fields: Mapping[str, Any] = field(default_factory=dict)
    withheld: bool = False
    when: Callable[[Any], bool] | None = None
    why: str = ""

    def applies(self, event: Struct) -> bool:
        """Whether this declaration covers `event`."""
        return self.when is None or bool(self.when(event))

    def masked(self, event: Struct) -> Struct | None:
        """`event` as a player or spectator sees it."""
        if self.withheld:
            return None
        changes = {
            name: mask(event) if callable(mask) else mask for name, mask in self.fields.items()
        }
        return msgspec.structs.replace(event, **changes)


class Redactions:
    """A ruleset's redaction declarations (at most one per event type)."""

    def __init__(self, *declarations: SecretFields) -> None:
        self.declarations: dict[type[Struct], SecretFields] = {}
        for declared in declarations:
            if declared.event_type in self.declarations:
                raise ValueError(f"{declared.event_type.__name__} is declared twice")
            for name in declared.fields:
                if name not in declared.event_type.__struct_fields__:
                    raise ValueError(f"{declared.event_type.__name__} has no field {name!r}")
            self.declarations[declared.event_type] = declared

    def redact(self, event: Struct, role: Role) -> Struct | None:
        """The event as `role` may see it before the reveal (None: not at all)."""
        if role is Role.REFEREE:
            return event
        if isinstance(event, DiceRolled):
            return redact_hidden_roll(event)
        declared = self.declarations.get(type(event))
        if declared is None or not declared.applies(event):
            return event
        return declared.masked(event)


NO_SECRETS = Redactions()
