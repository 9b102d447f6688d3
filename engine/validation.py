"""What a rejected field allows: msgspec's validation messages, completed from the schema.

msgspec says what was wrong and where (`Invalid enum value 'x' - at $.early_warning`) but
not what would have been right. `allowed` walks the command's or setup's JSON Schema to
the field the error names and says what it accepts (the enum's values, the bounds, the
pattern, the fields an object knows), so every refusal names what is allowed.
"""

from __future__ import annotations

import re
from typing import Any

_AT = re.compile(r" - at `\$(?P<path>[^`]*)`$")
_STEP = re.compile(r"\.(?P<name>[A-Za-z_][A-Za-z0-9_]*)|\[(?P<index>[^\]]*)\]")
_UNKNOWN = re.compile(r"unknown field `(?P<name>[^`]*)`")


def _options(node: dict[str, Any]) -> list[dict[str, Any]]:
    """The alternatives of a node (`anyOf`), or the node itself."""
    alternatives = node.get("anyOf")
    if isinstance(alternatives, list):
        return [a for a in alternatives if isinstance(a, dict)]
    return [node]


def _child(node: dict[str, Any], name: str | None, index: str | None) -> dict[str, Any] | None:
    for option in _options(node):
        if name is not None and name in option.get("properties", {}):
            found: dict[str, Any] = option["properties"][name]
            return found
        if index is not None and isinstance(option.get("items"), dict):
            items: dict[str, Any] = option["items"]
            return items
        if index is not None and isinstance(option.get("additionalProperties"), dict):
            values: dict[str, Any] = option["additionalProperties"]
            return values
    return None


def _walk(schema: dict[str, Any], path: str) -> dict[str, Any] | None:
    node: dict[str, Any] | None = schema
    for step in _STEP.finditer(path):
        if node is None:
            return None
        node = _child(node, step.group("name"), step.group("index"))
    return node


def _bounds(low: Any, high: Any, unit: str = "") -> str | None:
    if low is not None and high is not None:
        return f"{low} to {high}{unit}"
    if low is not None:
        return f"at least {low}{unit}"
    if high is not None:
        return f"at most {high}{unit}"
    return None


def _values(values: list[Any], most: int | None) -> str:
    if most is None or len(values) <= most:
        return ", ".join(repr(v) for v in values)
    shown = ", ".join(repr(v) for v in values[: most - 1])
    return f"{shown}, … {values[-1]!r} ({len(values)} values)"


def describe(node: dict[str, Any], most: int | None = None) -> str | None:
    """What one schema node accepts, in words; None when it says nothing useful. `most`
    shortens a long enum to its first values and its last."""
    parts: list[str] = []
    for option in _options(node):
        if "const" in option:
            parts.append(repr(option["const"]))
        elif "enum" in option:
            parts.append("one of " + _values(option["enum"], most))
        elif option.get("type") == "integer" or option.get("type") == "number":
            low = option.get("minimum", option.get("exclusiveMinimum"))
            high = option.get("maximum", option.get("exclusiveMaximum"))
            parts.append(_bounds(low, high) or option["type"])
        elif option.get("type") == "string":
            text = "a string"
            length = _bounds(option.get("minLength"), option.get("maxLength"), " characters")
            if length:
                text += f" of {length}"
            if "pattern" in option:
                text += f" matching {option['pattern']}"
            parts.append(text)
        elif option.get("type") == "array":
            count = _bounds(option.get("minItems"), option.get("maxItems"), " items")
            parts.append(f"a list of {count}" if count else "a list")
        elif option.get("type") == "object" and "properties" in option:
            parts.append("an object with fields " + ", ".join(option["properties"]))
        elif option.get("type") in ("null", "boolean"):
            parts.append(str(option["type"]))
    return " or ".join(parts) if parts else None


def allowed(message: str, schema: dict[str, Any]) -> str | None:
    """What the field named in a msgspec validation `message` allows (None if unknown)."""
    at = _AT.search(message)
    path = at.group("path") if at else ""
    node = _walk(schema, path)
    if node is None:
        return None
    if _UNKNOWN.search(message):
        fields = [f for o in _options(node) for f in o.get("properties", {})]
        return "known fields: " + ", ".join(f for f in fields if f != "type") if fields else None
    if not path:
        return None
    return describe(node)


def explained(message: str, schema: dict[str, Any]) -> str:
    """A msgspec validation message with what is allowed appended, where the schema says."""
    extra = allowed(message, schema)
    return f"{message}; allowed: {extra}" if extra else message
