"""Twin games that differ only in what a player and a spectator may not know.

Two ways a game holds a secret, both derived from what the ruleset declares:

- hidden rolls (DiceRolled with hidden=True): `shifted_dice(k)` is the server's dice with
  every hidden roll's faces moved k faces on, public rolls untouched;
- secret setup fields (`Ruleset.secret_fields`, e.g. down_in_flames' pilots, 9.1.11):
  `secret_setups(ruleset, setup)` are the setup with those fields set otherwise wherever the
  change leaves the player's and the spectator's first view unchanged (the player's own
  side's pilots are public to the player, so they are kept).
"""

from __future__ import annotations

import copy
from typing import Any

import msgspec

from umpire.engine.dice import ServerDice
from umpire.engine.redaction import view_for
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.engine.scenarios import setup_schema, validate_setup
from umpire.testing.support.dice import AlteredDice

VIEWERS = (Role.PLAYER, Role.SPECTATOR)


def shifted_dice(shift: int) -> type[ServerDice]:
    """ServerDice whose hidden rolls come out `shift` faces on (public rolls as drawn)."""
    return type(f"ShiftedDice{shift}", (AlteredDice,), {"shift": shift})


def _views(ruleset: Ruleset[Any], setup: dict[str, Any]) -> list[bytes]:
    state = ruleset.initial_state(validate_setup(ruleset, setup))
    return [msgspec.json.encode(view_for(ruleset, state, role, revealed=False)) for role in VIEWERS]


def _secret_objects(ruleset: Ruleset[Any]) -> list[dict[str, Any]]:
    """The setup schema's object definitions that hold a secret field."""
    schema = setup_schema(ruleset)
    nodes = [schema, *schema.get("$defs", {}).values()]
    secret = set(ruleset.secret_fields)
    return [n for n in nodes if secret & set(n.get("properties", {}))]


def _instances(data: Any, node: dict[str, Any]) -> list[dict[str, Any]]:
    """Every dict in `data` that is an instance of the object schema `node`."""
    found: list[dict[str, Any]] = []
    props, required = set(node.get("properties", {})), set(node.get("required", ()))
    if isinstance(data, dict):
        if required <= set(data) <= props:
            found.append(data)
        for value in data.values():
            found.extend(_instances(value, node))
    elif isinstance(data, list):
        for value in data:
            found.extend(_instances(value, node))
    return found


def _alternatives(schema: dict[str, Any], current: Any) -> list[Any]:
    if schema.get("type") == "boolean":
        return [not bool(current)]
    if "enum" in schema:
        return [v for v in schema["enum"] if v != current]
    return []


def secret_setups(ruleset: Ruleset[Any], setup: dict[str, Any]) -> list[dict[str, Any]]:
    """Variants of `setup` that differ from it only in secret fields no viewer sees."""
    schema = setup_schema(ruleset)
    defs = schema.get("$defs", {})
    base_views = _views(ruleset, setup)
    variants: list[dict[str, Any]] = []
    for k in range(4):
        variant = copy.deepcopy(setup)
        changed = False
        for node in _secret_objects(ruleset):
            for instance in _instances(variant, node):
                for name in sorted(set(ruleset.secret_fields) & set(node["properties"])):
                    field = node["properties"][name]
                    while "$ref" in field:
                        field = defs[field["$ref"].rsplit("/", 1)[-1]]
                    options = _alternatives(field, instance.get(name, field.get("default")))
                    if not options:
                        continue
                    before = instance.get(name, None)
                    had = name in instance
                    instance[name] = options[k % len(options)]
                    if _views(ruleset, variant) == base_views:
                        changed = True
                    elif had:
                        instance[name] = before
                    else:
                        del instance[name]
        if changed and variant not in variants:
            variants.append(variant)
    return variants
