"""What a rejected field allows: msgspec's validation messages, completed from the schema.

msgspec says what was wrong and where (`Invalid enum value 'x' - at $.early_warning`) but
not what would have been right. `allowed` walks the command's or setup's JSON Schema to
the field the error names and says what it accepts (the enum's values, the bounds, the
pattern, the fields an object knows), so every refusal names what is allowed.

`in_words` says the same for a player (a refused command, shown by the table and `umpire
send` as it is): the field and the values by their words (the ruleset's labels, else the
code's words: "flight_id" -> "flight id"), never a code (testing/contract/test_words.py).
"""

from __future__ import annotations

import re
from typing import Any

from umpire.engine.kit.labels import Labels

_AT = re.compile(r" - at `\$(?P<path>[^`]*)`$")
_STEP = re.compile(r"\.(?P<name>[A-Za-z_][A-Za-z0-9_]*)|\[(?P<index>[^\]]*)\]")
_UNKNOWN = re.compile(r"unknown field `(?P<name>[^`]*)`")
_TICKED = re.compile(r"`(?P<name>[^`]*)`")
_REGEX = re.compile(r" matching regex '.*'")
_ENUM = re.compile(r"^Invalid enum value (?P<value>.*)$")
_MISSING = re.compile(r"^Object missing required field `(?P<name>[^`]*)`")
_WORD_LIST = re.compile(r"^\^\((?P<words>[\w|]+)\)\$$")  # ^(ok|damaged|written_off)$
# msgspec's names of JSON types, as a player says them.
_KINDS = {
    "str": "text", "int": "a whole number", "float": "a number", "bool": "true or false",
    "array": "a list", "object": "a record", "null": "nothing",
}  # fmt: skip


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


def field_words(name: str) -> str:
    """A field by its words, as `umpire actions` names it less the underscores: the field a
    player fills, recognisable, never the code."""
    return name.replace("_", " ")


def _words(node: dict[str, Any], labels: Labels, field: str) -> str | None:
    """What one schema node accepts, in words: an enumeration's values (and a pattern
    that lists words) by the ruleset's names for them, a record's fields by their words."""
    parts: list[str] = []
    for option in _options(node):
        values = option.get("enum")
        listed = _WORD_LIST.match(str(option.get("pattern", "")))
        if "const" in option:
            parts.append(labels.words(field, option["const"]))
        elif isinstance(values, list):
            parts.append("one of " + ", ".join(labels.words(field, v) for v in values))
        elif listed is not None:
            names = listed.group("words").split("|")
            parts.append("one of " + ", ".join(labels.words(field, v) for v in names))
        elif option.get("type") == "object" and "properties" in option:
            fields = [field_words(f) for f in option["properties"] if f != "type"]
            parts.append("a record with " + ", ".join(fields))
        else:
            said = describe(option)
            if said is not None and _coded(option):
                # A number that stands for something says what (Nightfighter's facing:
                # "0 N, 1 NE, ..."), as `umpire actions` does: "0 to 5" alone is a code.
                said += f" ({option['description']})"
            if said is not None:
                parts.append(said)
    return " or ".join(parts) if parts else None


def _coded(node: dict[str, Any]) -> bool:
    """A number whose description says what its values stand for."""
    return node.get("type") in ("integer", "number") and "description" in node


def _takes(node: dict[str, Any]) -> str:
    """The fields a record takes by their words, required first: "fighter, path, facing;
    optional: exit"."""
    properties = [f for o in _options(node) for f in o.get("properties", {}) if f != "type"]
    required = {f for o in _options(node) for f in o.get("required", ())}
    needed = [field_words(f) for f in dict.fromkeys(properties) if f in required]
    optional = [field_words(f) for f in dict.fromkeys(properties) if f not in required]
    said = ", ".join(needed)
    return said + (f"; optional: {', '.join(optional)}" if optional else "")


def _where(path: str) -> tuple[str, str]:
    """A msgspec path (`$.flights[0].altitude`) in words ("flights, item 1, altitude") and
    the name of the field it ends in ("" for none)."""
    said: list[str] = []
    field = ""
    for step in _STEP.finditer(path):
        if step.group("name") is not None:
            field = step.group("name")
            said.append(field_words(field))
        elif step.group("index").isdigit():
            said.append(f"item {int(step.group('index')) + 1}")
        else:
            said.append(f"key {step.group('index')}")
    return ", ".join(said), field


def _ticked(match: re.Match[str]) -> str:
    """A name msgspec quotes: a JSON type ("`int | null`"), else a field."""
    name = match.group("name")
    kinds = [k.strip() for k in name.split("|")]
    if all(k in _KINDS for k in kinds):
        return " or ".join(_KINDS[k] for k in kinds)
    return field_words(name)


def in_words(message: str, schema: dict[str, Any], labels: Labels) -> str:
    """A msgspec validation `message` for a player: where, what was wrong and what is
    allowed, every field and value by its words (module docstring)."""
    at = _AT.search(message)
    path = at.group("path") if at else ""
    what = message[: at.start()] if at else message
    missing = _MISSING.match(what)
    if missing is not None:
        # msgspec's "Object missing required field `facing`": the field by its words, and
        # every field the record takes, so the player can give them all at once.
        where, _ = _where(path)
        node = _walk(schema, path)
        text = f"{field_words(missing.group('name'))} is missing"
        text = f"{where}: {text}" if where else text
        takes = _takes(node) if node is not None else ""
        return f"{text}; it takes {takes}" if takes else text
    what = _TICKED.sub(_ticked, _REGEX.sub("", what))
    what = _ENUM.sub(r"\g<value> is not one of its values", what)
    where, field = _where(path)
    text = f"{where}: {what[:1].lower()}{what[1:]}" if where else what
    node = _walk(schema, path)
    if node is None:
        return text
    if _UNKNOWN.search(message):
        fields = [field_words(f) for o in _options(node) for f in o.get("properties", {})
                  if f != "type"]  # fmt: skip
        return f"{text}; known fields: {', '.join(fields)}" if fields else text
    extra = _words(node, labels, field) if path else None
    return f"{text}; allowed: {extra}" if extra else text


def explained(message: str, schema: dict[str, Any]) -> str:
    """A msgspec validation message with what is allowed appended, where the schema says."""
    extra = allowed(message, schema)
    return f"{message}; allowed: {extra}" if extra else message
