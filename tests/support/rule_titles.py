"""The headings of each seed, by rule number: what engine/rulesets/*/rule_titles.json hold.

Each seed prints its headings its own way; this reads them from the seed text, and
tests/engine/test_citations.py checks the checked-in files (and the viewer's copy,
clients/web/citations.json) against it. Regenerate with
`python -m tests.support.rule_titles` (needs the seeds: testing/support/seeds.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from umpire.engine import registry
from umpire.engine.citations import rule_titles
from umpire.testing.support.seeds import seed_text

REPO = Path(__file__).resolve().parents[2]


SMALL = {"of", "and", "the", "a", "an", "in", "on", "up", "to", "or", "for"}


def _title(text: str) -> str:
    text = re.sub(r"\s+", " ", text.replace("*", "").replace("'", "")).strip(" .:")
    if text.isupper():  # NIGHTFIGHTER prints its headings in capitals
        words = text.split()
        text = " ".join(
            w.lower() if i and w.lower() in SMALL else w if w in ("AI",) else w.capitalize()
            for i, w in enumerate(words)
        )
    return text


def _nightfighter_number(prefix: str, number: str) -> str:
    """The seed's OCR reads S1x as "SIx" ("SI4.0" is S14.0) and prints "SI21.0" for S21.0."""
    if prefix == "S":
        return "S" + number
    return "S" + number if number.split(".")[0].__len__() > 1 else "S1" + number


def headings(seed: str, text: str) -> dict[str, str]:
    """Rule number -> heading, in the seed's own words (first heading of a number wins)."""
    found: dict[str, str] = {}

    def add(number: str, title: str) -> None:
        if number not in found and title:
            found[number] = _title(title)

    for line in text.splitlines():
        line = line.strip()
        # Downtown: "3.2.1 SAM Activation Check"
        if seed.startswith("000_") and (
            m := re.fullmatch(r"(\d+(?:\.\d+)*) ([A-Z][^.]{2,60})", line)
        ):
            add(m.group(1), m.group(2))
        # Conflict of Heroes: "Player Turn (3.0)", "'AP Spent Check' for Units and AIs (3.1.1)"
        if seed.startswith("003_") and (
            m := re.fullmatch(r"([^()]{3,60}?) \((\d+(?:\.\d+)*)\)", line)
        ):
            add(m.group(2), m.group(1))
        # Nightfighter: "### S5.3 MODERATE UNCERTAINTY", "## SI4.0 SEARCHLIGHTS" (S14.0)
        if m := re.fullmatch(r"#+ (SI|S)(\d+\.\d+) (.+)", line):
            add(_nightfighter_number(m.group(1), m.group(2)), m.group(3))
    if seed.startswith("002_"):
        found.update(_run_together(text))
    return dict(sorted(found.items(), key=lambda kv: [int(p) for p in re.findall(r"\d+", kv[0])]))


def _run_together(text: str) -> dict[str, str]:
    """Down in Flames runs its rules together ("...diving.3. Combat System – Fighters and
    Light Bombers. These..."): its sections 1, 2, ... in order, and 10's numbered parts."""
    found: dict[str, str] = {}
    at = 0
    for n in range(1, 12):  # sections 1-11
        # A section number follows a sentence's full stop ("...of 8.4. Combat System"), a
        # sub-rule's follows its parent's ("2.6.4. An enemy"): told apart by the dash-free
        # "N.M." run before it, which a full stop after a sentence has not.
        m = re.compile(
            rf"(?<!\d)(?<!\d\.\d\.)(?<!\d\d\.){n}\. ?([A-Z][A-Za-z0-9 ,:'’–-]{{3,60}}?)\."
        ).search(text, at)
        if m is None:
            break
        found[str(n)] = _title(m.group(1))
        at = m.end()
        if n == 10:
            part_at = at
            for k in range(1, 30):
                p = re.compile(rf"10\.{k}\. ?([A-Z][A-Za-z ,:'’-]{{2,40}}?)\.").search(
                    text, part_at
                )
                if p is None:
                    break
                found[f"10.{k}"] = _title(p.group(1))
                part_at = p.end()
    return found


def expected() -> dict[str, dict[str, str]]:
    """Every built-in ruleset's headings, read from its seed."""
    out: dict[str, dict[str, str]] = {}
    for name in registry.shipped():
        ruleset = registry.get(name)
        out[name] = headings(ruleset.seed, seed_text(ruleset.seed))
    return out


def path_of(name: str) -> Path:
    """Where the ruleset's rule_titles.json is."""
    return REPO / "engine" / "rulesets" / name / "rule_titles.json"


VIEWER_DATA = REPO / "clients" / "web" / "citations.json"


def viewer_data() -> dict[str, dict[str, object]]:
    """What the viewer reads (clients/web/citations.js): each built-in seed's title and
    headings, from the rulesets' own data (engine/citations.py)."""
    out: dict[str, dict[str, object]] = {}
    for name in registry.shipped():
        ruleset = registry.get(name)
        out[ruleset.seed] = {"title": ruleset.seed_title, "headings": rule_titles(ruleset)}
    return dict(sorted(out.items()))


if __name__ == "__main__":
    for ruleset_name, titles in expected().items():
        path_of(ruleset_name).write_text(json.dumps(titles, indent=1, ensure_ascii=False) + "\n")
    VIEWER_DATA.write_text(json.dumps(viewer_data(), indent=1, ensure_ascii=False) + "\n")
