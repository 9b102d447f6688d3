"""The rulesets this build knows, by name. Built-in rulesets import lazily on first use."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from engine.errors import UnknownRuleset
from engine.ruleset import Ruleset

# name -> module that defines RULESET. Rulesets land here as their issues are built.
BUILTIN: dict[str, str] = {
    "nightfighter": "engine.rulesets.nightfighter",
    "downtown": "engine.rulesets.downtown",
    "down_in_flames": "engine.rulesets.down_in_flames",
    "conflict_of_heroes": "engine.rulesets.conflict_of_heroes",
    "age_of_dogfights": "engine.rulesets.age_of_dogfights",
}

_loaded: dict[str, Ruleset[Any]] = {}


def register(ruleset: Ruleset[Any]) -> None:
    """Make a ruleset available by its name (tests and plug-ins)."""
    _loaded[ruleset.name] = ruleset


def load_module(spec: str) -> Ruleset[Any]:
    """Import `module:ATTRIBUTE` (ATTRIBUTE defaults to RULESET) and register it."""
    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UnknownRuleset(f"cannot import ruleset module {spec!r}: {exc}") from exc
    ruleset = getattr(module, attr or "RULESET", None)
    if not isinstance(ruleset, Ruleset):
        raise UnknownRuleset(f"{spec!r} does not name a Ruleset")
    register(ruleset)
    return ruleset


def available() -> list[str]:
    """Names of every ruleset that can be loaded, sorted."""
    names = set(_loaded)
    for name, module in BUILTIN.items():
        if importlib.util.find_spec(module) is not None:
            names.add(name)
    return sorted(names)


def get(name: str) -> Ruleset[Any]:
    """The ruleset called `name`, or UnknownRuleset listing the ones there are."""
    found = _loaded.get(name)
    if found is not None:
        return found
    module = BUILTIN.get(name)
    if module is not None and importlib.util.find_spec(module) is not None:
        return load_module(module)
    raise UnknownRuleset(
        f"unknown ruleset {name!r}; available: {', '.join(available()) or 'none'}",
        ruleset=str(name)[:80],
        available=available(),
    )
