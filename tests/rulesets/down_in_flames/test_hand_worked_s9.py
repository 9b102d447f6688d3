"""Fresh cases worked by hand from 002_c21c1b1d0b6ff92b.txt (rules session 9): the bomber
system's left-over Hit Value at its band edges (4.1.7, 6.1.7), the D12 columns by halves
(6.1.3), a formation's dive, and the damage floors (5.1), each with its dice stated and its
result worked from the seed's text without reading the code.

Fighter a1 (card ATT, the Hit Value the test says) attacks from a Neutral position (1
burst) either the B-17G formation "bomber" (Defense 16, 4.1.8's target) or Leader b1."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from tests.rulesets.down_in_flames.setups import card, engaged, entry, make_state, of_type, run
from umpire.engine.rulesets.down_in_flames.events import AltitudeChanged, AttackResolved
from umpire.engine.rulesets.down_in_flames.performance import ratings
from umpire.engine.rulesets.down_in_flames.state import State
from umpire.engine.rulesets.down_in_flames.terms import Outcome


def _on_the_bomber(hv: int, **options: Any) -> State:
    state = make_state(
        [entry("a1", "ATT", "B", "J", "leader", hand=6),
         entry("bomber", "B-17G", "A", "F", "formation")],
        starting_altitude=8, custom_aircraft={"ATT": card("ATT", hit_value=hv)}, **options,
    )  # fmt: skip
    return engaged(state, "a1", "bomber", "neutral")


def _hit(state: State, hits: int, faces: list[list[int]], target: str = "bomber") -> Any:
    return run(state, {"type": "Attack", "attacker": "a1", "target": target,
                       "card": "in_my_sights", "hits": hits, "bursts": 1}, faces)  # fmt: skip


@pytest.mark.parametrize(
    ("hv", "faces", "points"),
    [
        (11, [], 1),  # 8 -> 1 point; 3 left over: below 4, no roll (4.1.7 starts at HV 4)
        (12, [[3]], 2),  # 8 -> 1 point; 4 left over scores on 3 or less: a 3 scores
        (12, [[4]], 1),  # ... a 4 does not
        (15, [[1]], 2),  # 7 left over, the top of the 4-7 band: a 1 scores
    ],
)
def test_s4_1_7_left_over_hit_value_at_its_band_edges(
    hv: int, faces: list[list[int]], points: int
) -> None:
    """4.1.3 "every 8 points of Hit Value ... 1 point of damage"; 4.1.7 "An attack by a Hit
    Value 4 through 7 scores a hit on a D6 roll of 3 or less. Apply the same rule for 'left
    over' Hit Value points". One hit of HV 11: 1 point and 3 left over, which 4.1.7 does not
    cover, so no die; HV 12: 4 left over, rolled; HV 15: 7 left over, rolled."""
    state, events = _hit(_on_the_bomber(hv), 1, faces)
    assert state.aircraft["bomber"].damage_points == points
    assert of_type(events, AttackResolved)[0].total_hv == hv


@pytest.mark.parametrize(
    ("hv", "faces", "points"),
    [
        (17, [], 2),  # 16 -> 2 points; 1 left over: 6.1.7 starts at 2, no roll
        (18, [[3]], 3),  # 2 left over: "2-3 HV points score ... on a D12 roll of 1-3"
        (18, [[4]], 2),
        (21, [[6]], 3),  # 5 left over: "4-5 HV points on a roll of 1-6"
        (23, [[9]], 3),  # 7 left over: "6-7 HV points on a roll of 1-9"
        (23, [[10]], 2),
    ],
)
def test_s6_1_7_d12_left_over_bands(hv: int, faces: list[list[int]], points: int) -> None:
    """6.1.7: with a D12, "roll for every 2 'left over' Hit Value points. 2-3 HV points score
    a damage point on a D12 roll of 1-3, 4-5 HV points on a roll of 1-6, and 6-7 HV points
    on a roll of 1-9". One hit of each Hit Value against the B-17G (16 HV = 2 points)."""
    state, _ = _hit(_on_the_bomber(hv, combat_die="d12"), 1, faces)
    assert state.aircraft["bomber"].damage_points == points


def test_s6_1_3_d12_odds_round_down_to_the_half() -> None:
    """6.1.3 "Odds are rounded down to the nearest half-odds": 1 hit of HV 20 against
    Defense 6 is 3.33:1, read as 3:1 (not 3.5:1). 6.1.1-6.1.2: a D12 roll of 3 or less
    shoots down, 6 or less damages: a 4 damages (at 3.5:1 it would too), a 7 does nothing
    (at 3.5:1 a 7 would damage)."""
    for face, result in ((3, Outcome.SHOT_DOWN), (4, Outcome.DAMAGED), (7, Outcome.NO_EFFECT)):
        state = make_state(
            [entry("a1", "ATT", "A", "A", "leader", hand=6),
             entry("b1", "TGT", "B", "B", "leader", hand=6)],
            starting_altitude=5, combat_die="d12",
            custom_aircraft={"ATT": card("ATT", hit_value=20), "TGT": card("TGT")},
        )  # fmt: skip
        state = engaged(state, "a1", "b1", "neutral")
        _, events = _hit(state, 1, [[face]], target="b1")
        resolved = of_type(events, AttackResolved)[0]
        assert (resolved.column, resolved.result) == ("3:1", result)


def test_s2_1_a_formation_dives_without_a_leader_to_gain_cards() -> None:
    """2.1: "Aircraft may dive either 1 or 2 levels. Leaders gain 1 card per level dived":
    the B-17G formation has no Leader, so its dive of 2 levels (8 to 6) changes no hand."""
    state = make_state(
        [entry("a1", "ATT", "B", "J", "leader", hand=6),
         entry("bomber", "B-17G", "A", "F", "formation")],
        starting_altitude=8, custom_aircraft={"ATT": card("ATT")},
    )  # fmt: skip
    state, _ = run(state, {"type": "BeginTurn", "side": "A"})
    state, events = run(state, {"type": "Dive", "element": "F", "levels": 2})
    (changed,) = of_type(events, AltitudeChanged)
    assert (state.elements["F"].altitude, changed.hand_change) == (6, 0)


def test_s5_1_damage_floors_at_one() -> None:
    """5.1.1 HP "by 1, but not below 1"; 5.1.2 Agility "by 1 but not below 1" (not more than
    4); 5.1.3 Speed "by 1, but not below 1": a card of Agility 1, Speed 1, HP 1 damaged is
    still 1, 1, 1 (and one of 2, 2, 2 is 1, 1, 1)."""
    weak = card("W", performance=[{"low": 1, "high": 10, "agility": 1, "speed": 1, "hp": 1}])
    fair = card("F2", performance=[{"low": 1, "high": 10, "agility": 2, "speed": 2, "hp": 2}])
    state = make_state(
        [entry("w", "W", "A", "A", "leader", hand=2),
         entry("f", "F2", "B", "B", "leader", hand=2)],
        starting_altitude=5, custom_aircraft={"W": weak, "F2": fair},
    )  # fmt: skip
    for plane in ("w", "f"):
        damaged = msgspec.structs.replace(state.aircraft[plane], damaged=True)
        r = ratings(state, damaged, with_pilot=True)
        assert (r.agility, r.speed, r.hp) == (1, 1, 1)
