"""Contract: every citation in a ruleset's code names a rule of its rules document (the
seed, or RULES.md of a ruleset that ships its rules; testing/support/citations.py). The
citations its games produce are checked by test_play.py. A missing seed fails."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest

from umpire.engine import registry
from umpire.testing.support import citations, seeds
from umpire.testing.support.drivers import rulesets


def code_citations(name: str) -> set[str]:
    """Every string in the ruleset package's code that is a whole citation: literals, and
    module-level constants built from the seed's name (`f"{SEED} 3.2"`)."""
    ruleset = registry.get(name)
    package = importlib.import_module(ruleset.data_package or ruleset.decide.__module__)
    prefix = f"{ruleset.seed} "
    found: set[str] = set()
    modules = [package]
    if hasattr(package, "__path__"):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            modules.append(importlib.import_module(info.name))
    for module in modules:
        found |= {v for v in vars(module).values() if isinstance(v, str) and v.startswith(prefix)}
        source = Path(module.__file__ or "").read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and text.startswith(prefix) and "\n" not in text:
                found.add(text)
    return found


@pytest.mark.parametrize("name", rulesets())
def test_every_citation_in_the_code_names_a_rule(name: str) -> None:
    found = code_citations(name)
    assert found, f"{name}: no citation of {registry.get(name).seed} found in its code"
    wrong = sorted(filter(None, (citations.unresolved(name, c) for c in sorted(found))))
    assert wrong == [], "\n".join(wrong)


def test_a_citation_of_no_rule_is_caught() -> None:
    """The resolver itself: a rule the document does not have, another document, a heading
    it does not print."""
    assert citations.unresolved("counter", "test-counter R2") is None
    assert "R9 is not in" in (citations.unresolved("counter", "test-counter R9") or "")
    assert "does not cite" in (citations.unresolved("counter", "other-rules R1") or "")
    assert "neither" in (citations.unresolved("counter", "test-counter Teleport") or "")
    assert citations.unresolved("downtown", "000_842c81c5c58bc2f6.txt 3.2.1") is None
    assert citations.unresolved("downtown", "000_842c81c5c58bc2f6.txt 3.2.99") is not None


def test_a_missing_seed_fails_and_does_not_skip(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("UMPIRE_SEEDS_DIR", str(tmp_path))
    with pytest.raises(pytest.fail.Exception) as info:
        seeds.seed_text("000_842c81c5c58bc2f6.txt")
    assert "not found in" in str(info.value) and "UMPIRE_SEEDS_DIR" in str(info.value)


def test_a_missing_seed_skips_on_a_users_clone(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Neither CI nor UMPIRE_SEEDS_DIR: the documents are optional, the check skips with
    the reason the run's summary line counts."""
    monkeypatch.delenv("UMPIRE_SEEDS_DIR", raising=False)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(seeds, "seeds_dir", lambda: tmp_path)
    with pytest.raises(pytest.skip.Exception) as info:
        seeds.seed_text("000_842c81c5c58bc2f6.txt")
    assert seeds.SKIP_REASON in str(info.value)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception):
        seeds.seed_text("000_842c81c5c58bc2f6.txt")
