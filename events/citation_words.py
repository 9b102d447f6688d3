"""A citation as people read it: "Downtown solo rules 3.2.1 (SAM Activation Check)" for
"000_842c81c5c58bc2f6.txt 3.2.1", given each seed's title and headings by rule number.

Pure text, in events/ because both the server's commands (engine/citations.py gives
them every installed ruleset's names) and the clients' (`umpire watch` and `play` read
the gateway's /citations.json, which the browser table reads too) say citations so.
Display only: the events keep the seed's file name.
"""

from __future__ import annotations

import re

_SEED_FILE = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b")
_NUMBER = re.compile(r" (S?\d+(?:\.\d+)*)\b")

# Seed file name -> (the seed's title, its headings by rule number).
SeedNames = dict[str, tuple[str, dict[str, str]]]


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


def cited_in_words(text: str, names: SeedNames) -> str:
    """`text` with every seed file name in `names` replaced by the seed's title, and the
    heading of the rule number after it added unless the citation already names it."""
    out: list[str] = []
    at = 0
    for match in _SEED_FILE.finditer(text):
        out.append(text[at : match.start()])
        known = names.get(match.group(0))
        out.append(match.group(0) if known is None else known[0])
        at = match.end()
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
