"""10.10 Beam attacks (002_c21c1b1d0b6ff92b.txt): "The aircraft receives a 2 bonus to bursts
(rather than 1) when Advantaged" -- for every sight, and for a gyro sight under either reading
of 3.1.2 / 10.9 (`Setup.gyro_reading`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.down_in_flames.setups import engaged, entry, make_state, run, says
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.down_in_flames.tables import burst as burst_table
from umpire.engine.rulesets.down_in_flames.terms import GyroReading, Position, Sight


def test_the_seed_gives_beam_attacks_a_2_bonus_when_advantaged() -> None:
    assert says("Beam attacks")
    assert says("The aircraft receives a 2 bonus to bursts (rather than 1) when Advantaged")
    assert says(
        "The aircraft lacks a reflector gunsight: 0 bursts if Neutral, 1 burst if Advantaged"
    )


@pytest.mark.parametrize(
    ("sight", "reading", "without", "beam"),
    [
        (Sight.SIMPLE, GyroReading.RULE_3_1_2, (0, 1, 4), (0, 2, 4)),
        (Sight.REFLECTOR, GyroReading.RULE_3_1_2, (1, 2, 4), (1, 3, 4)),
        (Sight.GYRO, GyroReading.RULE_3_1_2, (1, 3, 4), (1, 3, 4)),
        (Sight.GYRO, GyroReading.RULE_10_9, (1, 2, 4), (1, 3, 4)),
    ],
)
def test_beam_attacks_make_the_advantaged_bonus_2_for_every_sight(
    sight: Sight, reading: GyroReading, without: tuple[int, ...], beam: tuple[int, ...]
) -> None:
    """Neutral / Advantaged / Tailing. On main a simple sight with Beam Attacks stayed 0/1/4
    and a gyro under the 10.9 reading stayed 1/2/4."""
    plain = burst_table.row_for(sight, False, reading)
    trained = burst_table.row_for(sight, True, reading)
    assert tuple(plain.at(p) for p in Position) == without
    assert tuple(trained.at(p) for p in Position) == beam
    assert trained.rule.endswith("10.10")


def _card(sight: str) -> dict[str, Any]:
    return {"name": "S", "aircraft_class": "fighter", "ceiling_level": 10, "defense": 6,
            "hit_value": 8, "sight": sight, "characteristics": ["beam_attacks"],
            "performance": [{"low": 1, "high": 10, "agility": 6, "speed": 6, "hp": 3}]}  # fmt: skip


def test_a_simple_sight_beam_fighter_fires_two_bursts_when_advantaged() -> None:
    """Through the game: Advantaged, two single-burst attacks are allowed, a third is not."""
    state = make_state(
        [entry("a1", "S", "A", "A", "leader", hand=6),
         entry("b1", "Bf 109", "B", "B", "leader", hand=6)],
        starting_altitude=5, custom_aircraft={"S": _card("simple")},
    )  # fmt: skip
    state = engaged(state, "a1", "b1", "advantaged")
    attack = {"type": "Attack", "attacker": "a1", "target": "b1", "card": "in_my_sights",
              "hits": 2, "bursts": 1}  # fmt: skip
    state, _ = run(state, attack, [[6]])
    state, _ = run(state, attack, [[6]])
    with pytest.raises(RuleError):
        run(state, attack, [[6]])
