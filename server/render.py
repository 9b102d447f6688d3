"""Readable renderings of events for terminals (rich) and plain text.

`describe` returns printable text: what a player wrote in an event (a purpose, a
command's fields, a result) has its control characters escaped. Printing it where rich
parses markup needs `shown` (events/terminal_text.py) as well. The rules' own text and an
event's type are said in words (events/rules_words.py: "loses searchlight fix", "SAM
reacted"), as the browser table says them; a command's fields stay as typed (`umpire
send` takes them back as printed). Display only: the events keep their text.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine.citations import readable
from umpire.engine.game import Game
from umpire.engine.kit.labels import NO_LABELS, Labels
from umpire.engine.redaction import view_for
from umpire.engine.replay import Change
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.events.citation_words import SeedNames
from umpire.events.receipt import receipt_state_hash
from umpire.events.rules_words import (
    acronyms,
    fields_said,
    in_words,
    kind_in_words,
    type_in_words,
    universal_said,
)
from umpire.events.terminal_text import printable


@cache  # once per ruleset: `umpire log` names every row's type by them
def capitals_of(ruleset: Ruleset[Any]) -> frozenset[str]:
    """The words the ruleset writes in capitals (AAA, SAM), for its event types in words."""
    return acronyms(ruleset.title, ruleset.labels.fields, ruleset.labels.values)


# A value that is one snake_case key and nothing else (the table's `said` test).
_KEY_VALUE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+", re.ASCII)


def type_words(
    event_type: str, ruleset: Ruleset[Any] | None = None, event: Struct | None = None
) -> str:
    """An event type as a player reads it ("downtown.SamReacted" -> "SAM reacted"), or,
    given the `event` as the reader sees it, its kind (a decision by what it decided:
    `kind_in_words`); `log --json`, `explain --json` and exports keep the exact type."""
    capitals = capitals_of(ruleset) if ruleset is not None else frozenset()
    if event is None:
        return type_in_words(event_type, capitals)
    return kind_in_words(event_type, msgspec.to_builtins(event), capitals)


def describe(
    event: Struct,
    *,
    with_type: bool = True,
    names: SeedNames | None = None,
    ruleset: Ruleset[Any] | None = None,
) -> str:
    """One line saying what an event means (without its type when a table shows the type
    in a column of its own; with it, in words, by the `ruleset`'s capitals), its citations
    as the rulebook's (engine/citations.py: `names`, or every installed ruleset's), safe to
    print (control characters escaped)."""
    capitals = capitals_of(ruleset) if ruleset is not None else frozenset()
    return printable(readable(_describe(event, with_type=with_type, capitals=capitals), names))


def _describe(event: Struct, *, with_type: bool, capitals: frozenset[str]) -> str:
    said = universal_said(event, capitals)
    if said is not None:
        return said
    data: dict[str, Any] = msgspec.to_builtins(event)
    tag = kind_in_words(str(data.pop("type", type(event).__name__)), data, capitals)
    explanation = in_words(str(data.pop("explanation", "") or ""))
    rule = data.pop("rule", "")
    data.pop("candidates", None)
    said = fields_said(data)
    if not with_type:
        head = explanation or said
    elif explanation:
        head = f"{tag}: {explanation}"
    else:
        head = f"{tag} ({said})" if said else tag
    return head + (f" — {rule}" if rule else "")


def receipt_lines(ruleset: Ruleset[Any], game: Game, seen_by: Role = Role.REFEREE) -> list[str]:
    """The receipt of the game's head as `seen_by` gets it (docs/audit.md "Receipts"):
    head seq and hash, and the state hash of its view there (the referee: the player's
    and the spectator's), so a kept receipt can be compared with the log. Never the hash
    of a view the role may not see: it has no blind, so one who knows all of that view
    but a secret (a Down in Flames spectator, the player's own pilots) could try each
    value of the secret until it matched."""
    meta = game.meta
    revealed = meta.revealed_seed is not None
    lines = [f"head: seq {meta.seq}, hash {meta.last_hash}"]
    roles = (Role.PLAYER, Role.SPECTATOR) if seen_by is Role.REFEREE else (seen_by,)
    for role in roles:
        view = view_for(ruleset, game.state, role, revealed=revealed)
        lines.append(
            f"state hash ({role.value}): {receipt_state_hash(meta.seq, meta.last_hash, view)}"
        )
    return lines


def view_lines(
    view: Any, indent: str = "", labels: Labels = NO_LABELS, *, key: str = "", keyed: bool = False
) -> list[str]:
    """A role's view (plain data) as readable lines for `umpire state`: `label: value` in
    the ruleset's words (`Ruleset.labels`, engine/kit/labels.py: each field by its label,
    a coded value by its name), nested objects indented under their key, list items
    marked `-`, short lists of plain values on one line. Printable text (control
    characters escaped); `state --json` is the machine-readable form. `key` is the field
    the value belongs to; `keyed`: its mapping's keys are names the game gives, shown as
    they are."""
    if isinstance(view, dict):
        if not view:
            return [f"{indent}(none)"]
        lines: list[str] = []
        for name in sorted(view, key=str):
            value = view[name]
            field = key if keyed else str(name)
            shown = printable(labels.label(str(name)))  # a name the game gives: itself
            keyed_below = not keyed and str(name) in labels.keyed
            if _plain(value) or value in ({}, [], ()):
                lines.append(f"{indent}{shown}: {_scalar(value, labels, field)}")
            else:
                lines.append(f"{indent}{shown}:")
                lines += view_lines(value, indent + "  ", labels, key=field, keyed=keyed_below)
        return lines
    if isinstance(view, (list, tuple)):
        if not view:
            return [f"{indent}(none)"]
        if all(_plain(v) for v in view):
            return [f"{indent}{_scalar(view, labels, key)}"]
        lines = []
        for item in view:
            below = view_lines(item, indent + "  ", labels, key=key)
            lines.append(f"{indent}- {below[0].lstrip()}")
            lines += below[1:]
        return lines
    return [f"{indent}{_scalar(view, labels, key)}"]


# A diff path's steps (engine/replay.py `diff`): a field or key, or a list index.
_STEP = re.compile(r"\[(\d+)\]|([^.\[\]]+)")


def change_said(change: Change, labels: Labels = NO_LABELS) -> tuple[str, str, str]:
    """One change of `replay --diff` as `umpire state` says a view: where (each field by
    its label, a name the game gives as `state` shows it, a list's element by its place
    from 1), and the value before and after in words. `--json` keeps paths and values."""
    steps: list[str] = []
    field, keyed = "", False
    for index, name in _STEP.findall(change.path):
        if index:
            steps.append(f"item {int(index) + 1}")
        else:
            steps.append(printable(labels.label(name)))
            if keyed:  # a name the game gives: its values keep their mapping's field
                keyed = False
            else:
                field, keyed = name, name in labels.keyed
    if not steps:
        steps.append("(the whole state)")

    def value(side: Any, absent: bool) -> str:
        if absent:
            return "(absent)"
        if _plain(side) or side in ({}, [], ()):
            return _scalar(side, labels, field)
        return "\n".join(view_lines(side, "", labels, key=field, keyed=keyed))

    return (
        " › ".join(steps),
        value(change.before, change.added),
        value(change.after, change.removed),
    )


def _plain(value: Any) -> bool:
    """A value shown on its key's line: a scalar, or a list of scalars."""
    if isinstance(value, (list, tuple)):
        return all(not isinstance(v, (dict, list, tuple)) for v in value)
    return not isinstance(value, dict)


def _scalar(value: Any, labels: Labels = NO_LABELS, key: str = "") -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_scalar(v, labels, key) for v in value) if value else "(none)"
    named = labels.shown(key, value) if key else None
    if named is not None:
        return printable(named)
    if value == {} or value == "":
        return "(none)"
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str) and _KEY_VALUE.fullmatch(value):
        # A coded value with no declared name, in words as the table says it
        # (clients/web/render.js `said`): "ceiling_level" -> "ceiling level".
        return value.replace("_", " ")
    return printable(str(value))


def shared_tail(texts: list[str], separator: str = "; ") -> str:
    """The clause every one of `texts` ends with, after `separator`, or "" (none, or one
    text, or a clause that would leave a text with nothing of its own). `umpire scenarios
    downtown` says its sixteen cards' common SAMPLE note once, not on every row."""
    if len(texts) < 2:
        return ""
    reversed_common = ""
    for letters in zip(*(reversed(text) for text in texts), strict=False):
        if len(set(letters)) != 1:
            break
        reversed_common += letters[0]
    common = reversed_common[::-1]
    for start in range(len(common)):
        tail = common[start:]
        heads = [text[: len(text) - len(tail)] for text in texts]
        if all(head.endswith(separator) and head != separator for head in heads):
            return tail
    return ""
