"""Refusals provoked at one point of play: what a player reads when a command is refused.

The table (clients/web) and `umpire send` show an error reply's `message` as it is, so it
is text for people like an event's explanation (testing/contract/test_words.py). `provoke`
sends, for every command type the ruleset takes, the commands a player gets wrong: a type
not allowed now; each field (and each field of a list's first item or a record) of the
wrong kind, out of its type's range, outside what the listing narrows it to, or left out;
a field the command does not have; a report that restates the game (refused
`nothing_to_do`, engine/offers.py). Each is decided purely, as test_actions_truth.py
decides commands (engine/handling.py `decide_command`, dice from a fixed seed).

The values sent are not snake_case words of their own (`Zebra`, `colour`), so a code in a
refusal is the refusal's, not an echo of what was sent.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from umpire.engine.dice import ServerDice
from umpire.engine.game import Game
from umpire.engine.handling import command_types, decide_command
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.engine.schemas import accepts, shared_schema
from umpire.events.errors import UmpireError
from umpire.testing.support.action_truth import as_received, listed
from umpire.testing.support.schema_sampler import sample

UNKNOWN_FIELD = "colour"  # no command of any ruleset has it, and it is one word
OUT_OF_RANGE = "Zebra"  # no enumeration of any ruleset names it
# Values of an enumerated field outside its listing, tried per field: a hex field lists
# thousands, and a few show how the rules word the refusal.
OUTSIDE = 3
Schema = dict[str, Any]


@dataclass(frozen=True)
class Refusal:
    """A command sent, what was wrong with it (`probe`), and the error it met."""

    probe: str
    command: dict[str, Any]
    error: UmpireError


def provoke(ruleset: Ruleset[Any], game: Game, rng: random.Random) -> list[Refusal]:
    """Every refusal the probes of every command type meet at this point of `game`."""
    actions = {a.type: a for a in listed(ruleset, game, Role.PLAYER)}
    found: list[Refusal] = []
    for tag, kind in sorted(command_types(ruleset).items()):
        action = actions.get(tag)
        narrowed = as_received(action) if action is not None else None
        full = shared_schema(kind)
        base = sample(narrowed if narrowed is not None else full, rng)
        probes = [] if narrowed is not None else [(f"{tag} not allowed now", base)]
        probes.append((f"{tag} with a field it does not have", {**base, UNKNOWN_FIELD: 1}))
        probes += [(f"{tag}{where}", command) for where, command in _fields(full, base, rng)]
        probes += [
            (f"{tag} outside its listing", command)
            for command in _outside(full, narrowed, base, rng)
        ]
        if narrowed is not None:
            probes += [(f"{tag} restating the game", c) for c in _restating(narrowed, base)]
        for probe, command in probes:
            dice = ServerDice(bytes(32), f"refusal-{rng.randrange(1 << 30)}", game.meta.rolls)
            try:
                decide_command(ruleset, game, command, dice)
            except UmpireError as exc:
                found.append(Refusal(probe, command, exc))
    return found


def _wrong(node: Schema) -> Iterator[tuple[str, Any]]:
    """Values a field of schema `node` refuses: of the wrong kind, out of range."""
    kinds = {o.get("type") for o in node.get("anyOf", [node])}
    if "enum" in node or "const" in node:
        yield " out of range", OUT_OF_RANGE
        yield " of the wrong kind", 7
    elif "string" in kinds:
        yield " of the wrong kind", 7
        if "pattern" in node:
            yield " out of range", "?"
    elif kinds & {"integer", "number"}:
        yield " of the wrong kind", OUT_OF_RANGE
        if "maximum" in node:
            yield " out of range", node["maximum"] + 1
        if "minimum" in node:
            yield " out of range", node["minimum"] - 1
    else:
        yield " of the wrong kind", OUT_OF_RANGE if kinds & {"array", "boolean"} else 7


def _fields(
    schema: Schema, value: Any, rng: random.Random, depth: int = 2
) -> Iterator[tuple[str, Any]]:
    """(where, `value` with one field made wrong or left out), for each field of a record
    `schema`, and of its records and its lists' first items, `depth` levels down."""
    if not isinstance(value, dict):
        return
    properties: Schema = {}
    required: set[str] = set()
    for option in schema.get("anyOf", [schema]):
        properties.update(option.get("properties", {}))
        required.update(option.get("required", ()))
    for name, node in properties.items():
        if name == "type" or name not in value:
            continue
        for why, wrong in _wrong(node):
            yield f" {name}{why}", {**value, name: wrong}
        if name in required:
            yield f" without {name}", {k: v for k, v in value.items() if k != name}
        if depth == 0:
            continue
        inner, item = node, value[name]
        if isinstance(item, list) and item and isinstance(node.get("items"), dict):
            inner, item = node["items"], item[0]
            for where, changed in _fields(inner, item, rng, depth - 1):
                yield f" {name}[0]{where}", {**value, name: [changed, *value[name][1:]]}
        elif isinstance(item, dict):
            for where, changed in _fields(inner, item, rng, depth - 1):
                yield f" {name}{where}", {**value, name: changed}


def _outside(
    full: Schema, narrowed: Schema | None, base: dict[str, Any], rng: random.Random
) -> Iterator[dict[str, Any]]:
    """`base` with an enumerated field set to a value its type names but the listing
    leaves out (a card not in hand, a roll the unit does not make)."""
    if narrowed is None:
        return
    for name, node in full.get("properties", {}).items():
        if name == "type" or "enum" not in node:
            continue
        left_out = [v for v in node["enum"] if not accepts(narrowed, {**base, name: v})]
        for value in rng.sample(left_out, min(OUTSIDE, len(left_out))):
            yield {**base, name: value}


def _restating(narrowed: Schema, base: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Commands the listing leaves out as restating the game (its `not`)."""
    gone = narrowed.get("not")
    if not isinstance(gone, dict):
        return
    for case in gone.get("anyOf", [gone]):
        fixed = {k: v["const"] for k, v in case.get("properties", {}).items() if "const" in v}
        yield {**base, **fixed}
