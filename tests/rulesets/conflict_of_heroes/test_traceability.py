"""Traceability: every numbered rule of the seed is cited in the package code or listed as
out of scope, with a reason, in the package README (003_368c69a730e6e14a.txt)."""

from __future__ import annotations

import re
from pathlib import Path

from umpire.engine.rulesets import conflict_of_heroes
from umpire.testing.support.seeds import seed_text

PACKAGE = Path(conflict_of_heroes.__file__).parent
SEED = "003_368c69a730e6e14a.txt"


def _rules() -> set[str]:
    """Rule numbers in the seed, base-game (AtB) references marked as such."""
    found = set()
    for m in re.finditer(r"(?<![\d.])(\d+\.\d+(?:\.\d+)*)( AtB)?", seed_text(SEED)):
        found.add(m.group(1) + (" AtB" if m.group(2) else ""))
    return found


def test_seed_rules_are_found() -> None:
    """The regex finds the seed's numbered rules."""
    rules = _rules()
    assert {"3.0", "3.1.1", "4.0", "5.1.1", "5.2", "5.3.1", "7.3", "7.7.3 AtB"} <= rules


def test_every_rule_is_cited_or_out_of_scope() -> None:
    """A rule is traced when the code cites it as a string literal ("5.2") or the README
    has a row for it saying 'out of scope: <reason>'."""
    code = "\n".join(p.read_text() for p in sorted(PACKAGE.glob("*.py")))
    readme = (PACKAGE / "README.md").read_text()
    missing = []
    for rule in sorted(_rules()):
        cited = not rule.endswith("AtB") and f'"{rule}"' in code
        row = re.search(rf"^\| {re.escape(rule)}\b[^\n]*\| out of scope: \S", readme, re.M)
        if not (cited or row):
            missing.append(rule)
    assert missing == [], f"rules neither cited nor out of scope: {missing}"


def test_every_rule_has_a_readme_row() -> None:
    """The README rule map lists every rule of the seed."""
    readme = (PACKAGE / "README.md").read_text()
    for rule in _rules():
        assert re.search(rf"^\| {re.escape(rule)}\b", readme, re.M), rule
