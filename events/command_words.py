"""A command typed as words: `umpire send GAME RollDice dice=2d6 purpose="flak check"`.

The first word names the command type and each further word sets one field, FIELD=VALUE,
so a player at the command line (`umpire send`, `umpire play`) types no JSON for a
command of plain fields. The command type's JSON Schema says how VALUE reads (the
ruleset's, engine/schemas.py, for `umpire send`; the legal action's, as the gateway sends
it, for `umpire play`):
- for a text field (a string, or a choice of names), VALUE is the text as typed, so
  `purpose=3` stays the text "3" (an optional text field reads the word `null` as no
  value);
- for a list of text (names, hexes), VALUE is its JSON or the items as typed, with or
  without brackets: `units=[P-RIFLE-1]`, `units=P-RIFLE-1,P-RIFLE-2`, `path=[0926, 0927]`;
- for a list of records, each item's fields go one word each, FIELD.N.ITEMFIELD=VALUE,
  the items numbered from 1 in order (`flights.1.id="Red 1" flights.1.hex=0101
  flights.2.id=...`), each VALUE read as its own field's;
- for any other field, VALUE is read as JSON (`count=2`, `evade=true`, `hex=null`; a list
  of records may be given whole as its JSON too). A VALUE that is not JSON goes as text,
  and the rules refuse it with their own message ("expected int").
A field the command does not have goes as typed: the rules refuse it, naming the fields
the command takes (engine/handling.py `parse_command`), as they do a JSON command's.

`words_for` prints a command back in this form, for `umpire actions`; every command of
every installed ruleset reads back to itself (tests/server/test_command_words.py).
"""

from __future__ import annotations

import itertools
import json
import math
import re
import shlex
from collections.abc import Iterable, Sequence
from typing import Any

from umpire.events.errors import InvalidCommand

Schema = dict[str, Any]


def command_from_words(words: Sequence[str], schema: Schema | None) -> dict[str, Any]:
    """The command object that `words` (TYPE FIELD=VALUE ...) stand for, read through
    `schema`, its type's; None for a type the schema's owner does not know, which is left
    for the rules to refuse, with the types they accept."""
    kind, *pairs = words
    properties = _fields(schema or {})
    command: dict[str, Any] = {"type": kind}
    itemised: set[str] = set()  # the fields given item by item (`flights.1.id=x`)
    made: set[int] = set()  # the ids of the lists and records those words built
    for at, pair in enumerate(pairs):
        name, equals, text = pair.partition("=")
        if not equals or not name:
            raise InvalidCommand(
                f"{pair[:80]!r} is not FIELD=VALUE; {kind[:80]} {_takes(properties)}"
                + _quotes_hint(pairs[at - 1] if at else "", pairs[at:]),
                type=kind[:80],
            )
        if name == "type":
            raise InvalidCommand(
                "the command's type is the first word, not a field", type=kind[:80]
            )
        if "." in name:
            if name.partition(".")[0] in command and name.partition(".")[0] not in itemised:
                raise InvalidCommand(f"field {name[:80]!r} is given twice", type=kind[:80])
            itemised.add(name.partition(".")[0])
            _put(command, properties, name, text, kind[:80], made)
            continue
        if name in command:
            raise InvalidCommand(f"field {name[:80]!r} is given twice", type=kind[:80])
        command[name] = _read(properties.get(name, {}), text)
    return command


class _Unset:
    """An item numbered before its value is read (`units.1=...`)."""


def _put(
    command: dict[str, Any], properties: Schema, path: str, text: str, kind: str, made: set[int]
) -> None:
    """One field of a list's item, `FIELD.N.ITEMFIELD=VALUE` (`flights.1.hex=0101`: item 1
    of flights, its hex), read through that field's schema: a list of records in words,
    item by item, in order (a list of records took its JSON before). `made` holds the ids
    of the lists and records these words built: only those take more words, so an item
    given whole (`flights.1={...}`, `flights.1=null`) is not also given field by field."""
    top, *steps = path.split(".")
    if not top or not all(steps):
        raise InvalidCommand(f"{path[:80]!r} is not FIELD.N.FIELD=VALUE", type=kind)
    parent: Any = command
    key: Any = top
    node = properties.get(top, {})
    for at, step in enumerate(steps):
        if step.isdigit():  # any digits, as Python reads them: `01`, `²`, `١` too
            held = _built(parent, key, list, made, path, kind)
            # One spelling an item: `1`, not `01` or other scripts' digits, so that two
            # words naming one item read as one (red team 9b: `²` raised a ValueError).
            if not _ITEM_NUMBER.fullmatch(step):
                raise InvalidCommand(
                    f"{path[:80]!r}: an item's number is written in the digits 0-9 "
                    f"without a leading zero (1, 2, 3, ...)",
                    type=kind,
                )
            number = int(step)
            if not 1 <= number <= len(held) + 1:
                raise InvalidCommand(
                    f"{path[:80]!r}: items are numbered from 1 in order; the next of "
                    f"{'.'.join([top, *steps[:at]])[:80]} is {len(held) + 1}",
                    type=kind,
                )
            if number == len(held) + 1:
                held.append(_Unset())
            parent, key, node = held, number - 1, _items(node)
        else:
            held = _built(parent, key, dict, made, path, kind)
            parent, key, node = held, step, _fields(node).get(step, {})
    given = key in parent if isinstance(parent, dict) else not isinstance(parent[key], _Unset)
    if given:
        raise InvalidCommand(f"field {path[:80]!r} is given twice", type=kind)
    parent[key] = _read(node, text)


_ITEM_NUMBER = re.compile(r"[1-9][0-9]*")


def _built(
    parent: Any, key: Any, shape: type[list[Any]] | type[dict[str, Any]], made: set[int],
    path: str, kind: str,
) -> Any:  # fmt: skip
    """The list or record at `parent[key]` that words build, made now if nothing is
    there; a value given whole there (its JSON, `null`, a text) is the field given twice."""
    absent = key not in parent if isinstance(parent, dict) else isinstance(parent[key], _Unset)
    if absent:
        held = shape()
        made.add(id(held))
        parent[key] = held
        return held
    held = parent[key]
    if type(held) is not shape or id(held) not in made:
        raise InvalidCommand(f"field {path[:80]!r} is given twice", type=kind)
    return held


def _items(node: Schema) -> Schema:
    """The schema of a list's items (a choice of lists: a choice of their items)."""
    cases = [node, *node.get("anyOf", ())]
    found = [c["items"] for c in cases if isinstance(c.get("items"), dict)]
    return found[0] if len(found) == 1 else {"anyOf": found} if found else {}


def _quotes_hint(before: str, after: Sequence[str]) -> str:
    """Where lone words follow FIELD=VALUE (`EndGame result=B1 was lost`: the shell split a
    value of several words), how to keep them one value."""
    name, equals, value = before.partition("=")
    lone = list(itertools.takewhile(lambda word: "=" not in word, after))
    if not equals or not name or not lone:
        return ""
    return f'; a value of several words goes in quotes: {name}="{" ".join([value, *lone])}"'[:200]


def words_for(kind: str, schema: Schema, command: dict[str, Any]) -> str:
    """The command of type `kind` as shell words that `command_from_words` reads back to
    it (`schema`: the command type's, or an action's)."""
    properties = _fields(schema)
    words = [kind]
    for name, value in command.items():
        if name == "type":
            continue
        for path, leaf, node in _leaves(name, properties.get(name, {}), value):
            words.append(f"{path}={_shown(node, leaf)}")
    return " ".join(shlex.quote(word) for word in words)


def _leaves(path: str, node: Schema, value: Any) -> list[tuple[str, Any, Schema]]:
    """A field as the words that set it: itself, or a list of records item by item
    (`flights.1.id=x flights.1.hex=0101`), each record's fields the same way."""
    if not (
        isinstance(value, list) and value and all(isinstance(item, dict) and item for item in value)
    ):
        return [(path, value, node)]
    items = _fields(_items(node))
    return [
        leaf
        for number, item in enumerate(value, start=1)
        for name, field in item.items()
        for leaf in _leaves(f"{path}.{number}.{name}", items.get(name, {}), field)
    ]


def _shown(node: Schema, value: Any) -> str:
    """A field's VALUE as `_read` reads it back: text as typed, names as `a,b`, else JSON."""
    if (is_text(node) or _text_or_null(node)) and isinstance(value, str):
        return value
    if _text_list(node) and _plain_names(value):
        return ",".join(value)  # `units=P-RIFLE-1`, as a player types it, not JSON
    return _json(value)


def _plain_names(value: Any) -> bool:
    """A list of names that reads back from `a,b` as typed: not empty, and no name that
    holds a comma, a quote or a bracket, or is blank."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(
            isinstance(item, str)
            and item.strip() == item
            and item
            and not any(mark in item for mark in ",'\"[]")
            for item in value
        )
    )


def typed_kind(word: str, kinds: Iterable[str]) -> str:
    """The command type a player's first word names: itself, or the one of `kinds` it
    spells in other capitals (`movefighter`, `MOVEFIGHTER` for MoveFighter), as a player
    types it; a word that names none goes as typed, for the rules to refuse."""
    known = list(kinds)
    if word in known:
        return word
    folded = [kind for kind in known if kind.casefold() == word.casefold()]
    return folded[0] if len(folded) == 1 else word


def is_text(node: Schema) -> bool:
    """Whether a field's every value is text: a string, a string constant or a choice of
    strings, or a choice between such."""
    if "const" in node:
        return isinstance(node["const"], str)
    if "enum" in node:
        return all(isinstance(value, str) for value in node["enum"])
    if "anyOf" in node:
        return all(is_text(case) for case in node["anyOf"])
    return bool(node.get("type") == "string")


def _fields(schema: Schema) -> Schema:
    """Every field `schema` gives, but the type tag: its own, and each case's of a choice
    (an action's `anyOf`, as Nightfighter's move on the map or off it), a field in several
    cases read as a choice of their nodes."""
    found: dict[str, list[Schema]] = {}
    for shape in (schema, *schema.get("anyOf", ())):
        for name, node in shape.get("properties", {}).items():
            if name != "type" and node not in found.setdefault(name, []):
                found[name].append(node)
    return {
        name: nodes[0] if len(nodes) == 1 else {"anyOf": nodes} for name, nodes in found.items()
    }


def _text_or_null(node: Schema) -> bool:
    """An optional text field: a choice between text and null."""
    cases = node.get("anyOf", ())
    nulls = [case for case in cases if case.get("type") == "null"]
    return bool(nulls) and all(is_text(case) for case in cases if case not in nulls)


def _read(node: Schema, text: str) -> Any:
    """VALUE as the field `node` takes it."""
    if is_text(node):
        return text
    if _text_or_null(node):
        return None if text == "null" else text
    if _text_list(node):
        # A list of names: its JSON, or the names as typed, with or without brackets
        # (`units=[P-RIFLE-1]`, `units=P-RIFLE-1,P-RIFLE-2`, `path=[0926, 0927]`): a name
        # is text whatever it looks like, as in a text field.
        value = _value(text)
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return value
        inner = text.strip()
        if inner.startswith("[") and inner.endswith("]"):
            inner = inner[1:-1]
        return [part.strip().strip("\"'") for part in inner.split(",") if part.strip()]
    return _value(text)


def _text_list(node: Schema) -> bool:
    """A list of text items (names, hexes), or a choice between such lists (an action's
    field in several cases, each with its own names)."""
    if "anyOf" in node:
        return bool(node["anyOf"]) and all(_text_list(case) for case in node["anyOf"])
    items = node.get("items")  # (False for a fixed tuple: its `prefixItems` say each)
    return node.get("type") == "array" and isinstance(items, dict) and is_text(items)


def _takes(properties: Schema) -> str:
    return f"takes {', '.join(properties)}" if properties else "takes no fields"


def json_once(text: str) -> Any:
    """`text` as JSON, refusing an object that gives one field twice (InvalidCommand
    naming it, as a word given twice is): Python's parser keeps the last value without a
    word, so `{"amount": 1, "amount": 5}` typed to `umpire play` or `umpire send` sent 5,
    where the gateway refuses the same frame (red team 9). No value the wire would change
    either: NaN, Infinity or a number too big for a float (`1e999`) is refused, since the
    client's encoder writes each as null, which a field may read as "none" (red team 9b:
    `"flights": NaN` moved every DRV flight). Otherwise as `json.loads` (JSONDecodeError,
    RecursionError, ValueError)."""
    return json.loads(
        text, object_pairs_hook=_once, parse_constant=_refused, parse_float=_finite_or_refused
    )


def _refused(name: str) -> Any:
    raise InvalidCommand(f"{name[:80]} is not a value a command takes: give a finite number")


def _finite_or_refused(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        _refused(text)
    return value


def _once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InvalidCommand(
                f"field {key[:80]!r} is given twice in one object: give each field once"
            )
        out[key] = value
    return out


def _value(text: str) -> Any:
    try:
        # A number too big for a float (`1e999`) stays text as NaN does, for the rules to
        # refuse: as inf the client's encoder would send it as null (see `json_once`).
        return json.loads(
            text, parse_constant=_no_constant, parse_float=_finite, object_pairs_hook=_once
        )
    except (RecursionError, ValueError):  # JSONDecodeError is a ValueError
        return text  # for the rules to refuse, saying what the field wants


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a value a command takes")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is not a value a command takes")
    return value


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
