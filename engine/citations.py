"""Citations as people read them: "Downtown solo rules 3.2.1 (SAM Activation Check)".

Events cite a seed by its file name and a rule number ("000_842c81c5c58bc2f6.txt 3.2.1"),
and stay so: the audit compares events byte for byte. This is for display only (the
terminal, `explain`, the viewer): each ruleset names its seed's title once
(`Ruleset.seed_title`) and ships the seed's headings by rule number
(`rule_titles.json` in its data package, read from the seed by tests/support/rule_titles.py).
"""

from __future__ import annotations

import importlib
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from umpire.engine import registry
from umpire.engine.ruleset import Ruleset
from umpire.events.errors import UmpireError

_SEED_FILE = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b")
_NUMBER = re.compile(r" (S?\d+(?:\.\d+)*)\b")


# Seed file name -> (the seed's title, its headings by rule number).
SeedNames = dict[str, tuple[str, dict[str, str]]]


def rule_titles(ruleset: Ruleset[Any]) -> dict[str, str]:
    """The seed's headings by rule number ({} when the ruleset ships none)."""
    if not ruleset.data_package:
        return {}
    package_file = importlib.import_module(ruleset.data_package).__file__
    path = Path(package_file).parent / "rule_titles.json" if package_file else None
    if path is None or not path.is_file():
        return {}
    titles: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return titles


@cache
def seed_names() -> SeedNames:
    """Every installed ruleset's seed, with its title and headings (this imports every
    installed ruleset: where one game's events are shown, `names_of` its ruleset is enough)."""
    names: SeedNames = {}
    for name in registry.available():
        try:
            ruleset = registry.get(name)
        except UmpireError:
            continue
        names.update(names_of(ruleset))
    return names


def names_of(ruleset: Ruleset[Any]) -> SeedNames:
    """One ruleset's seed with its title and headings, for `readable` over the events of a
    game of that ruleset (they cite its seed), without importing the other rulesets."""
    if ruleset.seed and ruleset.seed_title:
        return {ruleset.seed: (ruleset.seed_title, rule_titles(ruleset))}
    return {}


def heading(titles: dict[str, str], number: str) -> str:
    """The heading of rule `number`, or of the nearest rule above it ("3.2.5" -> "3.2" ->
    "3"; "S5.3" -> "S5.0")."""
    parts = number.split(".")
    for n in range(len(parts), 0, -1):
        key = ".".join(parts[:n])
        found = titles.get(key) or titles.get(key + ".0")
        if found:
            return found
    return ""


def readable(text: str, names: SeedNames | None = None) -> str:
    """`text` with every seed file name replaced by the seed's title, and the heading of
    the rule number after it added unless the citation already names it."""
    names = seed_names() if names is None else names

    def one(match: re.Match[str]) -> str:
        seed = match.group(0)
        if seed not in names:
            return seed
        return names[seed][0]

    out: list[str] = []
    at = 0
    for match in _SEED_FILE.finditer(text):
        out.append(text[at : match.start()])
        out.append(one(match))
        at = match.end()
        known = names.get(match.group(0))
        number = _NUMBER.match(text, at)
        if known is None or number is None:
            continue
        out.append(number.group(0))
        at = number.end()
        title = heading(known[1], number.group(1))
        if title and not text[at:].lstrip(" ,:").startswith(title):
            out.append(f" ({title})")
    out.append(text[at:])
    return "".join(out)
