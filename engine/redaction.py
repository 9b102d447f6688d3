"""What a role may see of an event (ARCHITECTURE.md "Roles and secrets").

The referee sees everything, and so does everyone once the game is finally revealed (the
reveal that ends it). Before that, a hidden roll shows its purpose but not its faces, and
the ruleset's `redact` (built from its declarations, engine.secret_fields) decides for its
own events: a secret still in play (a hidden pool, a running count) stays sealed through a
mid-game reveal, and so do the hidden rolls it was drawn by (their faces derive from the
sealing key, not from the seed a mid-game reveal publishes: engine/dice.py `roll_key`). An
event that some role does not see in full is secret: its hash covers a commitment, never
its bytes (docs/audit.md section 3: keyed from the game's sealing key, which only the
final reveal publishes; an old game's hidden roll from its epoch's seed).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from msgspec import Struct

from umpire.engine.kit.hidden_roll import redact_hidden_roll
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.engine.secret_fields import Redactions
from umpire.events.types import DiceRolled


@cache
def _declared(ruleset: Ruleset[Any]) -> Mapping[type[Struct], Any] | None:
    """The event types a ruleset's `Redactions` declares (its `redact` passes every other
    event unchanged, DiceRolled aside), or None when its `redact` is a function of its
    own, which is asked about every event. Every event of every command is asked about
    (`is_secret`, and the takeback stack's `_shows_hidden`): two calls each, where one
    dict lookup answers for the types nothing is declared for."""
    owner = getattr(ruleset.redact, "__self__", None)
    if type(owner) is Redactions and getattr(ruleset.redact, "__func__", None) is Redactions.redact:
        return owner.declarations
    return None


def redact(ruleset: Ruleset[Any], event: Struct, role: Role, *, revealed: bool) -> Struct | None:
    """The event as `role` may see it, or None when the role may not see it at all.

    `revealed`: the game is finally revealed (everything is shown). A mid-game reveal
    shows nothing more: a hidden roll's faces would give away the secret it drew (issue
    #30 item 4)."""
    if role is Role.REFEREE or revealed:
        return event
    if isinstance(event, DiceRolled):
        return redact_hidden_roll(event)
    declared = _declared(ruleset)
    if declared is not None and type(event) not in declared:
        return event
    return ruleset.redact(event, role)


def is_secret(ruleset: Ruleset[Any], event: Struct) -> bool:
    """Whether a player or spectator would see less than the whole event before the
    reveal: then it is sealed under a commitment (docs/audit.md "Commitments").

    `redact` for each limited role, unrolled: this runs for every event of every command."""
    if isinstance(event, DiceRolled):
        return event.hidden
    declared = _declared(ruleset)
    if declared is not None and type(event) not in declared:
        return False
    own = ruleset.redact
    return own(event, Role.PLAYER) is not event or own(event, Role.SPECTATOR) is not event


def is_sealed(ruleset: Ruleset[Any], event: Struct) -> bool:
    """Whether `event` holds a ruleset secret (secret, and not a hidden roll): its
    commitment is keyed from the game's sealing key, so a mid-game reveal leaves it shut."""
    return not isinstance(event, DiceRolled) and is_secret(ruleset, event)


# The secrecy classes of docs/audit.md section 3, as an export's header states them.
PUBLIC, HIDDEN_ROLL, SECRET, SECRET_WHEN, RULESET_CODE = (
    "public", "hidden_roll", "secret", "secret_when", "ruleset_code",
)  # fmt: skip


def secrecy_classes(ruleset: Ruleset[Any], types: Iterable[type[Struct]]) -> dict[str, str]:
    """Each event type's secrecy class, by tag, from the ruleset's declarations: `public`
    (never committed), `hidden_roll` (DiceRolled: committed exactly when `hidden`),
    `secret` (always committed), `secret_when` (committed when its declaration's condition
    holds, which needs the ruleset to evaluate), `ruleset_code` (a ruleset whose `redact`
    is its own function decides). An export carries them so that a third party can check
    without umpire's code that every event a role could not see was committed."""
    declared = _declared(ruleset)
    classes: dict[str, str] = {}
    for event_type in types:
        tag = event_type.__struct_config__.tag
        assert isinstance(tag, str)
        if event_type is DiceRolled:
            classes[tag] = HIDDEN_ROLL
        elif declared is None:
            classes[tag] = RULESET_CODE
        elif event_type not in declared:
            classes[tag] = PUBLIC
        else:
            owner = declared[event_type]
            classes[tag] = SECRET_WHEN if getattr(owner, "when", None) is not None else SECRET
    return dict(sorted(classes.items()))


def view_for(ruleset: Ruleset[Any], state: Any, role: Role, *, revealed: bool) -> Any:
    """The state as `role` sees it (everything once the seed is revealed)."""
    return ruleset.view(state, Role.REFEREE if revealed else role)
