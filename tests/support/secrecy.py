"""What a ruleset declares secret, read from its own declarations: the redactions its
`redact` is built from (engine/secret_fields.py `Redactions`; a `redact` function of its
own counts as declaring secrets), and the state fields it names (`Ruleset.secret_fields`).
The secrecy tests (tests/access, tests/contract) derive from these which rulesets must
make secrets in a driven game, so that none keeps a list of rulesets by hand.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from umpire.engine.ruleset import Ruleset
from umpire.engine.secret_fields import Redactions

_NO_REDACTION = next(f.default for f in dataclasses.fields(Ruleset) if f.name == "redact")


def declared(ruleset: Ruleset[Any]) -> list[str]:
    """The ruleset's secret declarations, for people: the event types its redactions
    cover, a redact function of its own, the secret state fields."""
    owner = getattr(ruleset.redact, "__self__", None)
    found: list[str] = []
    if isinstance(owner, Redactions):
        found += sorted(t.__struct_config__.tag for t in owner.declarations)  # type: ignore[attr-defined]
    elif ruleset.redact is not _NO_REDACTION:
        found.append(f"redact={getattr(ruleset.redact, '__qualname__', ruleset.redact)}")
    found += [f"secret field {name!r}" for name in ruleset.secret_fields]
    return found


def has_secrets(ruleset: Ruleset[Any]) -> bool:
    """Whether the ruleset declares anything a player or spectator must not see before the
    reveal: then a driven game of it must make secrets for the secrecy checks to attack."""
    return bool(declared(ruleset))
