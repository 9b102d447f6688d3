"""Every section of 001_989a2f850da69b66.txt is cited in the package code or listed as
out of scope (with a reason) in the README."""

from __future__ import annotations

import re
from pathlib import Path

from tests.rulesets.age_of_dogfights.setups import SEED
from umpire.testing.support.seeds import seed_text

PACKAGE = Path(__file__).resolve().parents[3] / "engine" / "rulesets" / "age_of_dogfights"
# Headings whose printed text differs from the citation (the Step II heading is a Cyrillic
# "П" in the seed; the Step headings are bare numerals).
CITED_AS = {"I": "Step I", "П": "Step II", "II": "Step II", "III": "Step III",
            "Altitude": "Approach Maneuver: Altitude"}  # fmt: skip


def headings() -> list[str]:
    return re.findall(r"^#{1,4}\s+(.+?)\s*$", seed_text(SEED), flags=re.M)


def code() -> str:
    return "\n".join(p.read_text() for p in sorted(PACKAGE.rglob("*.py")))


def test_seed_sections_are_found() -> None:
    found = headings()
    assert "Game Setup" in found and "General Rules" in found and len(found) >= 12


def test_every_section_is_cited_or_out_of_scope() -> None:
    text = code()
    readme = (PACKAGE / "README.md").read_text()
    missing = []
    for heading in [*headings(), "Introduction"]:
        citation = CITED_AS.get(heading, heading)
        cited = f'cite("{citation}' in text or f"{SEED} {citation}" in text
        out_of_scope = re.search(rf"\|\s*{re.escape(citation)}[^|]*\|[^|]*\|\s*out of scope: \S",
                                 readme)  # fmt: skip
        if not (cited or out_of_scope):
            missing.append(heading)
    assert missing == []


def test_readme_maps_every_section() -> None:
    readme = (PACKAGE / "README.md").read_text()
    for heading in headings():
        citation = CITED_AS.get(heading, heading)
        assert f"| {citation}" in readme, citation


def test_every_decision_event_cites_the_seed() -> None:
    from umpire.engine.rulesets.age_of_dogfights import citations

    values = [v for k, v in vars(citations).items() if k.isupper() and isinstance(v, str)]
    assert all(v.startswith(SEED) or v.startswith("Age of Dogfights base game")
               or v == SEED for v in values)  # fmt: skip
