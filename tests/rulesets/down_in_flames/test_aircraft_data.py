"""2.4 and the data-card format: sample cards hold only the seed's values, the rest marked."""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.down_in_flames.setups import entry, make_state
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.down_in_flames.aircraft import SAMPLE_AIRCRAFT, card_from_data, catalog
from umpire.engine.rulesets.down_in_flames.terms import AircraftClass


def test_stated_values_are_the_seeds() -> None:
    cards = catalog()
    assert cards["Spitfire"].hit_value == 8 and "hit_value" not in cards["Spitfire"].placeholders
    assert cards["Bf 109"].defense == 6 and "defense" not in cards["Bf 109"].placeholders
    assert cards["Fw 190A-8"].hit_value == 20
    a6m2 = cards["A6M2"].band_at(2)
    assert (a6m2.agility, a6m2.speed) == (9, 6)
    p51 = cards["P-51D-10"].band_at(18)
    assert (p51.agility, p51.speed) == (5, 8)
    assert cards["B-17G"].aircraft_class is AircraftClass.HEAVY_BOMBER


def test_every_sample_marks_its_placeholders() -> None:
    for card in SAMPLE_AIRCRAFT:
        assert card.placeholders, card.name
        assert "ceiling_level" in card.placeholders  # no ceiling is printed in the seed


@pytest.mark.parametrize(
    ("change", "message"),
    [({"performance": [{"low": 2, "high": 10, "agility": 5, "speed": 5, "hp": 3}]}, "contiguous"),
     ({"ceiling_level": 12}, "ceiling"), ({"defense": 0}, "defense"),
     ({"reduced_hit_value": 20}, "right-hand")],
)  # fmt: skip
def test_bad_cards_fail_validation(change: dict[str, object], message: str) -> None:
    data = {"name": "X", "aircraft_class": "fighter", "ceiling_level": 10, "defense": 6,
            "hit_value": 8, "performance": [{"low": 1, "high": 10, "agility": 5, "speed": 5,
                                             "hp": 3}], **change}  # fmt: skip
    with pytest.raises(msgspec.ValidationError, match=message):
        card_from_data(data)


def test_unknown_aircraft_is_a_rule_error() -> None:
    with pytest.raises(RuleError) as info:
        make_state([entry("a1", "Sopwith Camel", "A", "A", "leader")])
    assert info.value.rule.endswith("2.4") and "unknown aircraft" in str(info.value)
