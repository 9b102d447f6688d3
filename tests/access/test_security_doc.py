"""docs/security.md stays true: every party of the threat model has its section, and every
test it cites exists (and, where it names one, so does the test function)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOC = (REPO / "docs" / "security.md").read_text()


@pytest.mark.parametrize(
    "party", ["The operator", "A player", "A spectator", "Other users of the machine",
              "The network", "The store"],
)  # fmt: skip
def test_every_party_has_a_section(party: str) -> None:
    assert re.search(rf"^#+ {party}", DOC, re.MULTILINE), party


def test_every_cited_test_exists() -> None:
    cited = re.findall(r"`(tests/[\w/]+\.py)(?:::(\w+))?`", DOC)
    assert len(cited) > 15
    for path, function in cited:
        source = REPO / path
        assert source.is_file(), path
        if function:
            assert f"def {function}(" in source.read_text(), f"{path}::{function}"
