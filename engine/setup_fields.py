"""A setup field that its ruleset's setup type does not have, found at creation.

A ruleset's setup type may let msgspec drop fields it does not know (a Struct without
`forbid_unknown_fields`: nightfighter's and down_in_flames' setups, the example rulesets').
A misspelt field was then dropped without a word and the game started from the field's
default (`{"visbility": "dark"}` made a game in clear weather; red team, 2026-11-29), where
every message and command field names a typo (docs/protocol.md). So a new game's setup is
walked along its type, and the first field no struct on the way declares is refused
(engine/scenarios.py `validate_setup`), at any depth: inside lists, dicts and tagged
unions. Only new games: a logged GameCreated is folded as it was written.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from msgspec import inspect


def unknown_field(setup_type: Any, value: Any) -> tuple[str, str] | None:
    """The first field of `value` (a setup as sent, already converted without error to
    `setup_type`) that its type does not declare, as (field, path of its object), or
    None."""
    return _walk(_type_info(setup_type), value, "$")


@cache
def _type_info(setup_type: Any) -> inspect.Type:
    """msgspec's description of a setup type, made once per type: it walks every
    annotation of every Struct on the way (~1.4 ms for Downtown's setup), where a game's
    creation needs only to read it. A setup type is a class fixed at import, and the
    description a pure function of it, so the memo changes no answer."""
    return inspect.type_info(setup_type)


def _walk(info: inspect.Type, value: Any, path: str) -> tuple[str, str] | None:
    if isinstance(info, inspect.Metadata):
        return _walk(info.type, value, path)
    if isinstance(info, inspect.StructType):
        return _struct(info, value, path)
    if isinstance(info, inspect.UnionType):
        member = _member(info, value)
        return _walk(member, value, path) if member is not None else None
    if isinstance(info, inspect.DictType | inspect.FrozenDictType) and isinstance(value, dict):
        for key, item in value.items():
            found = _walk(info.value_type, item, f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(info, inspect.TupleType) and isinstance(value, list):
        for i, (item_type, item) in enumerate(zip(info.item_types, value, strict=False)):
            found = _walk(item_type, item, f"{path}[{i}]")
            if found:
                return found
        return None
    if isinstance(info, inspect.CollectionType) and isinstance(value, list):
        for i, item in enumerate(value):
            found = _walk(info.item_type, item, f"{path}[{i}]")
            if found:
                return found
    return None


def _struct(info: inspect.StructType, value: Any, path: str) -> tuple[str, str] | None:
    if not isinstance(value, dict):
        return None
    fields = {f.encode_name: f for f in info.fields}
    for key, item in value.items():
        if key == info.tag_field:
            continue
        field = fields.get(key)
        if field is None:
            return key, path
        found = _walk(field.type, item, f"{path}.{key}")
        if found:
            return found
    return None


def _member(info: inspect.UnionType, value: Any) -> inspect.Type | None:
    """The union member a dict `value` was converted to: the struct its tag names, or the
    one struct (or dict) member; None where the value is no object."""
    if not isinstance(value, dict):
        return None
    bare = [t.type if isinstance(t, inspect.Metadata) else t for t in info.types]
    objects = [t for t in bare if isinstance(t, inspect.StructType | inspect.DictType)]
    tagged = [t for t in objects if isinstance(t, inspect.StructType) and t.tag_field is not None]
    for t in tagged:
        assert isinstance(t, inspect.StructType)
        if value.get(t.tag_field) == t.tag:
            return t
    return objects[0] if len(objects) == 1 else None
