"""Issue 32, item 2: every setup and command field of every ruleset is bounded in its
schema, so a create or a command is refused (a typed error, nothing written) before any
work when it is larger than the rules can use, and no GameCreated can outgrow a frame.

Derived from the installed rulesets' schemas (a new field without a bound fails here):
every string has a maxLength or a pattern of bounded width, every integer a maximum,
every array a maxItems (or a fixed length), every map a maxProperties. From the same bounds,
the largest JSON a setup can encode to is computed and must stay under the frame limit a
client accepts (docs/protocol.md, 16 MiB).
"""

from __future__ import annotations

import re._parser as sre_parse  # type: ignore[import-not-found]
from typing import Any

import msgspec
import pytest

from umpire.engine import registry
from umpire.engine.commands import EndGame, RollDice
from umpire.engine.scenarios import setup_schema
from umpire.engine.schemas import tag_of
from umpire.events.errors import UmpireError
from umpire.server.games import Games

CLIENT_FRAME_LIMIT = 2**24  # clients/client.py max_size; docs/protocol.md "Frame sizes"
ENVELOPE_ROOM = 4096  # the event frame's own fields around the payload
ESCAPED = 6  # a character a JSON encoder writes as \uXXXX


def _deref(node: Any, defs: dict[str, Any]) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    return node


def _pattern_width(pattern: str) -> int | None:
    high = sre_parse.parse(pattern).getwidth()[1]
    return None if high >= sre_parse.MAXREPEAT else int(high)


def unbounded(node: Any, defs: dict[str, Any], path: str, depth: int = 0) -> list[str]:
    """The paths under `node` that have no upper bound."""
    node = _deref(node, defs)
    if not isinstance(node, dict) or depth > 12 or "enum" in node or "const" in node:
        return []
    out: list[str] = []
    for option in node.get("anyOf", []):
        out += unbounded(option, defs, path, depth + 1)
    kind = node.get("type")
    if (
        kind == "string"
        and "maxLength" not in node
        and ("pattern" not in node or _pattern_width(node["pattern"]) is None)
    ):
        out.append(f"{path}: a string without maxLength")
    if kind == "integer" and "maximum" not in node and "exclusiveMaximum" not in node:
        out.append(f"{path}: an integer without maximum")
    if kind == "array":
        if "maxItems" not in node and node.get("items") is not False:
            out.append(f"{path}: an array without maxItems")
        for i, item in enumerate(node.get("prefixItems", [])):
            out += unbounded(item, defs, f"{path}[{i}]", depth + 1)
        if isinstance(node.get("items"), dict):
            out += unbounded(node["items"], defs, f"{path}[]", depth + 1)
    if kind == "object":
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            if "maxProperties" not in node:
                out.append(f"{path}: a map without maxProperties")
            out += unbounded(extra, defs, f"{path}{{}}", depth + 1)
            out += unbounded(node.get("propertyNames", {}), defs, f"{path} keys", depth + 1)
        for name, field in node.get("properties", {}).items():
            out += unbounded(field, defs, f"{path}.{name}", depth + 1)
    return out


def largest_json(node: Any, defs: dict[str, Any], depth: int = 0) -> int:
    """An upper bound of the bytes of any JSON value `node` accepts (every character of a
    string escaped)."""
    node = _deref(node, defs)
    if not isinstance(node, dict) or depth > 12:
        return 0
    if "enum" in node or "const" in node:
        values = node.get("enum", [node.get("const")])
        return max(len(msgspec.json.encode(v)) * ESCAPED for v in values)
    sizes = [largest_json(o, defs, depth + 1) for o in node.get("anyOf", [])]
    kind = node.get("type")
    if kind == "string":
        width = node.get("maxLength")
        if width is None:
            width = _pattern_width(node["pattern"])
        sizes.append(2 + ESCAPED * int(width))
    elif kind in ("integer", "number", "boolean", "null"):
        sizes.append(24)
    elif kind == "array":
        items = [largest_json(p, defs, depth + 1) + 1 for p in node.get("prefixItems", [])]
        each = largest_json(node.get("items"), defs, depth + 1) + 1
        sizes.append(2 + sum(items) + each * int(node.get("maxItems", 0)))
    elif kind == "object":
        total = 2
        for name, field in node.get("properties", {}).items():
            total += len(name) + 4 + largest_json(field, defs, depth + 1)
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            key = largest_json(node.get("propertyNames", {"type": "string", "maxLength": 0}), defs)
            total += int(node.get("maxProperties", 0)) * (key + 2 + largest_json(extra, defs))
        sizes.append(total)
    return max(sizes, default=0)


def _schemas(name: str) -> list[tuple[str, dict[str, Any]]]:
    ruleset = registry.get(name)
    out = [("setup", setup_schema(ruleset))]
    for command_type in (*ruleset.command_types, RollDice, EndGame):
        out.append((tag_of(command_type), msgspec.json.schema(command_type)))
    return out


@pytest.mark.parametrize("name", sorted(registry.installed()))
def test_every_setup_and_command_field_is_bounded(name: str) -> None:
    found = [
        problem
        for where, schema in _schemas(name)
        for problem in unbounded(schema, schema.get("$defs", {}), where)
    ]
    assert not found, f"{name}: fields without a bound: {found}"


@pytest.mark.parametrize("name", sorted(registry.installed()))
def test_the_largest_game_created_fits_a_frame(name: str) -> None:
    schema = setup_schema(registry.get(name))
    largest = largest_json(schema, schema.get("$defs", {})) + ENVELOPE_ROOM
    assert largest < CLIENT_FRAME_LIMIT, f"{name}: a setup may encode to {largest} bytes"


async def test_a_setup_beyond_its_bounds_is_refused_before_any_work(games: Games) -> None:
    # Fails on main: 300,000 placeholders were accepted and made a 31 MB GameCreated.
    card = {
        "name": "Big", "aircraft_class": "fighter", "ceiling_level": 10, "defense": 3,
        "hit_value": 8, "performance": [{"low": 1, "high": 10, "agility": 3, "speed": 3,
                                         "hp": 3}],
        "placeholders": ["defense"] * 300_000,
    }  # fmt: skip
    setup = {
        "aircraft": [{"id": "a1", "aircraft": "Big", "side": "A", "element": "A",
                      "station": "leader", "hand": 6}],
        "custom_aircraft": {"Big": card},
    }  # fmt: skip
    with pytest.raises(UmpireError) as refused:
        await games.create("down_in_flames", setup, game_id="huge")
    assert refused.value.code == "invalid_setup"
    assert "placeholders" in refused.value.message and "64" in refused.value.message
    assert await games.store.version("huge") == 0


async def test_a_command_beyond_its_bounds_is_refused_before_any_work(games: Games) -> None:
    # Fails on main: 10,000 moves were parsed and handed to the rules.
    created = await games.create("conflict_of_heroes", {}, game_id="moves")
    before = await games.store.version(created.game_id)
    moves = [{"unit": "P-RIFLE-1", "hex": "0304", "facing": 0}] * 10_000
    command = {"type": "UnitAction", "units": ["P-RIFLE-1"], "action": "move", "ap": 1,
               "moves": moves}  # fmt: skip
    with pytest.raises(UmpireError) as refused:
        await games.handle(created.game_id, "c1", command)
    assert refused.value.code == "invalid_command"
    assert "moves" in refused.value.message and "240" in refused.value.message
    assert await games.store.version(created.game_id) == before
