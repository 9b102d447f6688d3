"""4: Medium and Heavy Bombers take damage points (4.1.3-4.1.7); 6.1.7 the D12 variant."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.rulesets.down_in_flames.setups import (
    engaged,
    entry,
    make_state,
    next_turn,
    of_type,
    run,
    says,
)
from umpire.engine.actions import legal_actions, offered
from umpire.engine.errors import RuleError
from umpire.engine.roles import Role
from umpire.engine.rulesets.down_in_flames import RULESET
from umpire.engine.rulesets.down_in_flames.events import (
    AircraftDamaged,
    AircraftShotDown,
    AttackResolved,
)
from umpire.engine.rulesets.down_in_flames.state import State
from umpire.engine.rulesets.down_in_flames.tables import bomber as bomber_table
from umpire.engine.rulesets.down_in_flames.terms import CombatDie, Outcome


def _card(name: str, hv: int, cls: str = "fighter", defense: int = 6) -> dict[str, Any]:
    return {
        "name": name, "aircraft_class": cls, "ceiling_level": 10, "defense": defense,
        "hit_value": hv, "performance": [{"low": 1, "high": 10, "agility": 5, "speed": 5, "hp": 3}],
        "placeholders": ["everything"],
    }  # fmt: skip


def bomber_fight(attacker: str = "Fw 190A-8", bomber: str = "B-17G", **options: Any) -> State:
    state = make_state(
        [
            entry("f1", attacker, "B", "J", "leader", hand=6),
            entry("w1", attacker, "B", "J", "wingman"),
            entry("bomber", bomber, "A", "F", "formation"),
        ],
        starting_altitude=8,
        **options,
    )
    state = engaged(state, "f1", "bomber", "neutral")
    return engaged(state, "w1", "bomber", "neutral")


def _attack(state: State, hits: int, faces: list[list[int]], who: str = "f1") -> Any:
    return run(state, {"type": "Attack", "attacker": who, "target": "bomber",
                       "card": "in_my_sights", "hits": hits, "bursts": 1}, faces)  # fmt: skip


def test_s4_seed_text() -> None:
    rows = [(r.low, r.high, r.scores_on) for r in bomber_table.D12_LEFTOVER]
    assert rows == [(0, 1, 0), (2, 3, 3), (4, 5, 6), (6, 7, 9)]
    assert [(r.low, r.high, r.scores_on) for r in bomber_table.D6_LEFTOVER] == [
        (0, 3, 0),
        (4, 7, 3),
    ]
    # Provenance last: it skips on a clone without the rule documents.
    assert says("every 8 points of Hit Value scored against a Medium or Heavy Bomber target "
                "results in the target taking 1 point of damage.")  # fmt: skip
    assert says("An attack by a Hit Value 4 through 7 scores a hit on a D6 roll of 3 or less.")
    assert says("2-3 HV points score a damage point on a D12 roll of 1-3, 4-5 HV points on a "
                "roll of 1-6, and 6-7 HV points on a roll of 1-9.")  # fmt: skip


class TestS4_1_8_WorkedExample:
    """4.1.8: Fw 190A-8 (HV 20) with a 3 hit card against a B-17G: 60 HV, 56 cause 7 points,
    the remaining 4 cause another on 1-3."""

    def test_text(self) -> None:
        assert says("The Fw 190 has an HV of 20, and so attacks with 60 HV. 56 HV cause 7 "
                    "points of damage.")  # fmt: skip

    @pytest.mark.parametrize(("face", "points"), [(1, 8), (3, 8), (4, 7), (6, 7)])
    def test_left_over_four_points(self, face: int, points: int) -> None:
        state, events = _attack(bomber_fight(), 3, [[face]])
        resolved = of_type(events, AttackResolved)[0]
        assert (resolved.total_hv, resolved.damage_points) == (60, points)
        assert state.aircraft["bomber"].damage_points == points


def test_s4_1_3_bomber_damage_is_the_rules_arithmetic_for_every_total_to_200() -> None:
    """4.1.3, 4.1.7: for every HV total 1..200 and both kinds of roll, damage points are
    total // 8 plus one when 4-7 points are left over and the D6 shows 3 or less."""
    for total in range(1, 201):
        custom = {"Gun": _card("Gun", total), "Barn": _card("Barn", 8, "heavy_bomber", 200)}
        for face in (3, 4):
            state = bomber_fight("Gun", "Barn", custom_aircraft=custom)
            needs_roll = total % 8 >= 4
            state, _events = _attack(state, 1, [[face]] if needs_roll else [])
            expected = total // 8 + (1 if needs_roll and face <= 3 else 0)
            assert state.aircraft["bomber"].damage_points == expected, (total, face)


def test_s6_1_7_d12_left_over_rolls() -> None:
    """6.1.7: 6 left-over points score on a D12 of 1-9."""
    custom = {"Gun": _card("Gun", 14), "Barn": _card("Barn", 8, "heavy_bomber", 200)}
    for face, expected in ((9, 2), (10, 1)):
        state = bomber_fight("Gun", "Barn", custom_aircraft=custom, combat_die="d12")
        state, _ = _attack(state, 1, [[face]])
        assert state.aircraft["bomber"].damage_points == expected
    assert bomber_table.leftover_row(CombatDie.D12, 1).scores_on == 0


class TestS4_1_4_Thresholds:
    def test_half_defense_damages_and_drops_out(self) -> None:
        """4.1.4, 4.1.5: B-17G (defense 16) with 8 points is damaged and leaves formation."""
        state, events = _attack(bomber_fight(), 3, [[2]])
        damaged = of_type(events, AircraftDamaged)[0]
        assert damaged.dropped_out and of_type(events, AttackResolved)[0].result is Outcome.DAMAGED
        assert not state.aircraft["bomber"].in_formation

    def test_full_defense_shoots_down(self) -> None:
        """4.1.6: 16 points on a defense of 16."""
        state, _ = _attack(bomber_fight(), 3, [[2]])
        state, events = _attack(next_turn(state, "B"), 3, [[2]])
        assert of_type(events, AircraftShotDown)[0].rule.endswith("4.1.6")
        assert state.aircraft["bomber"].shot_down

    def test_arithmetic(self) -> None:
        assert bomber_table.damaged_threshold_met(8, 16)
        assert not bomber_table.damaged_threshold_met(7, 15)
        assert bomber_table.damaged_threshold_met(8, 15)
        assert bomber_table.shot_down_threshold_met(16, 16)


class TestS4_1_1_Wingmen:
    def test_wingman_may_not_play_more_attack_cards_than_its_offense(self) -> None:
        """Fw 190A-8 Wingman offense 1 (placeholder card value)."""
        state, _ = _attack(bomber_fight(), 1, [[6]], who="w1")
        with pytest.raises(RuleError) as info:
            _attack(state, 1, [[6]], who="w1")
        assert info.value.rule.endswith("4.1.1")


def test_s4_1_9_turret_fire_has_hit_value_8() -> None:
    state = bomber_fight()
    state, events = run(state, {"type": "ResolveDefensiveFire", "shooter": "bomber", "target": "f1",
                                "kind": "turret", "hits": 1}, [[1], [6]])  # fmt: skip
    resolved = of_type(events, AttackResolved)[0]
    # HV 8 against the Fw 190A-8's placeholder defense 7: 8:7 is 1:1.
    assert (resolved.hit_value, resolved.column, resolved.result) == (8, "1:1", Outcome.DAMAGED)
    assert resolved.rule.startswith("002_c21c1b1d0b6ff92b.txt 4.1.9")


@given(total=st.integers(1, 200), face=st.integers(1, 12), die=st.sampled_from(["d6", "d12"]))
@settings(max_examples=150, deadline=None)
def test_s4_1_3_and_s6_1_7_bomber_damage_property(total: int, face: int, die: str) -> None:
    """4.1.3, 4.1.7 (D6) and 6.1.7 (D12): points = total // 8, plus one when the left-over
    band's roll succeeds."""
    sides = 6 if die == "d6" else 12
    face = min(face, sides)
    custom = {"Gun": _card("Gun", total), "Barn": _card("Barn", 8, "heavy_bomber", 200)}
    state = bomber_fight("Gun", "Barn", custom_aircraft=custom, combat_die=die)
    leftover = total % 8
    threshold = (3 if leftover >= 4 else 0) if die == "d6" else (0, 0, 3, 3, 6, 6, 9, 9)[leftover]
    state, _ = _attack(state, 1, [[face]] if threshold else [])
    assert state.aircraft["bomber"].damage_points == total // 8 + (1 if face <= threshold else 0)


def test_s5_5_fuel_tank_against_a_bomber_keeps_its_own_hits() -> None:
    """README ledger 5.5: "count the 'Fuel Tank' card as a 4 hit card if it is played against a
    Fighter or Light Bomber target" -- against a Heavy Bomber the card's own hits count: 2 hits
    x HV 20 = 40, 5 points, nothing left over (the 4.1.10 die is rolled only with ammunition)."""
    attack = {"type": "Attack", "attacker": "f1", "target": "bomber", "card": "fuel_tank",
              "hits": 2, "bursts": 1}  # fmt: skip
    _state, events = run(bomber_fight(), attack, [])
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.hits, resolved.total_hv, resolved.damage_points) == (2, 40, 5)
    # Provenance last: it skips on a clone without the rule documents.
    assert says("count the “Fuel Tank” card as a 4 hit card if it is played against a Fighter "
                "or Light Bomber target.")  # fmt: skip


@pytest.mark.parametrize("total", [1, 2, 3])
def test_s4_1_7_hit_values_below_4_score_nothing(total: int) -> None:
    """README ledger 4.1.7: a total of 1-3 Hit Value points against a bomber rolls no die and
    scores nothing (the D6 table starts at 4)."""
    custom = {"Gun": _card("Gun", total), "Barn": _card("Barn", 8, "heavy_bomber", 200)}
    state, _events = _attack(bomber_fight("Gun", "Barn", custom_aircraft=custom), 1, [])
    assert state.aircraft["bomber"].damage_points == 0


def test_s4_1_9_turrets_fire_in_the_attackers_move_not_the_bombers_own() -> None:
    """4.1.9 "Turret defense fire" answers an attack: in side B's move the Fw 190s attack
    the B-17 (side A), and the B-17's turrets are listed and fire at f1. In side A's own
    move (and between moves) the B-17 has no attacker to answer: its turret fire is not
    listed and is refused, naming the move, and writes nothing. Before: it was listed in
    the bombers' own move, and accepted there."""
    state = bomber_fight()  # side B's move: f1 and w1 on the B-17
    turret = {"type": "ResolveDefensiveFire", "shooter": "bomber", "target": "f1",
              "kind": "turret", "hits": 1}  # fmt: skip

    def listed(state: State) -> bool:
        return any(
            a.type == "ResolveDefensiveFire"
            for a in legal_actions(RULESET, state, Role.PLAYER, ended=False)
        )

    assert listed(state)
    run(state, turret, [[3]])  # 1:1, a 3: no effect (3.2.6)
    state, _ = run(state, {"type": "EndTurn", "side": "B"})
    assert not listed(state)
    with pytest.raises(RuleError, match="no side is moving"):
        run(state, turret, [[3]])
    state, _ = run(state, {"type": "BeginTurn", "side": "A"})
    assert not listed(state)
    with pytest.raises(RuleError, match="side A's own move"):
        run(state, turret, [[3]])


def test_s4_1_5_only_a_formation_shows_its_formation_and_damage_points() -> None:
    """4.1.3-4.1.6: damage points and dropping out of formation are a Medium or Heavy
    Bomber's; 3.2 has a fighter damaged or shot down, nothing else. The view shows "In
    formation" and damage points on the B-17 only. Before: on every fighter too."""
    planes = RULESET.view(bomber_fight(), Role.PLAYER)["aircraft"]
    assert planes["bomber"]["in_formation"] is True and planes["bomber"]["damage_points"] == 0
    for fighter in ("f1", "w1"):
        assert "in_formation" not in planes[fighter] and "damage_points" not in planes[fighter]


def test_s4_1_9_and_3_3_each_shooter_is_listed_with_its_own_fire() -> None:
    """4.1.9 turrets are a Medium or Heavy Bomber's, 3.3 gunners a light bomber's or a
    gunner-carrying card's: in side B's move the B-17 is listed to fire its turrets, never
    "gunner", which decide refuses ("bomber has no gunner"; found playing bomber-escort
    through the CLI: the listing offered both kinds to every shooter). Targets are the
    moving side's fighters."""
    state = bomber_fight()
    (fire,) = [a for a in offered(RULESET, state, Role.PLAYER, ended=False)
               if a.command_type.__struct_config__.tag == "ResolveDefensiveFire"]  # fmt: skip
    pairs = {(v["kind"]["enum"][0], s) for v in fire.variants for s in v["shooter"]["enum"]}
    assert pairs == {("turret", "bomber")}
    assert all(v["target"]["enum"] == ["f1", "w1"] for v in fire.variants)
    with pytest.raises(RuleError, match="no gunner"):
        run(state, {"type": "ResolveDefensiveFire", "shooter": "bomber", "target": "f1",
                    "kind": "gunner", "hits": 1}, [[6]])  # fmt: skip
