"""A legal action as a ruleset offers it, and the narrowed JSON Schema it is sent with.

Below engine/ruleset.py (which names `Action` in the contract) and engine/actions.py
(which builds and lists them), so that neither imports the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine.schemas import Schema, shared_schema, tag_of
from umpire.events.wire import Action as WireAction


def _merge(base: Any, fragment: Any) -> Any:
    """`fragment` laid over `base`: dicts merge key by key, anything else replaces.

    Builds new dicts only along the merged path; the rest is shared with the cached base
    schema and the fragment (schemas are read, never mutated, once built)."""
    if isinstance(base, dict) and isinstance(fragment, dict):
        merged = dict(base)
        for key, value in fragment.items():
            merged[key] = _merge(base.get(key), value)
        return merged
    return fragment


def command_schema(
    command_type: type[Struct], narrow: Mapping[str, Schema] | None = None
) -> Schema:
    """The standalone JSON Schema of one command type, narrowed field by field.

    `narrow` maps a field name to a schema fragment merged into that field's schema, e.g.
    `{"unit": {"enum": ["P-RIFLE-1"]}}` or `{"searches": {"items": {"properties": ...}}}`
    or `{"amount": {"maximum": 3}}`. A field the type does not have is a programming
    error (KeyError), so a renamed field cannot silently drop its narrowing. A field with a
    default narrowed to values without it becomes required (left out, it would take the
    default, which the narrowing says is not allowed now).
    """
    base = shared_schema(command_type)
    if not narrow:
        return base
    properties = dict(base["properties"])
    required = list(base.get("required", ()))
    for name, fragment in narrow.items():
        if name not in properties:
            raise KeyError(f"{tag_of(command_type)} has no field {name!r}")
        properties[name] = _merge(properties[name], fragment)
        if name not in required and not _allows_default(properties[name]):
            required.append(name)  # left out, it would be its default, which is not allowed
    return {**base, "properties": properties, "required": required}


def _allows_default(field: Any) -> bool:
    """Whether a field's default is among the values its (narrowed) schema allows: an
    optional field narrowed to values without it must be sent."""
    if not isinstance(field, dict) or "default" not in field:
        return True
    default = field["default"]
    if "const" in field and field["const"] != default:
        return False
    if "enum" in field and default not in field["enum"]:
        return False
    if isinstance(default, (list, tuple)) and len(default) < field.get("minItems", 0):
        return False
    if isinstance(default, (int, float)) and not isinstance(default, bool):
        return bool(field.get("minimum", default) <= default <= field.get("maximum", default))
    return True


def restating(command: Struct) -> Schema:
    """The JSON Schema of exactly the commands that read as `command`: each field at its
    value, and sent unless that value is the field's default (left out, a field takes its
    default). A report that restates the state is one of these (issue 41 item 8). The
    `type` tag is not named: the action's own schema fixes it."""
    kind = type(command)
    return sent_as(
        kind,
        {
            f.encode_name: msgspec.to_builtins(getattr(command, f.name))
            for f in msgspec.structs.fields(kind)
        },
    )


def sent_as(kind: type[Struct], values: Mapping[str, Any]) -> Schema:
    """The `kind` commands (or list items) that carry exactly `values` (by wire name; a
    field not named may be anything): each named field its `const`, required unless the
    value is the field's default. `restating` names every field; a report whose
    restatement leaves a field free (Downtown's acquisition at level none, any flight)
    names only the others."""
    defaults = _wire_defaults(kind)
    return {
        "required": [n for n, v in values.items() if n not in defaults or defaults[n] != v],
        "properties": {name: {"const": value} for name, value in values.items()},
    }


@cache
def _wire_defaults(kind: type[Struct]) -> dict[str, Any]:
    """`kind`'s field defaults by wire name, as the wire carries them."""
    out: dict[str, Any] = {}
    for field in msgspec.structs.fields(kind):
        if field.default is not msgspec.NODEFAULT:
            out[field.encode_name] = msgspec.to_builtins(field.default)
        elif field.default_factory is not msgspec.NODEFAULT:
            out[field.encode_name] = msgspec.to_builtins(field.default_factory())
    return out


class Action(Struct, frozen=True):
    """One legal action as a ruleset offers it: the command type, the rule that allows it
    now, a one-line description and the narrowings of its fields (one mapping, or several
    for `offer_each`'s `anyOf`), and what of them it leaves out although the narrowings
    allow it (issue 41 item 8: a whole command that would change nothing now), as one
    `not` on the wire of: `excluded`, whole commands (their `restating` schemas, built
    only here), and `unless`, a schema, where no one command says it (Downtown's report
    of the US side as it stands: the same flights in any order).

    The schema is merged only when the action goes on the wire (`wire`): the command path
    asks for the listed types on every command (engine/handling.py `check_allowed`), and
    merging every narrowed schema there cost as much as the rest of a counter command.
    A frozen Struct, not a frozen dataclass, for the same path: one is built per offered
    action per command, and a frozen dataclass's `__init__` cost ~2 us of it."""

    command_type: type[Struct]
    rule: str
    text: str
    variants: tuple[Mapping[str, Schema], ...] = ()
    excluded: tuple[Struct, ...] = ()
    unless: Schema | None = None
    # The sequence of play's next step (engine/actions.py `as_next`): the rules expect this
    # one now. Set from what the role sees (the phase, what is listed), never a secret.
    next: bool = False

    @property
    def type(self) -> str:
        """The command's tag."""
        return command_tag(self.command_type)

    def wire(self) -> WireAction:
        """The action as clients receive it, with its narrowed JSON Schema."""
        if not self.variants and not self.excluded and self.unless is None:
            plain = _plain_wire(self.command_type, self.rule, self.text)
            return msgspec.structs.replace(plain, next=True) if self.next else plain
        if len(self.variants) <= 1:
            schema = command_schema(self.command_type, self.variants[0] if self.variants else None)
        else:
            schema = {"anyOf": [command_schema(self.command_type, v) for v in self.variants]}
        gone = [restating(command) for command in self.excluded]
        if self.unless is not None:
            gone.append(self.unless)
        if gone:
            schema = {**schema, "not": gone[0] if len(gone) == 1 else {"anyOf": gone}}
        return WireAction(
            type=self.type,
            rule=self.rule,
            description=f"{self.text} ({self.rule})",
            schema=schema,
            next=self.next,
        )


@cache
def command_tag(command_type: type[Struct]) -> str:
    """A command type's tag, read once (`__struct_config__` builds an object per read)."""
    return tag_of(command_type)


@cache
def _plain_wire(command_type: type[Struct], rule: str, text: str) -> WireAction:
    """An unnarrowed action on the wire, built once."""
    return WireAction(
        type=tag_of(command_type),
        rule=rule,
        description=f"{text} ({rule})",
        schema=shared_schema(command_type),
    )
