"""Every numbered rule and modification of the seed is cited in the package code or listed
as out of scope (with a reason) in its README."""

from __future__ import annotations

import re
from pathlib import Path

from umpire.testing.support.seeds import seed_text

PACKAGE = Path(__file__).resolve().parents[3] / "engine" / "rulesets" / "nightfighter"


def seed_rules() -> list[str]:
    """Headings S<n>.<m>, SCENARIO <x> and the campaign sections. The seed's OCR writes
    S14.0-S19.0 as 'SI4.0'-'SI9.0' and S21.0 as 'SI21.0': 'SI' reads as 'S1' before a
    single digit and as 'S' before two."""
    text = seed_text("004_c3eb2ad371d7bb6a.txt")
    rules = []
    for prefix, major, minor in re.findall(r"^#{2,4} (SI|S)(\d+)\.(\d+)", text, re.M):
        if prefix == "SI" and len(major) == 1:
            major = "1" + major
        rules.append(f"S{major}.{minor}")
    rules += [f"SCENARIO {s}" for s in re.findall(r"^### SCENARIO (\w+)", text, re.M)]
    rules += re.findall(r"^#{2,3} (CAMPAIGN MODIFICATIONS|Pilot Campaign)", text, re.M)
    return rules


def test_every_rule_is_cited_or_out_of_scope() -> None:
    rules = seed_rules()
    assert len(rules) == 29 and "S14.0" in rules and "S21.0" in rules and "SCENARIO 8F" in rules
    code = "\n".join(p.read_text() for p in sorted(PACKAGE.rglob("*.py")))
    readme = (PACKAGE / "README.md").read_text()
    missing = []
    for rule in rules:
        cited = re.search(re.escape(rule) + r"(?![\d])", code)
        excused = re.search(rf"^\| {re.escape(rule)}\b.*out of scope: \S", readme, re.M)
        if not cited and not excused:
            missing.append(rule)
    assert missing == []


def test_every_rule_is_in_the_readme_map() -> None:
    readme = (PACKAGE / "README.md").read_text()
    for rule in seed_rules():
        assert re.search(rf"^\| {re.escape(rule)}\b", readme, re.M) or rule in readme, rule
