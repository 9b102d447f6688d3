"""Standalone JSON Schemas of commands and setups, built from their msgspec types.

msgspec gives a schema with `$ref`s into shared `$defs`; here every reference is inlined,
so each schema stands alone: a front end makes a form of it, and an error message walks
it, without a second lookup. A command's tag becomes a `const` (it is fixed for that
command). docs/schemas/ holds them per ruleset (`python -m umpire.engine.schemas`).
"""

from __future__ import annotations

import copy
import enum
from collections.abc import Mapping
from functools import cache
from typing import Any

import msgspec
from msgspec import Struct
from msgspec import inspect as type_info

from umpire.events.schema_check import accepts as accepts
from umpire.events.schema_descriptions import cleaned_descriptions

Schema = dict[str, Any]


@cache
def tag_of(command_type: type[Struct]) -> str:
    """A command type's wire tag (the `type` field its JSON carries)."""
    return str(command_type.__struct_config__.tag)


def inline_refs(node: Any, defs: Mapping[str, Any]) -> Any:
    """`node` with every `#/$defs/<name>` reference replaced by a copy of its definition.

    Commands and setups hold no recursive types, so inlining ends."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            target = inline_refs(defs[ref.removeprefix("#/$defs/")], defs)
            rest = {k: inline_refs(v, defs) for k, v in node.items() if k != "$ref"}
            return {**target, **rest}
        return {k: inline_refs(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [inline_refs(v, defs) for v in node]
    return node


def _enums(struct_type: type[Struct]) -> dict[str, type[enum.Enum]]:
    """The enum types a struct's fields use, anywhere below it, by class name."""
    found: dict[str, type[enum.Enum]] = {}
    seen: set[int] = set()

    def walk(node: Any) -> None:
        if id(node) in seen:
            return
        seen.add(id(node))
        if isinstance(node, type_info.EnumType):
            found[node.cls.__name__] = node.cls
        for name in ("fields", "types", "item_type", "key_type", "value_type", "item_types"):
            below = getattr(node, name, None)
            for one in below if isinstance(below, tuple) else (below,):
                if one is not None:
                    walk(getattr(one, "type", one))

    walk(type_info.type_info(struct_type))
    return found


def _in_declared_order(defs: dict[str, Any], struct_type: type[Struct]) -> None:
    """Enum values in the order their type declares them, as the game orders its terms
    (altitude bands lowest first, pilot quality worst to best): msgspec lists them sorted
    alphabetically, and forms and `umpire actions` show choices in the schema's order."""
    for name, cls in _enums(struct_type).items():
        node = defs.get(name)
        values = [member.value for member in cls]
        if isinstance(node, dict) and sorted(node.get("enum", ()), key=str) == sorted(
            values, key=str
        ):
            node["enum"] = values


@cache
def _cached(struct_type: type[Struct]) -> Schema:
    (ref,), defs = msgspec.json.schema_components([struct_type], ref_template="#/$defs/{name}")
    defs = cleaned_descriptions(defs)
    _in_declared_order(defs, struct_type)
    schema: Schema = inline_refs(ref, defs)
    if struct_type.__struct_config__.tag is not None:
        schema["properties"]["type"] = {"const": tag_of(struct_type)}
    return schema


def shared_schema(struct_type: type[Struct]) -> Schema:
    """The standalone JSON Schema of a command or setup type, shared: read it, never
    mutate it (engine/actions.py builds narrowed copies along the merged paths only)."""
    return _cached(struct_type)


def struct_schema(struct_type: type[Struct]) -> Schema:
    """The standalone JSON Schema of a command or setup type (a fresh copy, safe to edit)."""
    return copy.deepcopy(_cached(struct_type))


def ruleset_document(
    name: str,
    version: str,
    title: str,
    seed: str,
    setup_type: type[Struct],
    command_types: tuple[type[Struct], ...],
) -> Schema:
    """One ruleset's published schema: its setup and every command it accepts (universal
    ones included), each standalone and unnarrowed (the legal actions narrow them per
    state). The file docs/schemas/<name>.schema.json holds exactly this."""
    commands = {tag_of(t): struct_schema(t) for t in command_types}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"umpire ruleset {name} v{version}: setup and commands",
        "description": f"{title} (seed {seed}). A command is any one of `commands`.",
        "ruleset": name,
        "version": version,
        "setup": struct_schema(setup_type),
        "commands": {tag: commands[tag] for tag in sorted(commands)},
    }
