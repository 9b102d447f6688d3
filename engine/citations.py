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
from functools import cache
from pathlib import Path
from typing import Any

from umpire.engine import registry
from umpire.engine.ruleset import Ruleset
from umpire.events.citation_words import SeedNames, cited_in_words
from umpire.events.errors import UmpireError


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


def readable(text: str, names: SeedNames | None = None) -> str:
    """`text` with every seed file name replaced by the seed's title, and the heading of
    the rule number after it added unless the citation already names it
    (events/citation_words.py; `names`: every installed ruleset's unless given)."""
    return cited_in_words(text, seed_names() if names is None else names)
