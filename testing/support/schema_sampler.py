"""Random values that a JSON Schema accepts: how the legal-action tests fill a command's
fields from nothing but its published schema, the way a front end that read no source
would. Covers what engine/schemas.py emits: const, enum, integers with bounds, strings
with lengths and the identifier and hex patterns, booleans, null, arrays (uniqueItems,
and allOf of contains/maxContains: "each value at most once"), objects, anyOf, and `not`
(a command that would change nothing, left out: drawn again). `accepts`
checks a value against the same subset. A pattern it cannot satisfy is an error: that
field should have been narrowed.
"""

from __future__ import annotations

import random
import re
import string
from typing import Any


def _string(schema: dict[str, Any], rng: random.Random) -> str:
    # At least 4 characters where allowed: two free ids drawn for one list (the US flights
    # of a report) then hardly ever collide, a cross-item rule no JSON Schema states.
    low = max(int(schema.get("minLength", 1)), min(4, int(schema.get("maxLength", 12))))
    high = max(low, min(int(schema.get("maxLength", 12)), low + 11))
    pattern = schema.get("pattern")
    choice = re.fullmatch(r"\^\(([\w|]+)\)\$", pattern or "")
    if choice:  # a pattern that is a list of words: ^(ok|damaged)$
        return rng.choice(choice.group(1).split("|"))
    for alphabet in (string.ascii_lowercase, string.digits):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(low, high)))
        if pattern is None or re.search(pattern, text):
            return text
    # Hex labels and other fixed-width codes: try the digit counts the patterns name.
    for width in (4, 3, 2, 1):
        text = "".join(rng.choice(string.digits) for _ in range(width))
        if re.search(pattern, text):
            return text
    raise ValueError(f"cannot make a string matching {pattern!r}: narrow it to an enum")


def _merged(base: Any, over: Any) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        return {**base, **{k: _merged(base.get(k), v) for k, v in over.items()}}
    return over


# Draws of a schema with a `not` before giving up: what it leaves out is one command (the
# state restated, engine/offers.py `restating`), so a second draw almost always differs.
NOT_DRAWS = 50


def sample(schema: dict[str, Any], rng: random.Random) -> Any:
    """A random value that `schema` accepts."""
    if "not" in schema:
        rest = {k: v for k, v in schema.items() if k != "not"}
        for _ in range(NOT_DRAWS):
            value = sample(rest, rng)
            if not accepts(schema["not"], value):
                return value
        raise ValueError(f"no value drawn from {rest!r} escapes its `not` {schema['not']!r}")
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return rng.choice(schema["enum"])
    if "anyOf" in schema:
        # A branch adds to what the schema around it says (the item's type, its fields).
        rest = {k: v for k, v in schema.items() if k != "anyOf"}
        return sample(_merged(rest, rng.choice(schema["anyOf"])), rng)
    kind = schema.get("type")
    if kind == "integer":
        low = int(schema.get("minimum", schema.get("exclusiveMinimum", -1) + 1))
        high = int(schema.get("maximum", schema.get("exclusiveMaximum", low + 11) - 1))
        return rng.randint(low, max(low, high))
    if kind == "number":
        return rng.uniform(float(schema.get("minimum", 0)), float(schema.get("maximum", 10)))
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "string":
        return _string(schema, rng)
    if kind == "array" and "prefixItems" in schema:
        return [sample(item, rng) for item in schema["prefixItems"]]
    if kind == "array":
        low = int(schema.get("minItems", 0))
        high = max(low, min(int(schema.get("maxItems", low + 3)), low + 3))
        items: list[Any] = []
        for _ in range(rng.randint(low, high)):
            # Each item as drawn, unless it breaks the array's own constraints ("each radar
            # once": allOf of maxContains): a few more draws, then a shorter list.
            for _ in range(20):
                item = sample(schema.get("items", {}), rng)
                fresh = not schema.get("uniqueItems") or item not in items
                if fresh and all(accepts(p, [*items, item]) for p in schema.get("allOf", ())):
                    items.append(item)
                    break
        return items
    if kind == "object":
        required = set(schema.get("required", ()))
        out: dict[str, Any] = {}
        for name, field in schema.get("properties", {}).items():
            if name in required or rng.random() < 0.5:
                out[name] = sample(field, rng)
        return out
    raise ValueError(f"cannot sample schema {schema!r}")


def accepts(schema: dict[str, Any], value: Any) -> bool:
    """Whether `value` meets `schema`, for the same subset of JSON Schema that `sample`
    draws from: how a test tells a command the narrowed schema allows from one only the
    command type's full schema allows."""
    if "const" in schema and value != schema["const"]:
        return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if "anyOf" in schema and not any(accepts(s, value) for s in schema["anyOf"]):
        return False
    if "not" in schema and accepts(schema["not"], value):
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
