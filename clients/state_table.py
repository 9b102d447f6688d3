"""A game's state as the player's role sees it, in the ruleset's own words, laid out for a
terminal: what `umpire play`'s `state` prints.

It says the view as the browser table's state panel does (clients/web/render.js
`stateDetails`): the tracks (the view's plain values) first, then each part under its
heading, a list of records as a table, every field by the ruleset's label and every coded
value by its name (`/rulesets.json`'s `labels` and `value_labels`, engine/kit/labels.py),
else the key in words ("vid_limit" -> "Vid limit"); a yes or no as "yes" or "no", a rule
the state holds by the rulebook's title (events/citation_words.py). Never a snake_case
key, a code name or JSON. Text the game or a player wrote is escaped (`shown`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from umpire.events.citation_words import SeedNames, cited_in_words
from umpire.events.terminal_text import printable

# A lowercase snake_case value (an enum's name) is said in words (render.js `wording`).
_CODE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+", re.ASCII)
_SEED_FILE = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b")


def humanized(key: str) -> str:
    """A key in words, its first letter capital ("vid_limit" -> "Vid limit"), as the
    table names a field the ruleset gives no label."""
    words = key.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


class StateWords:
    """How the state's fields are named and its values said: the ruleset's `labels` (by
    bare field name) and `value_labels` (per field, by the raw value as text), and the
    seeds' titles (`names`) for a rule the state holds."""

    def __init__(
        self,
        labels: Mapping[str, str] | None = None,
        values: Mapping[str, Mapping[str, str]] | None = None,
        names: SeedNames | None = None,
    ) -> None:
        self.labels = labels or {}
        self.values = values or {}
        self.names = names or {}

    def key(self, key: str) -> str:
        """A field by its label, else in words."""
        return printable(self.labels.get(key) or humanized(key))

    def value(self, key: str, value: Any) -> str:
        """A field's value in words (render.js `wording().value`)."""
        named = self.values.get(key, {}).get(_raw(value)) if _scalar(value) else None
        if named is not None:
            return printable(named)
        if isinstance(value, str) and _SEED_FILE.search(value):
            return printable(cited_in_words(value, self.names))
        if isinstance(value, str) and _CODE.fullmatch(value):
            return value.replace("_", " ")
        if isinstance(value, bool):
            return "yes" if value else "no"
        if value is None:
            return "—"
        if isinstance(value, (list, tuple)):
            return ", ".join(self.value(key, item) for item in value) if value else "none"
        if isinstance(value, dict):
            said = (f"{self.key(str(k))}: {self.value(str(k), v)}" for k, v in value.items())
            return "; ".join(said)
        return printable(str(value))


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _raw(value: Any) -> str:
    """A value as `value_labels` keys it (engine/kit/labels.py `raw`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else str(value)


def state_table(state: Any, words: StateWords) -> RenderableType:
    """The state's layout: "Tracks" (its plain values), then each part under its label."""
    if not isinstance(state, dict):
        return Text(words.value("", state))
    parts: list[RenderableType] = []
    scalars = [(str(k), v) for k, v in state.items() if _scalar(v)]
    if scalars:
        parts += [_heading("Tracks"), _tracks(scalars, words)]
    for key, value in state.items():
        if not _scalar(value):
            parts += _section(str(key), value, words, words.key(str(key)))
    return Group(*parts)


def changed_tracks(before: Any, after: Any, words: StateWords) -> str:
    """The tracks (the state's plain values) that differ from `before`, on one line
    ("Turn: 2 · Phase: combat"): what `play` prints after a move; "" where none did."""
    if not isinstance(after, dict):
        return ""
    old = before if isinstance(before, dict) else {}
    return " · ".join(
        f"{words.key(str(k))}: {words.value(str(k), v)}"
        for k, v in after.items()
        if _scalar(v) and (k not in old or old[k] != v or type(old[k]) is not type(v))
    )


def _heading(title: str) -> Text:
    return Text(title, style="bold underline")


def _tracks(entries: Iterable[tuple[str, Any]], words: StateWords) -> Table:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    for key, value in entries:
        grid.add_row(Text(words.key(key)), Text(words.value(key, value)))
    return grid


def _section(key: str, value: Any, words: StateWords, title: str) -> list[RenderableType]:
    """A part of the state (render.js `section`): a list of records as a table, a list of
    plain values on one line, a record as its tracks then its own parts."""
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, dict) for v in value):
            return [_records(value, words, f"{title} ({len(value)})")]
        said = ", ".join(words.value(key, v) for v in value) if value else "none"
        line = Text()
        line.append(f"{title}: ", style="bold")
        line.append(said)
        return [line]
    parts: list[RenderableType] = [_heading(title)]
    scalars = [(str(k), v) for k, v in value.items() if _scalar(v)]
    if scalars:
        parts.append(_tracks(scalars, words))
    elif not value:
        parts.append(Text("none"))
    for inner, v in value.items():
        if not _scalar(v):
            parts += _section(str(inner), v, words, f"{title}: {words.key(str(inner))}")
    return parts


def _records(rows: Sequence[dict[str, Any]], words: StateWords, caption: str) -> Table:
    columns: list[str] = []
    for row in rows:
        columns += [str(k) for k in row if str(k) not in columns]
    table = Table(title=caption, title_justify="left", title_style="bold")
    for column in columns:
        table.add_column(words.key(column), overflow="fold")
    for row in rows:
        table.add_row(*(Text(words.value(c, row[c])) if c in row else "" for c in columns))
    return table
