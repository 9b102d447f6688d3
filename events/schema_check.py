"""Whether a value meets a JSON Schema, for the subset of JSON Schema the legal actions use.

Here, in events/, so that a client describing a legal action (events/action_text.py, as
`umpire play`'s `help TYPE` does) can build an example the schema accepts without the
engine; engine/schemas.py builds the schemas themselves.
"""

from __future__ import annotations

import re
from typing import Any


def accepts(schema: dict[str, Any], value: Any) -> bool:
    """Whether `value` meets `schema`, for the subset of JSON Schema that the legal actions
    use (const, enum, anyOf, allOf, not, types, bounds, lengths, patterns, array sizes,
    uniqueItems, contains, prefixItems, items, required, properties): how `umpire actions`
    keeps its example outside a `not`, and how a test tells a command the narrowed schema
    allows from one only the command type's full schema allows
    (testing/support/schema_sampler.py)."""
    if "not" in schema and accepts(schema["not"], value):
        return False
    if "const" in schema and value != schema["const"]:
        return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if "anyOf" in schema and not any(accepts(s, value) for s in schema["anyOf"]):
        return False
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if kind else []
    if kinds and not any(_is(k, value) for k in kinds):
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            return False
        if "maximum" in schema and value > schema["maximum"]:
            return False
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            return False
        if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
            return False
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0) or len(value) > schema.get("maxLength", 1e9):
            return False
        if "pattern" in schema and not re.search(schema["pattern"], value):
            return False
    if any(not accepts(part, value) for part in schema.get("allOf", ())):
        return False
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", 1e9):
            return False
        if schema.get("uniqueItems") and any(v in value[:i] for i, v in enumerate(value)):
            return False
        if "contains" in schema:
            hits = sum(accepts(schema["contains"], v) for v in value)
            if not schema.get("minContains", 1) <= hits <= schema.get("maxContains", hits):
                return False
        prefix = schema.get("prefixItems", [])
        if any(not accepts(s, v) for s, v in zip(prefix, value, strict=False)):
            return False
        rest = value[len(prefix) :]
        if "items" in schema and not all(accepts(schema["items"], v) for v in rest):
            return False
    if isinstance(value, dict):
        if any(name not in value for name in schema.get("required", ())):
            return False
        properties = schema.get("properties", {})
        for name, field in value.items():
            if name in properties and not accepts(properties[name], field):
                return False
    return True


_PYTHON_TYPES: dict[str, type | tuple[type, ...]] = {
    "string": str,
    "boolean": bool,
    "null": type(None),
    "array": list,
    "object": dict,
    "number": (int, float),
    "integer": int,
}


def _is(kind: str, value: Any) -> bool:
    if isinstance(value, bool) and kind in ("integer", "number"):
        return False
    return isinstance(value, _PYTHON_TYPES.get(kind, object))
