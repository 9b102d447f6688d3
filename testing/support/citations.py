"""What a citation must resolve to: a rule of the ruleset's own rules document.

A citation is "<seed> <reference>" (`Ruleset.seed` is the name citations use), and the
reference is a rule number ("3.2.1", "S13.0", "R2", with any words after it) printed in
the document, or a heading ("Approach Maneuver", "Step II (...)") that the document prints
or that the ruleset README's rule map lists as a row (`| Step II | ...`: a seed whose
headings are garbled or bare numerals, and the README's own traceability test ties each
row to the seed) or heads a section of (`map data`: data the seed leaves to the scenario).
A heading may be followed by a locator the document need not print ("EXAMPLE OF PLAY
turn 13"): its first two or more words suffice. The document is the seed file in
the seeds directory (testing/support/seeds.py) for the built-ins, or `RULES.md` in the
ruleset's own data package for a ruleset that ships its rules with it (the example
ruleset, examples/umpire-counter). A missing document fails, never skips.
"""

from __future__ import annotations

import importlib
import re
from functools import cache
from pathlib import Path
from typing import Any

import msgspec

from umpire.engine import registry
from umpire.engine.citations import rule_titles
from umpire.engine.ruleset import Ruleset
from umpire.testing.support.seeds import seed_text

_NUMBER = re.compile(r"[A-Z]?\d+(?:\.\d+)*(?![\w.])")
# Where a heading reference ends: a bracket, a comma, a colon or a semicolon.
_HEADING_END = re.compile(r"\s*[(,:;]")


def package_rules(ruleset: Ruleset[Any]) -> Path | None:
    """RULES.md of the ruleset's data package, if it ships its rules document with it."""
    if not ruleset.data_package:
        return None
    module = importlib.import_module(ruleset.data_package)
    path = Path(module.__file__ or "").parent / "RULES.md"
    return path if path.is_file() else None


@cache
def document(name: str) -> str:
    """The text of the rules document of ruleset `name`, whitespace collapsed."""
    ruleset = registry.get(name)
    own = package_rules(ruleset)
    text = own.read_text(encoding="utf-8") if own else seed_text(ruleset.seed)
    return re.sub(r"\s+", " ", text)


def _number_in(number: str, text: str) -> bool:
    # Transcribed seeds run a rule's number into the sentence before it ("a turn.8.4.1.").
    pattern = rf"(?<![\d]){re.escape(number)}(?=[.\s)]|$)(?!\.\d)"
    return (
        re.search(pattern, text) is not None
        or re.search(pattern, text.replace(" ", "")) is not None
    )


@cache
def readme_rows(name: str) -> tuple[str, ...]:
    """The first cells of the rows of the ruleset README's tables."""
    ruleset = registry.get(name)
    if not ruleset.data_package:
        return ()
    module = importlib.import_module(ruleset.data_package)
    path = Path(module.__file__ or "").parent / "README.md"
    if not path.is_file():
        return ()
    text = path.read_text(encoding="utf-8")
    rows = re.findall(r"^\|\s*([^|]+?)\s*\|", text, flags=re.M)
    headings = re.findall(r"^#+\s+(.+?)\s*$", text, flags=re.M)
    return tuple(row.strip("()") for row in rows) + tuple(headings)


def _heading_known(name: str, heading: str) -> bool:
    if heading.lower() in document(name).lower():
        return True
    documented = [row.lower() for row in readme_rows(name)]
    return any(
        row == heading.lower() or row.startswith(heading.lower() + " ") for row in documented
    )


def unresolved(name: str, citation: str) -> str | None:
    """Why `citation` does not name a rule of ruleset `name`'s document, or None if it does."""
    ruleset = registry.get(name)
    if not citation.startswith(f"{ruleset.seed} "):
        return f"{citation!r} does not cite the ruleset's rules document {ruleset.seed!r}"
    reference = citation[len(ruleset.seed) + 1 :].strip()
    text = document(name)
    number = _NUMBER.match(reference)
    if number:
        found = number.group(0)
        titles = rule_titles(ruleset)
        if found in titles or f"{found}.0" in titles or _number_in(found, text):
            return None
        return f"{citation!r}: rule {found} is not in {ruleset.seed}"
    words = _HEADING_END.split(reference, maxsplit=1)[0].split()
    heading = " ".join(words)
    for n in range(len(words), min(2, len(words)) - 1, -1):
        if n and _heading_known(name, " ".join(words[:n])):
            return None
    return f"{citation!r}: {heading!r} is neither a rule number nor a heading of {ruleset.seed}"


# A seed file's name as citations carry it ("000_842c81c5c58bc2f6.txt"), as
# engine/citations.py finds it to show the seed's title instead.
SEED_FILE = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b")


def cited_by_file(event: Any) -> list[str]:
    """The words for people in an event (every text but its `rule`, the machine-readable
    citation) that name a seed file: one way to cite (issue 41 item 7) shows a rule by its
    number there, and readers show the `rule` by the seed's title and heading."""
    found: list[str] = []

    def walk(value: Any, key: str) -> None:
        if isinstance(value, str):
            if key != "rule" and SEED_FILE.search(value):
                found.append(f"{key}: {value}")
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(v, str(k))
        elif isinstance(value, list | tuple):
            for v in value:
                walk(v, key)

    walk(msgspec.to_builtins(event), "")
    return found
