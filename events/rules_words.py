"""The rules' own text and the log's event types said in words a player reads.

Display only: the events keep their text and types as decided (a rule's wording changed in
the log would make every earlier log audit as a different decision).

- `in_words`: a key the rules wrote into their own words (an enum's name: Nightfighter's
  corkscrew "loses searchlight_fix, tally", Downtown's `in_the_air`) said in words
  ("searchlight fix"), by the same rule as the browser table's `inWords`
  (clients/web/citations.js). tests/data/in_words.json holds the cases both are tested
  on, so the two cannot drift.
- `type_in_words`: an event type as a player reads it ("downtown.SamReacted" -> "SAM
  reacted", "DiceRolled" -> "Dice rolled"); the exact type stays in every JSON output.
  The browser table says types by the same rule (clients/web/citations.js `typeInWords`,
  with `acronyms` of the ruleset's /rulesets.json entry); tests/data/type_words.json
  holds the cases both are tested on.

It lives in events/ because both the server's commands and the clients' (which import
events only) print event text.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from typing import Any

# A lowercase snake_case key: letters and digits joined by underscores, starting with a
# letter. ASCII word boundaries, as JavaScript's \b: a seed file's name (digits first),
# an id, a hash, a number, an Upper_Case word or ordinary text never match.
_KEY = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b", re.ASCII)

# The words of a CamelCase type: a run of capitals before a capitalised word or the end
# ("AISearched" -> "AI", "Searched"), else a capitalised (or lowercase) word with digits.
_CAMEL_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z]|[0-9]|$)|[A-Z]?[a-z]+[0-9]*|[0-9]+")
_CAMEL = re.compile(r"[A-Za-z][A-Za-z0-9]*")

# A word written in capitals in a ruleset's own words ("AAA", "SAM", "DRV", "AI").
_ACRONYM = re.compile(r"\b[A-Z]{2,}\b", re.ASCII)


def in_words(text: str) -> str:
    """`text` with every snake_case key in words: "loses searchlight_fix, tally" ->
    "loses searchlight fix, tally"."""
    return _KEY.sub(lambda match: match.group().replace("_", " "), text)


def acronyms(
    title: str, labels: Mapping[str, str], value_labels: Mapping[str, Mapping[str, str]]
) -> frozenset[str]:
    """The words a ruleset writes in capitals in its title and view labels (the same
    fields /rulesets.json carries), for `type_in_words`: Downtown's AAA, DRV, SAM, US."""
    texts: list[str] = [title, *labels.values()]
    for named in value_labels.values():
        texts += named.values()
    return frozenset(_capitals(texts))


def _capitals(texts: Iterable[str]) -> Iterable[str]:
    for text in texts:
        yield from _ACRONYM.findall(text)


def type_in_words(event_type: str, capitals: Collection[str] = ()) -> str:
    """An event type in words, its ruleset's key left off: "downtown.AaaPlaced" -> "AAA
    placed" when "AAA" is one of the ruleset's `capitals` (`acronyms`), "DiceRolled" ->
    "Dice rolled", "nightfighter.AISearched" -> "AI searched". A type that is not one
    CamelCase name is said by `in_words`."""
    name = event_type.rpartition(".")[2]
    if not _CAMEL.fullmatch(name):
        return in_words(name)
    words = []
    for word in _CAMEL_WORD.findall(name):
        if word.upper() in capitals or (len(word) > 1 and word.isupper()):
            words.append(word.upper())
        else:
            words.append(word.lower())
    said = " ".join(words)
    return said[:1].upper() + said[1:]


def field_text(value: Any) -> str:
    """An event's or a command's field value on one line, as a player types it in words
    (`detected=false`, `flights=[{id: x, on_map: true}]`), not a Python repr (`False`)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(field_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {field_text(v)}" for k, v in value.items()) + "}"
    return str(value)
