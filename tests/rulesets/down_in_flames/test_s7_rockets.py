"""7: optional air-to-air rockets."""

from __future__ import annotations

import pytest

from tests.rulesets.down_in_flames.setups import engaged, entry, make_state, of_type, run, says
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.down_in_flames.events import AircraftShotDown, AttackResolved
from umpire.engine.rulesets.down_in_flames.performance import ratings


def _fight(carrier: str = "Bf 110G-2", rockets: bool = True):  # type: ignore[no-untyped-def]
    state = make_state(
        [entry("r1", carrier, "B", "R", "leader", hand=6, rockets=rockets),
         entry("bomber", "B-17G", "A", "F", "formation")],
        starting_altitude=8, rockets_rule=True,
    )  # fmt: skip
    return engaged(state, "r1", "bomber", "neutral")


ROCKET = {"type": "Attack", "attacker": "r1", "target": "bomber", "card": "in_my_sights",
          "hits": 1, "bursts": 1, "rockets": True}  # fmt: skip


def test_s7_seed_text() -> None:
    assert says("A rocket attack by a Bf 109 or an Fw 190 hits on a D6 roll of 1. A rocket "
                "attack by a Bf 110 hits on a D6 roll of 1 or 2.")  # fmt: skip


@pytest.mark.parametrize(
    ("carrier", "face", "hit"),
    [
        ("Bf 110G-2", 2, True),
        ("Bf 110G-2", 3, False),
        ("Bf 109G-6", 1, True),
        ("Fw 190A-6", 2, False),
    ],
)
def test_s7_1_3_rocket_hits_destroy(carrier: str, face: int, hit: bool) -> None:
    state, events = run(_fight(carrier), ROCKET, [[face]])
    assert bool(of_type(events, AircraftShotDown)) is hit
    assert state.aircraft["bomber"].shot_down is hit
    assert of_type(events, AttackResolved)[0].rockets
    # The log's order: the card, then its die, then the result (kept when the attack moved
    # onto the kit's Turn, which logs a roll where it is made).
    names = [type(e).__name__ for e in events]
    assert names[:3] == ["AttackCardPlayed", "DiceRolled", "AttackResolved"], names


def test_s7_1_2_one_rocket_attack_per_game() -> None:
    state, _ = run(_fight(), ROCKET, [[6]])
    with pytest.raises(RuleError) as info:
        run(state, ROCKET, [[1]])
    assert info.value.rule.endswith("7.1.2")


def test_s7_1_4_penalties_while_carrying() -> None:
    """Agility and Speed -1 while carrying; Agility reverts after the attack, Speed does not."""
    plain = _fight(rockets=False)
    base = ratings(plain, plain.aircraft["r1"])
    state = _fight()
    loaded = ratings(state, state.aircraft["r1"])
    assert (loaded.agility, loaded.speed) == (base.agility - 1, base.speed - 1)
    state, _ = run(state, ROCKET, [[6]])
    after = ratings(state, state.aircraft["r1"])
    assert (after.agility, after.speed) == (base.agility, base.speed - 1)


def test_s7_1_1_only_listed_types_carry_rockets() -> None:
    with pytest.raises(RuleError) as info:
        make_state([entry("x", "Spitfire", "A", "A", "leader", rockets=True)], rockets_rule=True)
    assert info.value.rule.endswith("7.1.1")
