"""docs/rulesets.md's ten-minute walk-through is examples/umpire-hilo, line for line: each
step's code block is the code under `# Step N` of `umpire_hilo/__init__.py` (step 0: its
imports), and the toml block is its pyproject.toml's entry point. Editing one without the
other fails here."""

from __future__ import annotations

import re
from pathlib import Path

HILO = Path(__file__).resolve().parents[1]
DOC = HILO.parents[1] / "docs" / "rulesets.md"  # the example lives in umpire's checkout


def _walkthrough() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("## Ten minutes")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def _blocks(text: str, language: str) -> list[str]:
    return [b.strip() for b in re.findall(rf"```{language}\n(.*?)```", text, re.S)]


def _steps(source: str) -> list[str]:
    """The module's imports, then the code under each `# Step N` marker, in order."""
    parts = re.split(r"^# Step \d+:.*$", source, flags=re.M)
    imports = parts[0][parts[0].index("from __future__") :]
    return [imports.strip(), *(p.strip() for p in parts[1:])]


def test_the_walkthrough_is_the_hilo_example_line_for_line() -> None:
    source = (HILO / "umpire_hilo" / "__init__.py").read_text(encoding="utf-8")
    assert _blocks(_walkthrough(), "python") == _steps(source)
    (toml,) = _blocks(_walkthrough(), "toml")
    assert toml in (HILO / "pyproject.toml").read_text(encoding="utf-8")


def test_the_check_sees_a_changed_line() -> None:
    source = (HILO / "umpire_hilo" / "__init__.py").read_text(encoding="utf-8")
    changed = source.replace("rounds: Annotated[int, Meta(ge=1, le=20)] = 3", "rounds: int = 3")
    assert _steps(changed) != _blocks(_walkthrough(), "python")
