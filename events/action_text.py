"""A legal action in words, for `umpire actions` (server/actions_command.py) and `umpire
play`'s `help TYPE` (clients/cli.py): here in events/, since clients import nothing else.

Every field with its type and what it accepts, enum values by their names (the schema as
the wire carries it, never a Python repr), list items with their own fields, every case
of a choice (`anyOf`: the fields all cases share once, then what each case sets), and an
"e.g." command built from the schema alone that `umpire send` accepts as printed, both as
JSON and as words (events/command_words.py). Long
enumerations are summarised (`any of 2,000 hexes; see --json`).
"""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec

from umpire.events.command_words import words_for
from umpire.events.schema_check import accepts
from umpire.events.wire import Action

# An enum longer than this is summarised; the whole list is in `umpire actions --json`.
MOST_VALUES = 12
_HEX = re.compile(r"^\d{4}$")

Schema = dict[str, Any]


def as_wire(action: Action) -> Schema:
    """The action's schema as a client receives it: plain JSON values."""
    schema: Schema = msgspec.json.decode(msgspec.json.encode(action.schema))
    return schema


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _default(field: Schema) -> str:
    """An optional field's default as typed (`count=1`, `exit=false`), but "none" for no
    value or an empty list, where its JSON (`null`, `[]`) would be all a newcomer reads."""
    value = field.get("default")
    return "none" if value is None or value == [] else _json(value)


def _name(value: Any) -> str:
    """A value by its name: a string bare, anything else as JSON."""
    return value if isinstance(value, str) else _json(value)


def _enum(values: list[Any]) -> str:
    if len(values) == 1:
        return f"{_name(values[0])} (the only choice)"
    if len(values) > MOST_VALUES:
        if all(isinstance(v, str) and _HEX.match(v) for v in values):
            return f"any of {len(values):,} hexes, e.g. {values[0]}; see --json"
        if all(isinstance(v, list) for v in values):
            return f"any of {len(values):,} lists, e.g. {_json(values[-1])}; see --json"
        shown = ", ".join(_name(v) for v in values[:MOST_VALUES])
        return f"one of {shown}, … ({len(values):,} values; see --json)"
    return "one of " + ", ".join(_name(v) for v in values)


def _bounds(node: Schema, low_key: str, high_key: str) -> str:
    low, high = node.get(low_key), node.get(high_key)
    if low is not None and high is not None:
        return f"{low}..{high}" if low != high else f"exactly {low}"
    if low is not None:
        return f"at least {low}"
    if high is not None:
        return f"at most {high}"
    return ""


def _once(node: Schema) -> list[str]:
    """The fields an array's `allOf` of maxContains keeps to one item each."""
    keys: list[str] = []
    for part in node.get("allOf", ()):
        for key in part.get("contains", {}).get("properties", {}):
            if part.get("maxContains") == 1 and key not in keys:
                keys.append(key)
    return keys


def kind(node: Schema) -> str:
    """A field's type and what it accepts, in one line (a list's or an object's fields
    follow on their own lines, `fields`)."""
    if "const" in node:
        return f"{_name(node['const'])} (fixed)"
    if "enum" in node:
        return _enum(node["enum"])
    if "anyOf" in node:
        return " or ".join(kind({**_rest(node), **case}) for case in node["anyOf"])
    t = node.get("type")
    if t in ("integer", "number"):
        bounds = _bounds(node, "minimum", "maximum")
        return f"{t} {bounds}".strip()
    if t == "string":
        text = "text"
        length = _bounds(node, "minLength", "maxLength")
        if length:
            text += f" of {length} characters"
        if "pattern" in node:
            text += f" matching {node['pattern']}"
        return text
    if t == "boolean":
        return "true or false"
    if t == "null":
        return "null"
    if t == "array" and "prefixItems" in node:
        parts = "; ".join(kind(item) for item in node["prefixItems"])
        return f"a list of exactly {len(node['prefixItems'])}: {parts}"
    if t == "array":
        count = _bounds(node, "minItems", "maxItems")
        if node.get("maxItems") == 0:
            return "an empty list (nothing may be listed now)"
        text = f"a list of {count} items" if count else "a list"
        text = text.replace(" exactly 1 items", " exactly 1 item")
        items = node.get("items", {})
        items = items if isinstance(items, dict) else {}
        extra = []
        if node.get("uniqueItems"):
            extra.append("no item twice")
        once = _once(node)
        if once:
            extra.append("each " + " and each ".join(once) + " at most once")
        if extra:
            text += f" ({'; '.join(extra)})"
        if _is_object(items):
            return text + ", each with:"
        return f"{text}, each {kind(items)}" if items else text
    if _is_object(node):
        return "an object with:"
    return "any value"


def _is_number(node: Schema) -> bool:
    return node.get("type") in ("integer", "number") and "enum" not in node and "const" not in node


def _rest(node: Schema) -> Schema:
    return {k: v for k, v in node.items() if k != "anyOf"}


def _is_object(node: Schema) -> bool:
    return (
        node.get("type") == "object"
        or "properties" in node
        or ("anyOf" in node and all(_is_object({**_rest(node), **c}) for c in node["anyOf"]))
    )


def fields(node: Schema, indent: str) -> list[str]:
    """Each property of an object schema: `name: type and values`, its default when
    optional, and the fields of its list items or objects below it."""
    lines: list[str] = []
    required = set(node.get("required", ()))
    for name, field in node.get("properties", {}).items():
        if name == "type":
            continue
        optional = "" if name in required else f" (optional, default {_default(field)})"
        # A number's meaning is in its description (Nightfighter's facing: "0 N, 1 NE, ...").
        said = f" ({field['description']})" if _is_number(field) and "description" in field else ""
        lines.append(f"{indent}{name}{optional}: {kind(field)}{said}")
        lines += _below(field, indent + "    ")
    return lines


def _below(field: Schema, indent: str) -> list[str]:
    """The lines under a field: its list items' or its own fields, every case shown."""
    if field.get("type") == "array" and field.get("maxItems") != 0:
        items = field.get("items", {})
        ok = isinstance(items, dict) and "prefixItems" not in field
        return _below_object(items, indent) if ok and _is_object(items) else []
    if _is_object(field) and "enum" not in field and "const" not in field:
        return _below_object(field, indent)
    return []


def _below_object(node: Schema, indent: str) -> list[str]:
    if "anyOf" not in node:
        return fields(node, indent)
    lines = []
    for n, case in enumerate(node["anyOf"], start=1):
        lines.append(f"{indent}case {n}:")
        lines += fields(_merged(_rest(node), case), indent + "    ")
    return lines


def _merged(base: Any, over: Any) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        return {**base, **{k: _merged(base.get(k), v) for k, v in over.items()}}
    return over


def render(action: Action) -> list[str]:
    """An action as plain lines: the command and its description, its fields (every case
    of a choice), and an example command that `umpire send` accepts as printed."""
    schema = as_wire(action)
    lines = [f"{action.type}  {action.description}"]
    if action.next:  # as the table marks it: the step the rules' sequence of play takes now
        lines.append("    the next step in the rules' sequence of play")
    cases = schema.get("anyOf")
    if not cases:
        lines += fields(schema, "    ")
    else:
        lines += _cases(cases)
    if "not" in schema:
        lines.append("    but not one that restates the game as it stands: it would change nothing")
    shape = cases[0] if cases else schema
    command = example({**shape, "not": schema["not"]} if "not" in schema else shape)
    lines.append(f"    e.g. {_json(command)}")
    lines.append(f"    or, as words: {words_for(action.type, shape, command)}")
    return lines


def field_names(action: Action) -> tuple[list[str], list[str]]:
    """The fields an action takes, required then optional, in order, across every case of
    a choice (a field some case requires counts as required): `umpire play`'s `help` names
    them on one line, where `help TYPE` gives `render`'s whole account."""
    schema = as_wire(action)
    cases = schema.get("anyOf") or [schema]
    required: list[str] = []
    optional: list[str] = []
    for case in cases:
        needed = set(case.get("required", ()))
        for name, field in case.get("properties", {}).items():
            if name == "type" or name in required:
                continue
            if name not in needed and "const" in field:
                continue  # optional and fixed now (`cards`: [] alone): nothing to fill
            if name in needed:
                required.append(name)
                if name in optional:
                    optional.remove(name)
            elif name not in optional:
                optional.append(name)
    return required, optional


def _cases(cases: list[Schema]) -> list[str]:
    """The fields every case shares once, then each case with the fields it sets."""
    names = list(cases[0].get("properties", {}))
    shared = [
        n for n in names if all(c.get("properties", {}).get(n) == cases[0]["properties"][n]
                                for c in cases)
    ]  # fmt: skip
    lines = []
    common = {**cases[0], "properties": {n: cases[0]["properties"][n] for n in shared}}
    lines += fields(common, "    ")
    lines.append(f"    and one of {len(cases)} cases:")
    for n, case in enumerate(cases, start=1):
        own = {k: v for k, v in case.get("properties", {}).items() if k not in shared}
        lines.append(f"    case {n}:")
        lines += fields({**case, "properties": own}, "        ") or ["        (nothing more)"]
    return lines


def example(node: Schema) -> Any:
    """A value `node` accepts, built from the schema alone: the first allowed value of
    each required field (an object's optional fields are left out). Under a `not` (a
    command that would change nothing, issue 41 item 8), the first of those, then of the
    values with one field given otherwise, that the `not` leaves in."""
    if "not" in node:
        rest = {k: v for k, v in node.items() if k != "not"}
        shapes = (
            [_merged(_rest(rest), case) for case in rest["anyOf"]] if "anyOf" in rest else [rest]
        )
        for value in (value for shape in shapes for value in _examples(shape)):
            if not accepts(node["not"], value):
                return value
        return example(rest)
    if "const" in node:
        return node["const"]
    if "enum" in node:
        return node["enum"][0]
    if "anyOf" in node:
        return example(_merged(_rest(node), node["anyOf"][0]))
    t = node.get("type")
    if t in ("integer", "number"):
        low: float = node["minimum"] if "minimum" in node else node.get("default", 0)
        return max(low, 0) if node.get("maximum", max(low, 0)) >= max(low, 0) else low
    if t == "string":
        return _example_text(node)
    if t == "boolean":
        return bool(node.get("default", False))
    if t == "null":
        return None
    if t == "array" and "prefixItems" in node:
        return [example(item) for item in node["prefixItems"]]
    if t == "array":
        items = node.get("items", {})
        items = items if isinstance(items, dict) else {}
        count = int(node.get("minItems", 0))
        if count and "enum" in items and node.get("uniqueItems"):
            return items["enum"][:count]
        return [example(items) for _ in range(count)]
    if _is_object(node):
        required = node.get("required", ())
        return {
            name: example(field)
            for name, field in node.get("properties", {}).items()
            if name in required
        }
    return None


def _examples(node: Schema) -> list[Any]:
    """The plain example, then the same with one field given another allowed value (one
    more list item, the last of an enum, the maximum), for an object; else the example."""
    plain = example(node)
    if not isinstance(plain, dict):
        return [plain]
    out = [plain]
    for name, field in node.get("properties", {}).items():
        other = _other(field)
        if other is not _NONE:
            out.append({**plain, name: other})
    return out


_NONE = object()


def _other(field: Schema) -> Any:
    """An allowed value of `field` other than its example, where one is easy to name."""
    if "enum" in field and len(field["enum"]) > 1:
        return field["enum"][-1]
    if field.get("type") == "array" and "prefixItems" not in field:
        return [example(field.get("items", {})) for _ in range(int(field.get("minItems", 0)) + 1)]
    if field.get("type") == "integer" and "maximum" in field:
        return field["maximum"]
    if field.get("type") == "boolean":
        return not bool(field.get("default", False))
    return _NONE


def _example_text(node: Schema) -> str:
    low = int(node.get("minLength", 1))
    pattern = node.get("pattern")
    for text in ("x" * max(low, 1), "0101", "1" * max(low, 1), "a" * max(low, 1)):
        if pattern is None or re.search(pattern, text):
            return text
    return "x" * max(low, 1)
