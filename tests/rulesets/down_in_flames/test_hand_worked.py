"""Cases worked by hand from the seed (002_c21c1b1d0b6ff92b.txt) with stated dice, the way
an outside reviewer checks the engine: each docstring gives the rule, the dice and the
result the seed's text gives, worked without reading the code.

Leader a1 (card ATT: its Hit Value as the test says) is Tailing Leader b1 (card TGT: its
Defense as the test says), so a1 has 4 bursts; every attack spends 1.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.down_in_flames.setups import card, engaged, entry, make_state, of_type, run
from umpire.engine.rulesets.down_in_flames.events import AmmunitionChecked, AttackResolved
from umpire.engine.rulesets.down_in_flames.performance import ratings, wingman_draw
from umpire.engine.rulesets.down_in_flames.state import State
from umpire.engine.rulesets.down_in_flames.terms import Outcome

D, S, N = Outcome.DAMAGED, Outcome.SHOT_DOWN, Outcome.NO_EFFECT


def _fight(hv: int = 8, defense: int = 6, target: dict[str, Any] | None = None,
           **options: Any) -> State:  # fmt: skip
    cards = {"ATT": card("ATT", hit_value=hv), "TGT": target or card("TGT", defense=defense)}
    state = make_state(
        [entry("a1", "ATT", "A", "A", "leader", hand=6),
         entry("b1", "TGT", "B", "B", "leader", hand=6),
         entry("b2", "TGT", "B", "B", "wingman")],
        starting_altitude=5, custom_aircraft=cards, **options,
    )  # fmt: skip
    return engaged(state, "a1", "b1", "tailing")


def _attack(state: State, hits: int, faces: list[list[int]], target: str = "b1") -> Any:
    return run(state, {"type": "Attack", "attacker": "a1", "target": target,
                       "card": "in_my_sights", "hits": hits, "bursts": 1}, faces)  # fmt: skip


@pytest.mark.parametrize(("faces", "result"), [([[1], [3]], S), ([[1], [4]], D), ([[2]], N)])
def test_s3_2_4_eight_to_six_drops_to_one_to_one(faces: list[list[int]], result: Outcome) -> None:
    """3.2.3-3.2.4 and 3.2.6: 1 hit x HV 8 = 8 against Defense 6 is greater than 1:1, so the
    fraction is dropped: 1:1. 'roll again if a 1 is rolled. On a 1-3 ... shot down; on a 4-6
    it is damaged'; a first roll of 2 does nothing."""
    _, events = _attack(_fight(), 1, faces)
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.total_hv, resolved.column, resolved.result) == (8, "1:1", result)


@pytest.mark.parametrize(("faces", "result"), [([[1], [1]], S), ([[1], [3]], D), ([[1], [4]], N)])
def test_s3_2_7_exactly_one_to_two(faces: list[list[int]], result: Outcome) -> None:
    """3.2.7: 1 hit x HV 3 = 3 against Defense 6 is exactly 1:2: a first 1 is rolled again;
    'On a 1, the aircraft is shot down; on a 2 or 3, it is damaged'; a 4 does nothing."""
    _, events = _attack(_fight(hv=3), 1, faces)
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.column, resolved.result) == ("1:2", result)


@pytest.mark.parametrize(("faces", "result"), [([[1], [1]], D), ([[1], [2]], N), ([[3]], N)])
def test_s3_2_8_below_one_to_two(faces: list[list[int]], result: Outcome) -> None:
    """3.2.8: 1 hit x HV 2 = 2 against Defense 6 is 1:3, less than 1:2: 'roll again if a 1
    is rolled and the aircraft is damaged on a 1'; a second 2, or a first 3, does nothing."""
    _, events = _attack(_fight(hv=2), 1, faces)
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.column, resolved.result) == ("<1:2", result)


@pytest.mark.parametrize(("face", "result"), [(2, S), (3, D), (5, D), (6, N)])
def test_s3_2_5_four_hits_is_five_to_one(face: int, result: Outcome) -> None:
    """3.2.5: 4 hits x HV 8 = 32 against Defense 6 is 5.33:1, fractions dropped: 5:1. Shot
    down at most half the odds (2.5: a 1 or 2), damaged at most the odds (3-5), a 6 misses."""
    _, events = _attack(_fight(), 4, [[face]])
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.column, resolved.result) == ("5:1", result)


@pytest.mark.parametrize(("faces", "result"), [([[1], [6]], S), ([[1], [7]], D), ([[2]], N)])
def test_s6_1_4_d12_one_to_two(faces: list[list[int]], result: Outcome) -> None:
    """6.1.4 (D12): 1 hit x HV 4 = 4 against Defense 6 is 0.67:1, rounded down to the half
    below: 1:2. A first 1 is rolled again: 1-6 shoots down, 7-12 damages; a first 2 does
    nothing."""
    _, events = _attack(_fight(hv=4, combat_die="d12"), 1, faces)
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.column, resolved.result) == ("1:2", result)


@pytest.mark.parametrize(("face", "result"), [(1, S), (2, D), (3, D), (4, N)])
def test_s6_1_1_d12_one_and_a_half_to_one(face: int, result: Outcome) -> None:
    """6.1.1-6.1.3 (D12): 1 hit x HV 10 = 10 against Defense 6 is 1.67:1, rounded down to
    the nearest half: 1.5:1. Shot down at most the odds (1), damaged at most twice the odds
    (3: a 2 or 3); a 4 does nothing."""
    _, events = _attack(_fight(hv=10, combat_die="d12"), 1, [[face]])
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.column, resolved.result) == ("1.5:1", result)


def _bomber(hv: int, defense: int, kind: str = "medium_bomber") -> State:
    bomber = card("TGT", aircraft_class=kind, defense=defense)
    state = make_state(
        [entry("a1", "ATT", "A", "A", "leader", hand=6),
         entry("b1", "TGT", "B", "F", "formation")],
        starting_altitude=5,
        custom_aircraft={"ATT": card("ATT", hit_value=hv), "TGT": bomber},
    )  # fmt: skip
    return engaged(state, "a1", "b1", "tailing")


def test_s4_1_4_damaged_at_exactly_half_and_s4_1_6_shot_down_at_the_defense() -> None:
    """4.1.3, 4.1.4, 4.1.6: a Medium Bomber of Defense 8. 2 hits x HV 16 = 32: 4 points
    (nothing left over, no die); 4 is 'at least half' of 8: damaged. A second such attack
    brings 8 points, 'equal to its defense rating': shot down."""
    state, events = _attack(_bomber(16, 8), 2, [])
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.damage_points, resolved.result) == (4, D)
    state, events = _attack(state, 2, [])
    assert of_type(events, AttackResolved)[0].result is S
    assert state.aircraft["b1"].shot_down


def test_s4_1_4_below_half_of_an_odd_defense_is_not_damaged() -> None:
    """4.1.4: against Defense 7, 3 hits x HV 8 = 24 give 3 points; 3 is less than half of 7
    (3.5): no damage yet."""
    state, events = _attack(_bomber(8, 7), 3, [])
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.damage_points, resolved.result) == (3, N)
    assert not state.aircraft["b1"].damaged


@pytest.mark.parametrize(("face", "points"), [(3, 3), (4, 2)])
def test_s4_1_7_left_over_four_scores_on_3_or_less(face: int, points: int) -> None:
    """4.1.3 and 4.1.7: 1 hit x HV 20 = 20 against a Heavy Bomber: 16 give 2 points, the 4
    left over score one more on a D6 of 3 or less."""
    _, events = _attack(_bomber(20, 16, "heavy_bomber"), 1, [[face]])
    assert of_type(events, AttackResolved)[0].damage_points == points


def test_s5_1_2_agility_five_and_four_both_become_three() -> None:
    """5.1.2: 'Reduce their Agility rating by 2 if more than 4. Otherwise, reduce it by 1':
    a damaged Leader with Agility 5 has 3; with Agility 4 also 3 (5.1.1 and 5.1.3: HP 3 -> 2,
    Speed 5 -> 4). The damage: 4 hits x HV 8 against Defense 6 is 5:1, a 3 damages."""
    for agility in (5, 4):
        band = {"low": 1, "high": 10, "agility": agility, "speed": 5, "hp": 3}
        state = _fight(target=card("TGT", performance=[band]))
        state, _ = _attack(state, 4, [[3]])
        r = ratings(state, state.aircraft["b1"])
        assert (r.agility, r.speed, r.hp) == (3, 4, 2)


def test_s5_2_damaged_wingman_with_equal_draws_loses_an_offensecard() -> None:
    """5.2: 'If a Wingman's defense card draw is greater, reduce this by 1 card. If not,
    reduce the Wingman's offense card draw': draws 2 and 2 become offense 1, defense 2.
    The damage: 4 hits x HV 8 against Defense 6 is 5:1, a 3 damages."""
    state = _fight()
    state = engaged(state, "a1", "b2", "tailing")
    state, _ = _attack(state, 4, [[3]], target="b2")
    assert wingman_draw(state, state.aircraft["b2"]) == (1, 2)


def test_s10_15_ammunition_check_after_a_one_depletes_on_a_roll_within_the_bursts() -> None:
    """10.15: after an attack at the left-hand Hit Value whose die shows 1, roll a D6; at
    most the bursts of the attack (1) depletes. HV 8/4, 1 hit against Defense 6 is 1:1:
    first 1 (rolled again: 5, damaged), then the ammunition die 1: depleted. The next
    attack uses HV 4 (4:6, the 1:2 column; a first 2 does nothing)."""
    state = make_state(
        [entry("a1", "ATT", "A", "A", "leader", hand=6),
         entry("b1", "TGT", "B", "B", "leader", hand=6)],
        starting_altitude=5, ammunition_rule=True,
        custom_aircraft={"ATT": card("ATT", hit_value=8, reduced_hit_value=4),
                         "TGT": card("TGT")},
    )  # fmt: skip
    state = engaged(state, "a1", "b1", "tailing")
    state, events = _attack(state, 1, [[1], [5], [1]])
    assert of_type(events, AttackResolved)[0].result is D
    assert of_type(events, AmmunitionChecked)[0].depleted
    _, events = _attack(state, 1, [[2]])
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.hit_value, resolved.column) == (4, "1:2")


def test_s3_2_3_one_hit_is_said_in_the_singular() -> None:
    """3.2.1-3.2.3: "Note the number of hits scored", times the Hit Value, against the
    Defense: one hit of HV 8 against Defense 6 reads "1 hit x HV 8 = 8 against defense
    6", not "1 hit(s)" (dice 2: no effect at 1:1)."""
    _, events = _attack(_fight(), 1, [[2]])
    resolved = of_type(events, AttackResolved)[0]
    assert resolved.explanation.startswith("1 hit x HV 8 = 8 against defense 6: odds column 1:1")
