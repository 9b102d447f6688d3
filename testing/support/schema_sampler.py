"""Random values that a JSON Schema accepts: how the legal-action tests fill a command's
fields from nothing but its published schema, the way a front end that read no source
would. Covers what engine/schemas.py emits: const, enum, integers with bounds, strings
with lengths and the identifier and hex patterns, booleans, null, arrays (uniqueItems,
and allOf of contains/maxContains: "each value at most once"), objects, anyOf, not. `accepts`
checks a value against the same subset. A pattern it cannot satisfy is an error: that
field should have been narrowed.
"""

from __future__ import annotations

import random
import re
import string
from typing import Any

# `accepts` is the engine's (engine/schemas.py): `umpire actions` builds its examples with it.
from umpire.engine.schemas import accepts as accepts


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


def sample(schema: dict[str, Any], rng: random.Random) -> Any:
    """A random value that `schema` accepts."""
    if "not" in schema:
        # What the rest allows, drawn again while it is what `not` leaves out (a report
        # that restates the game as it stands, issue 41 item 8).
        rest = {k: v for k, v in schema.items() if k != "not"}
        for _ in range(50):
            value = sample(rest, rng)
            if not accepts(schema["not"], value):
                return value
        raise ValueError(f"cannot draw a value outside {schema['not']!r}")
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
