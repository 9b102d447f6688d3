"""Every die table of 001_989a2f850da69b66.txt, checked against the seed text."""

from __future__ import annotations

import re

import pytest

from tests.rulesets.age_of_dogfights.setups import SEED
from umpire.engine.rulesets.age_of_dogfights.tables.seed_tables import (
    AGGRESSIVENESS_MODIFIER,
    ALL_TABLES,
    FEW_SAFE_THROTTLE_MODIFIER,
    FEW_SAFE_THROTTLE_USES,
    MISSION_A_MODIFIER,
    RETREAT_A_MODIFIER,
)
from umpire.engine.rulesets.age_of_dogfights.terms import Aggressiveness
from umpire.testing.support.seeds import seed_text


def normalised(text: str) -> str:
    """The seed's markdown/LaTeX reduced to plain words."""
    text = re.sub(r"\\text\{([^}]*)\}", r"\1", text)
    text = text.replace("\\mid", "|").replace("$", "").replace("**", "")
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("table", ALL_TABLES, ids=lambda t: t.name)
def test_table_is_printed_in_the_seed(table) -> None:
    assert normalised(table.printed) in normalised(seed_text(SEED)), table.name
    assert table.citation.startswith(SEED)


@pytest.mark.parametrize("table", ALL_TABLES, ids=lambda t: t.name)
def test_bands_cover_one_to_six_in_order(table) -> None:
    faces = [f for b in table.bands for f in range(b.low, b.high + 1)]
    assert faces[:6] == [1, 2, 3, 4, 5, 6]
    implied = {"Approach maneuver not Exposed": "approach maneuver"}  # "If 1 is rolled"
    for band in table.bands:
        if band.low <= 6 and implied.get(table.name) != band.value:
            span = f"{band.low}-{min(band.high, 6)}" if band.low != min(band.high, 6) else ""
            assert span in table.printed or str(band.low) in table.printed


@pytest.mark.parametrize(
    ("table_name", "roll", "result"),
    [
        ("pilot skill", 2, "rookie"),
        ("pilot skill", 3, "average"),
        ("pilot skill", 6, "ace"),
        ("aggressiveness", 2, "cautious"),
        ("aggressiveness", 4, "average"),
        ("aggressiveness", 5, "aggressive"),
        ("blue or green die", 4, "blue"),
        ("blue or green die", 5, "green"),
        ("full throttle at '?'", 3, "blue"),
        ("full throttle at '?'", 4, "green"),
        ("Exposed initial position", 1, "random maneuver"),
        ("Exposed initial position", 2, "ignored"),
        ("Exposed initial position", 0, "random maneuver"),
        ("Exposed initial position", 7, "ignored"),
        ("skip or attack", 3, "skip"),
        ("skip or attack", 4, "attack"),
        ("long burst", 3, "short"),
        ("long burst", 4, "long"),
        ("long burst, less than half ammunition", 4, "short"),
        ("long burst, less than half ammunition", 5, "long"),
        ("unjamming while Exposed", 4, "random maneuver"),
        ("unjamming while Exposed", 5, "continue unjamming"),
        ("one or two level changes", 3, "1"),
        ("one or two level changes", 4, "2"),
        ("one, two or three level changes", 2, "1"),
        ("one, two or three level changes", 4, "2"),
        ("one, two or three level changes", 5, "3"),
        ("attitude at the end of a Random Maneuver", 2, "nose-down"),
        ("attitude at the end of a Random Maneuver", 3, "level"),
        ("attitude at the end of a Random Maneuver", 6, "nose-up"),
        ("two equal targets", 3, "lower"),
        ("two equal targets", 4, "higher"),
        ("three equal targets", 2, "lower"),
        ("three equal targets", 3, "medium"),
        ("three equal targets", 5, "higher"),
        ("mission aircraft attack on the way", 5, "ignore"),
        ("mission aircraft attack on the way", 6, "attack"),
        ("mission aircraft attack on the way", 7, "attack"),
        ("damage to wings, tail or engine", 2, "retreat"),
        ("damage to wings, tail or engine", 3, "continue fighting"),
        ("retreating bot at a firing position", 3, "ignore"),
        ("retreating bot at a firing position", 4, "attack"),
        ("retreating bot at a firing position", 8, "attack"),
        ("retreat at full throttle '?'", 5, "blue"),
        ("retreat at full throttle '?'", 6, "green"),
        ("Approach maneuver not Exposed", 1, "random maneuver"),
        ("Approach maneuver not Exposed", 2, "approach maneuver"),
        ("bot altitude (service ceiling L5 or higher)", 3, "roll again"),
        ("bot altitude (service ceiling L5 or higher)", 4, "maximum height"),
    ],
)
def test_cells(table_name: str, roll: int, result: str) -> None:
    table = next(t for t in ALL_TABLES if t.name == table_name)
    assert table.row_for(roll).value == result


def test_modifiers_match_the_seed() -> None:
    """Step I/III, Jammed Machine Guns, General Rules: '+1 for aggressive pilots, -1 for
    cautious pilots'; Combat: 'deduct 1' with one or two safe usages; 'Mission' Aircraft:
    '+1 ... 'A' position'; General Rules: '+2 if it can come into an 'A' firing position'."""
    text = normalised(seed_text(SEED))
    assert "+1 for aggressive pilots, -1 for cautious pilots" in text
    assert AGGRESSIVENESS_MODIFIER[Aggressiveness.AGGRESSIVE] == 1
    assert AGGRESSIVENESS_MODIFIER[Aggressiveness.CAUTIOUS] == -1
    assert AGGRESSIVENESS_MODIFIER[Aggressiveness.AVERAGE] == 0
    assert "if only one or two safe usages of full throttle are left, deduct 1" in text
    assert FEW_SAFE_THROTTLE_USES == (1, 2) and FEW_SAFE_THROTTLE_MODIFIER == -1
    assert "+1 to die roll if it can come to an 'A' position" in text
    assert MISSION_A_MODIFIER == 1
    assert "+2 if it can come into an 'A' firing position" in text
    assert RETREAT_A_MODIFIER == 2
