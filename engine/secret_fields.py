"""Secret declarations: each secret of a ruleset is declared once, here, and everything
else follows from that one declaration (docs/rulesets.md "Secrets").

A ruleset declares, per event type, every field whose value derives from a hidden roll or
from secret state (the value itself, and any citation, explanation, candidate list or
count computed from it), with what a player or spectator sees instead; or that the event
is withheld from them altogether (`SecretFields`); and the fields of its state that only
the referee sees (`SecretState`). From the declarations:

- `Redactions.redact` is the ruleset's `redact`; an event some role does not see in full is
  secret, so its hash covers a commitment (engine.redaction.is_secret, docs/audit.md
  "Commitments");
- `Redactions.viewing(view)` is the ruleset's `view` with every declared state secret left
  out for every role but the referee (`Ruleset` wraps its `view` so);
- `Redactions.paths` names each secret by path, which is how the contract's leak checks
  find it in a frame: `<event tag>.<field>[.<key>...]` inside that event type's payload
  only (`*` = every key or item), `<event tag>` alone for a withheld event, and
  `state.<field>[...]` inside a role's view. A path never matches a field of the same name
  elsewhere (a field named `hidden` is not `DiceRolled.hidden`). `Ruleset.secret_paths`
  is the public way to ask a ruleset for them.

Hidden rolls (DiceRolled with hidden=True) lose their faces and total for every ruleset
without a declaration.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine.decision import Decision
from umpire.engine.kit.hidden_roll import redact_hidden_roll
from umpire.engine.roles import Role
from umpire.events.types import DiceRolled

# What a role sees instead of a secret field: a fixed value, or one computed from the
# event (e.g. an explanation that keeps its public part).
Mask = Callable[[Any], Any]


# Fields every decision event carries (engine.decision.Decision): a bare name of one of
# them cannot tell one event's secret from every other event's public value.
_SHARED = frozenset(Decision.__struct_fields__)


@dataclass(frozen=True)
class SecretFields:
    """One event type's declaration: `fields` maps each secret field to what a player or
    spectator sees instead (a value, or a function of the event); `withheld` hides the
    whole event; `when` limits the declaration to the events it returns True for.

    `secret`: the paths inside the event that hold the secret itself, which the leak checks
    look for (a key of a nested dict after a dot, `*` for every key or item, e.g.
    "setup.aircraft.*.pilot_quality"); by default every field of `fields`."""

    event_type: type[Struct]
    fields: Mapping[str, Any] = field(default_factory=dict)
    withheld: bool = False
    when: Callable[[Any], bool] | None = None
    why: str = ""
    secret: tuple[str, ...] | None = None

    @property
    def tag(self) -> str:
        """The event type's tag, as frames and paths name it."""
        tag = self.event_type.__struct_config__.tag
        return tag if isinstance(tag, str) else self.event_type.__name__

    @property
    def inner_paths(self) -> tuple[str, ...]:
        """The secret's paths inside the event's payload."""
        return tuple(self.fields) if self.secret is None else self.secret

    @property
    def secret_paths(self) -> tuple[str, ...]:
        """The declared secret's paths, `<tag>.<inner path>` (`<tag>` alone: the whole
        event is withheld). A tag may hold dots itself: a path is read against the tag of
        the event it is checked on."""
        whole = (self.tag,) if self.withheld else ()
        return (*whole, *(f"{self.tag}.{path}" for path in self.inner_paths))

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


@dataclass(frozen=True)
class SecretState:
    """A field of the state that only the referee sees before the reveal: `path` is its
    place in a role's view (a key, dots into nested dicts, `*` for every key or item);
    every other role's view leaves it out.

    `count_public`: the value is a sequence whose length every role may know (Downtown's
    hidden AAA pool: how many concentrations were bought is public, their densities not);
    a dispute's blinded line (engine/poison.py) keeps the length and poisons each item,
    where it poisons the whole value otherwise.

    `shown`: given the struct or dict that holds the field, whether every role sees it now
    (a Down in Flames pilot's characteristic once revealed, 9.1.11): a dispute's blinded
    line then reads it as it is. None: never until the reveal."""

    path: str
    why: str = ""
    count_public: bool = False
    shown: Callable[[Any], bool] | None = None

    @property
    def secret_paths(self) -> tuple[str, ...]:
        """The declared secret's path, `state.<path>`."""
        return (f"state.{self.path}",)


class Redactions:
    """A ruleset's secret declarations: at most one `SecretFields` per event type, and its
    `SecretState`s."""

    def __init__(self, *declarations: SecretFields | SecretState) -> None:
        self.declarations: dict[type[Struct], SecretFields] = {}
        self.state: tuple[SecretState, ...] = tuple(
            d for d in declarations if isinstance(d, SecretState)
        )
        for declared in declarations:
            if isinstance(declared, SecretState):
                continue
            name = declared.event_type.__name__
            if declared.event_type in self.declarations:
                raise ValueError(f"{name} is declared twice")
            own = declared.event_type.__struct_fields__
            for path in (*declared.fields, *(declared.secret or ())):
                if path.split(".", 1)[0] not in own:
                    raise ValueError(f"{name} has no field {path.split('.', 1)[0]!r}")
            self.declarations[declared.event_type] = declared

    @property
    def paths(self) -> tuple[str, ...]:
        """Every declared secret by path (module docstring), in declaration order."""
        events = [path for d in self.declarations.values() for path in d.secret_paths]
        return (*events, *(path for d in self.state for path in d.secret_paths))

    @property
    def names(self) -> tuple[str, ...]:
        """Bare field names of the declared secrets (the last key of each path, without the
        fields every decision event has), for callers that search by name. Prefer `paths`:
        a bare name matches a field of that name in every payload."""
        inner = [
            *(path for d in self.declarations.values() for path in d.inner_paths),
            *(d.path for d in self.state),
        ]
        found: list[str] = []
        for path in inner:
            last = path.rsplit(".", 1)[-1]
            if last != "*" and last not in _SHARED and last not in found:
                found.append(last)
        return tuple(found)

    def viewing(self, view: Callable[[Any, Role], Any]) -> Callable[[Any, Role], Any]:
        """`view` with every `SecretState` left out of every role's view but the
        referee's (`view` itself unchanged when nothing of the state is secret)."""
        if not self.state or getattr(view, "redactions", None) is self:
            return view
        paths = [declared.path.split(".") for declared in self.state]

        def viewed(state: Any, role: Role) -> Any:
            data = view(state, role)
            if role is not Role.REFEREE:
                for path in paths:
                    _drop(data, path)
            return data

        viewed.redactions = self  # type: ignore[attr-defined]
        viewed.__doc__ = view.__doc__
        return viewed

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


def _drop(data: Any, path: list[str]) -> None:
    """Remove `path` (keys, `*` for every key or item) from nested dicts and lists."""
    head, rest = path[0], path[1:]
    if head == "*":
        items = list(data.values()) if isinstance(data, dict) else data
        if isinstance(items, list):
            for item in items:
                if rest:
                    _drop(item, rest)
        return
    if not isinstance(data, dict) or head not in data:
        return
    if rest:
        _drop(data[head], rest)
    else:
        del data[head]
