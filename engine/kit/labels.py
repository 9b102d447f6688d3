"""A ruleset's words for its view: each field's label and the names of its coded values.

A ruleset declares them once, like its secrets (engine/secret_fields.py), and every
surface shows a role's view by them: `umpire state`, the browser (`/rulesets.json` carries
them as `labels` and `value_labels`), never a snake_case key or a sentinel like -1. Keys
are the bare field names as they appear anywhere in the view, nested ones included; a
coded value is named by its raw value as a string ("minus_1", "-1", "true"). The
contract suite (testing/contract/test_labels.py) plays every installed ruleset and fails
on a field of a reachable view without a label, or a coded value without a name.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

import msgspec
from msgspec import Struct


class Labels(Struct, frozen=True, kw_only=True):
    """A ruleset's view in the rules' words.

    `fields`: each field name's label. `values`: per field name, the shown text of its
    coded values (enum values by their raw value, a sentinel such as -1). `keyed`: the
    fields whose mapping keys are names the game gives (aircraft ids, a pilot's card
    name), shown as they are, while their values' fields are labelled as usual."""

    fields: dict[str, str] = msgspec.field(default_factory=dict)
    values: dict[str, dict[str, str]] = msgspec.field(default_factory=dict)
    keyed: tuple[str, ...] = ()

    def label(self, key: str) -> str:
        """The field's label (the key itself when none is declared)."""
        return self.fields.get(key, key)

    def shown(self, key: str, value: Any) -> str | None:
        """The declared text of a field's coded value, or None when it has none."""
        names = self.values.get(key)
        if not names:
            return None
        return names.get(raw(value))

    def words(self, key: str, value: Any) -> str:
        """A coded value as text for people: its declared text, else its words
        ("sam_acquisition" -> "sam acquisition"), never the code (issue 41 item 7)."""
        shown = self.shown(key, value)
        return shown if shown is not None else raw(value).replace("_", " ")


def raw(value: Any) -> str:
    """A value as `Labels.values` keys it: a string as it is, a bool as JSON, a number
    as its digits."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else str(value)


NO_LABELS = Labels()


def named(values: type[Enum], **shown: str) -> dict[str, str]:
    """Every value of an enum by the name it is shown with: `shown` by member name
    (MINUS_ONE="-1"), else the value's words ("sam_acquisition" -> "Sam acquisition"),
    so a member added later is never shown as a raw code."""
    return {
        str(m.value): shown.get(m.name, str(m.value).replace("_", " ").capitalize()) for m in values
    }
