"""Traceability: every numbered rule of the seed is cited in the package code or listed in
the package README with where it lives or why it is out of scope."""

from __future__ import annotations

import re
from pathlib import Path

from tests.rulesets.downtown.setups import SEED
from umpire.testing.support.seeds import seed_text

PACKAGE = Path(__file__).resolve().parents[3] / "engine" / "rulesets" / "downtown"


def _rules() -> list[str]:
    return re.findall(r"^(\d+(?:\.\d+)*) [A-Z]", seed_text(SEED), re.M)


def test_seed_rules_are_found() -> None:
    rules = _rules()
    assert {"1.2.3", "2.1.6", "3.4.5", "4.1.1", "5.9.4"} <= set(rules)
    assert len(rules) >= 60


def test_every_rule_is_cited_or_listed() -> None:
    code = "\n".join(p.read_text() for p in PACKAGE.rglob("*.py"))
    cited = set(re.findall(r'cite\("(\d+(?:\.\d+)*)', code))
    readme = (PACKAGE / "README.md").read_text()
    listed = set(re.findall(r"^\| (\d+(?:\.\d+)*)[ ,]", readme, re.M))
    missing = [r for r in _rules() if r not in cited and r not in listed]
    assert missing == []
    uncited = [r for r in _rules() if r not in cited]
    for rule in uncited:
        row = re.search(rf"^\| {re.escape(rule)} [^|]*\| (.+) \|$", readme, re.M)
        assert row and row[1].strip(), rule
