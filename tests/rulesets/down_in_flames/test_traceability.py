"""Every numbered rule of the seed is cited in the package code or listed as out of scope
(with a reason) in the package README."""

from __future__ import annotations

import re
from pathlib import Path

from umpire.engine.rulesets.down_in_flames.terms import SEED
from umpire.testing.support.seeds import seed_text

PACKAGE = Path(__file__).resolve().parents[3] / "engine" / "rulesets" / "down_in_flames"


def _next_numbers(previous: str) -> set[str]:
    parts = [int(x) for x in previous.split(".")]
    found = {".".join(map(str, [*parts, 1])), ".".join(map(str, [*parts, 1, 1]))}
    for depth in range(len(parts), 0, -1):
        bumped = parts[:depth]
        bumped[-1] += 1
        found.add(".".join(map(str, bumped)))
    return found


def seed_rules() -> list[str]:
    """The rule numbers of the seed, in order. The transcription runs numbers into the
    preceding word or page number ("to18.2.1."), so each number is read as the expected
    successor of the previous rule."""
    text = seed_text(SEED)
    text = text[text.index("Supplemental Rules1.") : text.index("Designer’s Notes. I admit")]
    rules: list[str] = []
    previous: str | None = None
    for match in re.finditer(r"[\d.]+", text):
        token = match.group()
        if not token.endswith("."):
            continue
        body = token[:-1]
        expected = {"1"} if previous is None else _next_numbers(previous)
        for start in range(len(body)):
            if body[start].isdigit() and body[start:] in expected:
                previous = body[start:]
                rules.append(previous)
                break
    return rules


def test_the_seed_has_its_rules() -> None:
    rules = seed_rules()
    assert rules[:3] == ["1", "2", "2.1"] and rules[-1] == "11"
    assert {"3.2.10", "4.1.10", "6.1.7", "8.4.4", "9.1.11", "10.11.4", "10.15"} <= set(rules)
    assert len(rules) > 100


def _cited_in_code() -> str:
    return "\n".join(p.read_text() for p in sorted(PACKAGE.rglob("*.py")))


def test_every_rule_is_cited_or_out_of_scope() -> None:
    code = _cited_in_code()
    readme = (PACKAGE / "README.md").read_text()
    missing = []
    for rule in seed_rules():
        escaped = re.escape(rule)
        if "." in rule:
            in_code = re.search(rf"(?<![\d.]){escaped}(?![\d]|\.\d)", code)
        else:  # a section heading: cited itself, or through any of its rules
            in_code = re.search(rf'cite\("{escaped}(\.\d+)*"\)', code)
        out = re.search(rf"^\| {escaped} \|.*out of scope: \S", readme, re.MULTILINE)
        if not in_code and not out:
            missing.append(rule)
    assert not missing, f"rules neither cited in code nor out of scope in README: {missing}"


def test_every_rule_is_in_the_readme_map() -> None:
    readme = (PACKAGE / "README.md").read_text()
    absent = [r for r in seed_rules() if not re.search(rf"^\| {re.escape(r)} \|", readme, re.M)]
    assert not absent, absent
