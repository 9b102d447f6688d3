"""A ruleset's documented readings of ambiguous rules, as data (issue 40).

Each `Reading` names the setup field that switches it, the rule it reads (seed file and
rule number), its default, every alternative, and the README section that argues the
choice. `umpire readings RULESET` and /rulesets.json list them; a dispute may claim one of
the alternatives (engine/disputes.py re-makes the disputed decision under it), and the
cross-ruleset suite (testing/contract/test_readings.py) checks that every alternative
changes a decision in some reachable state.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import Struct

Value = str | bool | int


class Reading(Struct, frozen=True, kw_only=True):
    """One documented reading: `name` is the top-level setup field that switches it."""

    name: str
    rule: str  # the seed file and rule number it reads, as a citation
    default: Value
    alternatives: tuple[Value, ...]
    readme: str  # the README section (and ledger row) that argues the default
    summary: str  # one line: what the alternatives mean
    # Where the alternatives show, when the ruleset's driven test games do not reach it (no
    # shipped card has a gyro sight): a JSON object of "setup" fields over the test set-up
    # and "commands" played first, after which an alternative changes a decision; what
    # the cross-ruleset check plays (testing/contract/test_readings.py).
    probe: str = ""


def probe_of(reading: Reading, setup: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    """`setup` with the reading's probe fields, and the probe's commands (plain data)."""
    probe = msgspec.json.decode(reading.probe) if reading.probe else {}
    return {**setup, **probe.get("setup", {})}, list(probe.get("commands", []))


def setup_value(reading: Reading, setup: dict[str, Any]) -> Value:
    """The value of `reading` a (plain) setup plays under: its field, else the default."""
    value = setup.get(reading.name, reading.default)
    return value if isinstance(value, str | bool | int) else reading.default


def with_value(setup: dict[str, Any], reading: Reading, value: Value) -> dict[str, Any]:
    """A copy of a plain setup with `reading` switched to `value`."""
    return {**setup, reading.name: value}


def value_text(value: Value) -> str:
    """A reading's value as people type it: a name bare, `true`/`false` and numbers as JSON."""
    return value if isinstance(value, str) else msgspec.json.encode(value).decode()


def parse_value(reading: Reading, text: str) -> Value | None:
    """The declared value (default or alternative) that `text` names, or None."""
    for value in (reading.default, *reading.alternatives):
        if value_text(value) == text:
            return value
    return None


def listed_reading(reading: Reading) -> dict[str, Any]:
    """A reading as listed (`umpire readings --json`, /rulesets.json); a dispute names a
    value as `value_text` prints it (true/false bare)."""
    return {
        "name": reading.name,
        "rule": reading.rule,
        "default": reading.default,
        "alternatives": list(reading.alternatives),
        "readme": reading.readme,
        "summary": reading.summary,
    }
