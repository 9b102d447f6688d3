"""Named scenarios and set-up documents: the ready games a ruleset ships, and the player's own.

A ruleset declares `data_package` (engine/ruleset.py): the `scenarios/` directory of that
package holds one JSON or TOML file per scenario, named after the scenario:

    {"description": "one line", "source": "where it comes from", "sample": false,
     "setup": {... the ruleset's setup type ...}}

`sample` marks data the seed does not give (made-up values standing in for the published
game's); the description and source say so too. Every file is validated through the
ruleset's setup type and `initial_state` when it is listed, so a broken file fails loudly.

The files are read-only data of the ruleset's own package, read like its table modules are
imported; nothing here touches the store, the clock or a random source. A player's own file
(`umpire new RULESET --setup FILE`) is read by the command line and parsed here.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine.errors import InvalidSetup, RuleError
from umpire.engine.ruleset import Ruleset
from umpire.engine.setup_fields import unknown_field
from umpire.events.schema_descriptions import cleaned_descriptions

SUFFIXES = (".json", ".toml")
_PATH_STEP = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+|'[^']*'|\.\.\.)\]")
_AT = re.compile(r" - at `(\$[^`]*)`$")


class Scenario(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One named scenario: what it is, where its data comes from, and its setup."""

    name: str = ""
    description: str
    source: str
    sample: bool = False
    setup: dict[str, Any] = {}


class UnknownScenario(InvalidSetup):
    """No scenario of that name ships with the ruleset."""

    code = "unknown_scenario"


def parse_document(text: str, fmt: str, what: str) -> dict[str, Any]:
    """A JSON or TOML document (`fmt` is "json" or "toml") as a table; InvalidSetup naming
    `what` and the position of the first syntax error otherwise."""
    if fmt == "toml":
        # Imported here: tomllib imports datetime (for TOML's date values; no clock is
        # read), which engine modules may not import (tests/engine/test_purity.py).
        import tomllib

        try:
            data: Any = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise InvalidSetup(f"{what} is not valid TOML: {exc}") from exc
        except RecursionError:
            raise InvalidSetup(f"{what} nests arrays or tables too deeply") from None
        except ValueError as exc:  # an integer of more digits than Python converts
            raise InvalidSetup(f"{what} is not a setup: {exc}") from None
    else:
        try:
            data = json.loads(text, object_pairs_hook=_once_each(what))
        except json.JSONDecodeError as exc:
            raise InvalidSetup(
                f"{what} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
            ) from exc
        except RecursionError:
            raise InvalidSetup(f"{what} nests arrays or objects too deeply") from None
        except ValueError as exc:  # an integer of more digits than Python converts
            raise InvalidSetup(f"{what} is not a setup: {exc}") from None
    if not isinstance(data, dict):
        raise InvalidSetup(f"{what} must be a JSON object (or a TOML table) of setup fields")
    return data


def _once_each(what: str) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    """A JSON object's pairs as a dict, or InvalidSetup for a key given twice: which of
    the two values counts is each parser's choice (TOML refuses a repeat itself)."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: set[str] = set()
        for key, _ in items:
            if key in seen:
                raise InvalidSetup(f"{what} gives the field {key[:64]!r} twice in one object")
            seen.add(key)
        return dict(items)

    return pairs


def format_of(filename: str) -> str:
    """ "json" or "toml" by the file name; InvalidSetup for any other suffix."""
    for suffix in SUFFIXES:
        if filename.lower().endswith(suffix):
            return suffix[1:]
    raise InvalidSetup(f"{filename!r}: a setup file must end in .json or .toml")


@cache
def scenarios(ruleset: Ruleset[Any]) -> tuple[Scenario, ...]:
    """Every scenario the ruleset ships, sorted by name; each validated by the ruleset."""
    if not ruleset.data_package:
        return ()
    # The package's own folder (not importlib.resources: it imports tempfile, and so
    # random, which engine modules may not import).
    package_file = importlib.import_module(ruleset.data_package).__file__
    if package_file is None:
        return ()
    folder = Path(package_file).parent / "scenarios"
    if not folder.is_dir():
        return ()
    found: list[Scenario] = []
    for entry in sorted(folder.iterdir(), key=lambda e: _natural(e.name)):
        if not entry.name.endswith(SUFFIXES):
            continue
        stem, fmt = entry.name.rsplit(".", 1)
        what = f"scenario file {ruleset.name}/scenarios/{entry.name}"
        data = parse_document(entry.read_text(encoding="utf-8"), fmt, what)
        try:
            scenario = msgspec.convert(data, Scenario)
        except msgspec.ValidationError as exc:
            raise InvalidSetup(f"{what}: {exc}") from exc
        if scenario.name not in ("", stem):
            raise InvalidSetup(f"{what}: its name {scenario.name!r} differs from the file's")
        scenario = msgspec.structs.replace(scenario, name=stem)
        try:
            ruleset.initial_state(validate_setup(ruleset, scenario.setup))
        except (InvalidSetup, RuleError) as exc:
            raise InvalidSetup(f"{what}: {exc}") from exc
        found.append(scenario)
    return tuple(found)


def _natural(name: str) -> tuple[tuple[int, int | str], ...]:
    """D2 before D10: digit runs compare as numbers."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part.lower())
        for part in re.findall(r"\d+|\D+", name)
    )


def scenario(ruleset: Ruleset[Any], name: str) -> Scenario:
    """The scenario called `name` (case-insensitive), or UnknownScenario listing them all."""
    shipped = scenarios(ruleset)
    for each in shipped:
        if each.name.lower() == str(name).lower():
            return each
    names = [s.name for s in shipped]
    raise UnknownScenario(
        f"{ruleset.name} has no scenario {str(name)[:40]!r}; "
        + (f"its scenarios: {', '.join(names)}" if names else "it ships no scenarios"),
        scenario=str(name)[:40],
        available=names,
    )


def default_setup(ruleset: Ruleset[Any]) -> dict[str, Any]:
    """The setup `umpire new RULESET` starts with no options: the default scenario's."""
    if not ruleset.default_scenario:
        return {}
    return dict(scenario(ruleset, ruleset.default_scenario).setup)


def resolve(
    ruleset: Ruleset[Any], setup: dict[str, Any] | None, scenario_name: str | None
) -> dict[str, Any]:
    """The setup of a new game: the scenario's (when named) with the given setup's
    top-level fields laid over it, or the given setup alone."""
    given = dict(setup or {})
    if scenario_name is None:
        return given
    return {**scenario(ruleset, scenario_name).setup, **given}


def setup_file(
    ruleset: Ruleset[Any], text: str, filename: str, base: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A player's own setup file (JSON or TOML by its name), checked field by field: an
    unknown top-level field is refused with the list of known ones, and the whole setup
    (laid over `base`, a scenario's, when given) is validated by the ruleset's setup type
    (InvalidSetup naming the field otherwise)."""
    data = parse_document(text, format_of(filename), f"setup file {filename!r}")
    known = set(setup_schema_node(ruleset).get("properties", {}))
    unknown = sorted(set(data) - known)
    if unknown:
        raise InvalidSetup(
            f"setup file {filename!r}: unknown field {unknown[0]!r} for {ruleset.name}; "
            f"fields allowed: {', '.join(sorted(known))}",
            field=unknown[0],
            allowed=sorted(known),
        )
    validate_setup(ruleset, {**(base or {}), **data})
    return data


def setup_schema_node(ruleset: Ruleset[Any]) -> dict[str, Any]:
    """The object schema of the setup type itself (its properties and required fields)."""
    schema = setup_schema(ruleset)
    return _resolve_ref(schema, schema)


def setup_schema(ruleset: Ruleset[Any]) -> dict[str, Any]:
    """The JSON Schema of the ruleset's setup type (the format of a setup file)."""
    schema: dict[str, Any] = cleaned_descriptions(msgspec.json.schema(ruleset.setup_type))
    return schema


def validate_setup(ruleset: Ruleset[Any], setup: dict[str, Any]) -> Struct:
    """The setup as the ruleset's setup type, or InvalidSetup naming the field and saying
    what is allowed there (enum values, bounds, pattern, known fields)."""
    try:
        parsed: Struct = msgspec.convert(setup, ruleset.setup_type)
    except msgspec.ValidationError as exc:
        message = str(exc)
        hint = allowed_at(setup_schema(ruleset), message)
        raise InvalidSetup(
            f"setup for {ruleset.name} is not valid: {message}" + (f"; {hint}" if hint else ""),
            error=message,
        ) from exc
    unknown = unknown_field(ruleset.setup_type, setup)
    if unknown is not None:  # a type that drops unknown fields would drop a typo silently
        key, at = unknown
        message = f"Object contains unknown field `{key}`" + (f" - at `{at}`" if at != "$" else "")
        hint = allowed_at(setup_schema(ruleset), message)
        raise InvalidSetup(
            f"setup for {ruleset.name} is not valid: {message}" + (f"; {hint}" if hint else ""),
            error=message,
        )
    return parsed


def allowed_at(schema: dict[str, Any], message: str) -> str:
    """What the schema allows where a msgspec validation `message` points ('' if unknown)."""
    match = _AT.search(message)
    path = match.group(1) if match else "$"
    node = _node(schema, schema, path)
    if node is None:
        return ""
    if "unknown field" in message or "missing required field" in message:
        fields = sorted(node.get("properties", {}))
        required = sorted(node.get("required", []))
        text = f"fields allowed at {path}: {', '.join(fields)}" if fields else ""
        if required:
            text += f" (required: {', '.join(required)})"
        return text
    return _describe(schema, node, path)


def _resolve_ref(root: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        node = root.get("$defs", {}).get(name, {})
    return node


def _choices(root: dict[str, Any], node: dict[str, Any]) -> list[dict[str, Any]]:
    node = _resolve_ref(root, node)
    options = node.get("anyOf") or node.get("oneOf")
    if not options:
        return [node]
    flat: list[dict[str, Any]] = []
    for option in options:
        flat.extend(_choices(root, option))
    return [o for o in flat if o.get("type") != "null"] or flat


def _node(root: dict[str, Any], node: dict[str, Any], path: str) -> dict[str, Any] | None:
    current: dict[str, Any] | None = _resolve_ref(root, node)
    for step in _PATH_STEP.finditer(path[1:]):
        if current is None:
            return None
        nxt: dict[str, Any] | None = None
        for option in _choices(root, current):
            if step.group(1) is not None:
                nxt = option.get("properties", {}).get(step.group(1))
            elif "prefixItems" in option and step.group(2).isdigit():
                items = option["prefixItems"]
                index = int(step.group(2))
                nxt = items[index] if index < len(items) else None
            elif "items" in option:
                nxt = option["items"]
            elif isinstance(option.get("additionalProperties"), dict):
                nxt = option["additionalProperties"]
            if nxt is not None:
                break
        current = _resolve_ref(root, nxt) if nxt is not None else None
    return current


def _describe(root: dict[str, Any], node: dict[str, Any], path: str) -> str:
    parts: list[str] = []
    for option in _choices(root, node):
        if "enum" in option:
            parts.append("one of " + ", ".join(json.dumps(v) for v in option["enum"]))
        bounds = [
            f"{word} {option[key]}"
            for key, word in (
                ("minimum", ">="),
                ("exclusiveMinimum", ">"),
                ("maximum", "<="),
                ("exclusiveMaximum", "<"),
                ("minLength", "length >="),
                ("maxLength", "length <="),
                ("minItems", "items >="),
                ("maxItems", "items <="),
            )
            if key in option
        ]
        if "pattern" in option:
            bounds.append(f"matching {option['pattern']}")
        if bounds:
            parts.append(f"{option.get('type', 'value')} " + " and ".join(bounds))
        elif "enum" not in option and "type" in option:
            parts.append(str(option["type"]))
    return f"allowed at {path}: " + " or ".join(parts) if parts else ""
