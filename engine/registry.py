"""The rulesets this build knows, by name: every `umpire.rulesets` entry point installed.

A ruleset ships as a package whose metadata declares an entry point in the group
`umpire.rulesets`, named after the ruleset and pointing at its `Ruleset` object
(`counter = "umpire_counter:RULESET"`); the five built-ins are declared so in umpire's own
pyproject.toml. Entry points are listed from the installed metadata, sorted by name, and a
ruleset module is imported on first use only. Two different entry points of one name, or
an entry point that does not load to a Ruleset of its own name, are a BrokenRuleset error
naming the package and the entry point.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING, Any

from umpire.engine.errors import BrokenRuleset, UnknownRuleset
from umpire.engine.ruleset import Ruleset

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

GROUP = "umpire.rulesets"
# The distribution that ships the built-in rulesets (server/publish_schemas.py publishes those).
HOME = "umpire-wargames"

_loaded: dict[str, Ruleset[Any]] = {}
# Installed rulesets that could not be loaded, with the error, kept once per process like
# the entry points (a failed import is not retried on every listing).
_broken: dict[tuple[str, str], BrokenRuleset] = {}  # by entry point (name, value)


def register(ruleset: Ruleset[Any]) -> None:
    """Make a ruleset available by its name without installing it (tests)."""
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


@cache
def entry_points(group: str) -> tuple[EntryPoint, ...]:
    """The installed entry points of `group`, read from the packages' metadata once per
    process (a scan costs milliseconds, and every connection's welcome lists the rulesets;
    a ruleset installed later is found after a restart)."""
    # Imported here: importlib.metadata imports threading and so time, which engine modules
    # may not import (tests/engine/test_purity.py); reading metadata, like importing a
    # ruleset module, reads installed files but no clock and no store.
    from importlib import metadata

    return tuple(metadata.entry_points(group=group))


def _package(point: EntryPoint) -> str:
    dist = point.dist
    return f"{dist.name} {dist.version}" if dist is not None else "an unknown package"


def installed() -> dict[str, EntryPoint]:
    """Every installed ruleset entry point by name, sorted by name. The same entry point
    seen twice (an editable install also found on the path) counts once; two different
    ones of one name are a BrokenRuleset."""
    found: dict[str, EntryPoint] = {}
    for point in sorted(entry_points(group=GROUP), key=lambda p: (p.name, p.value)):
        other = found.get(point.name)
        if other is not None and other.value != point.value:
            raise BrokenRuleset(
                f"two installed rulesets are named {point.name!r}: {other.value} "
                f"(from {_package(other)}) and {point.value} (from {_package(point)}); "
                f"uninstall one of them",
                ruleset=point.name,
            )
        found[point.name] = point
    return found


def _normal(distribution: str) -> str:
    """A distribution name as the package index compares them (PEP 503)."""
    return "-".join(distribution.replace("_", "-").replace(".", "-").lower().split("-"))


def shipped() -> list[str]:
    """Names of the rulesets umpire itself ships, sorted."""
    return [
        n for n, p in installed().items() if p.dist is not None and _normal(p.dist.name) == HOME
    ]


def available() -> list[str]:
    """Names of every ruleset that can be loaded, sorted."""
    return sorted({*_loaded, *installed()})


def _load(point: EntryPoint) -> Ruleset[Any]:
    where = f"entry point {point.name} = {point.value!r} of {_package(point)}"
    try:
        ruleset = point.load()
    except Exception as exc:  # a plug-in's import error, whatever it is, is its own
        raise BrokenRuleset(
            f"ruleset {point.name!r} could not be loaded ({where}): {type(exc).__name__}: {exc}",
            ruleset=point.name,
        ) from exc
    if not isinstance(ruleset, Ruleset):
        raise BrokenRuleset(
            f"ruleset {point.name!r} ({where}) is a {type(ruleset).__name__}, not a Ruleset",
            ruleset=point.name,
        )
    if ruleset.name != point.name:
        raise BrokenRuleset(
            f"ruleset {point.name!r} ({where}) calls itself {ruleset.name!r}; "
            f"the entry point must be named after the ruleset",
            ruleset=point.name,
        )
    return ruleset


def get(name: str) -> Ruleset[Any]:
    """The ruleset called `name`, or UnknownRuleset listing the ones there are."""
    found = _loaded.get(name)
    if found is not None:
        return found
    point = installed().get(name)
    if point is not None:
        known = _broken.get((point.name, point.value))
        if known is not None:
            raise BrokenRuleset(known.message, **known.details)
        try:
            ruleset = _load(point)
        except BrokenRuleset as exc:
            _broken[(point.name, point.value)] = exc
            raise
        register(ruleset)
        return ruleset
    raise UnknownRuleset(
        f"unknown ruleset {name!r}; available: {', '.join(available()) or 'none'}",
        ruleset=str(name)[:80],
        available=available(),
    )


def usable() -> tuple[list[Ruleset[Any]], dict[str, str]]:
    """Every ruleset that loads, sorted by name, and every installed one that does not,
    with its error: one bad package is left out and named, and the others still work."""
    rulesets: list[Ruleset[Any]] = []
    broken: dict[str, str] = {}
    try:
        names = available()
    except BrokenRuleset as exc:  # two packages claim one name: the others still load
        broken[exc.details.get("ruleset", "?")] = str(exc)
        names = sorted(_loaded)
    for name in names:
        try:
            rulesets.append(get(name))
        except UnknownRuleset as exc:
            broken[name] = str(exc)
    return rulesets, broken
