"""3.1 bursts and 10: special aircraft characteristics, 10.15 ammunition."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.down_in_flames.setups import (
    engaged,
    entry,
    make_state,
    next_turn,
    of_type,
    run,
    says,
)
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.down_in_flames.events import (
    AmmunitionChecked,
    AttackResolved,
    CardPlayed,
    CardsDiscarded,
)
from umpire.engine.rulesets.down_in_flames.tables import burst as burst_table
from umpire.engine.rulesets.down_in_flames.terms import GyroReading, Position, Sight


def _card(name: str, **kw: Any) -> dict[str, Any]:
    data = {"name": name, "aircraft_class": "fighter", "ceiling_level": 10, "defense": 6,
            "hit_value": 8, "performance": [{"low": 1, "high": 10, "agility": 6, "speed": 6,
                                             "hp": 3}]}  # fmt: skip
    return {**data, **kw}


def _fight(a: str, b: str = "Bf 109", cards: dict[str, Any] | None = None, **kw: Any):  # type: ignore[no-untyped-def]
    return make_state(
        [entry("a1", a, "A", "A", "leader", hand=6), entry("a2", a, "A", "A", "wingman"),
         entry("b1", b, "B", "B", "leader", hand=6)],
        starting_altitude=5, custom_aircraft=cards or {}, **kw,
    )  # fmt: skip


ATTACK = {"type": "Attack", "attacker": "a1", "target": "b1", "card": "in_my_sights",
          "hits": 2, "bursts": 1}  # fmt: skip


class TestS3_1_Bursts:
    def test_table_against_seed(self) -> None:
        rows = {
            "reflector": burst_table.row_for(Sight.REFLECTOR, False, GyroReading.RULE_3_1_2),
            "simple": burst_table.row_for(Sight.SIMPLE, False, GyroReading.RULE_3_1_2),
            "gyro": burst_table.row_for(Sight.GYRO, False, GyroReading.RULE_3_1_2),
            "gyro 10.9": burst_table.row_for(Sight.GYRO, False, GyroReading.RULE_10_9),
            "beam": burst_table.row_for(Sight.REFLECTOR, True, GyroReading.RULE_3_1_2),
        }
        got = {k: tuple(r.at(p) for p in Position) for k, r in rows.items()}
        assert got == {"reflector": (1, 2, 4), "simple": (0, 1, 4), "gyro": (1, 3, 4),
                       "gyro 10.9": (1, 2, 4), "beam": (1, 3, 4)}  # fmt: skip
        # Provenance last: it skips on a clone without the rule documents.
        assert says("giving a total of 2 bursts when Advantaged and 4 bursts when Tailing.")
        assert says("Simple Sight. The aircraft lacks a reflector gunsight: 0 bursts if Neutral, "
                    "1 burst if Advantaged, 4 bursts if Tailing.")  # fmt: skip
        assert says("Gyro Sight. The aircraft has a gyro gunsight: 1 burst if Neutral, 2 bursts "
                    "if Advantaged, 4 bursts if Tailing.")  # fmt: skip

    def test_s3_1_1_simple_sight_cannot_fire_when_neutral(self) -> None:
        state = engaged(_fight("S", cards={"S": _card("S", sight="simple")}), "a1", "b1",
                        "neutral")  # fmt: skip
        with pytest.raises(RuleError) as info:
            run(state, ATTACK, [[6]])
        assert info.value.rule.endswith("3.1.1")

    def test_bursts_are_spent_per_turn(self) -> None:
        state = engaged(_fight("Spitfire"), "a1", "b1", "advantaged")
        state, _ = run(state, ATTACK, [[6]])
        state, _ = run(state, ATTACK, [[6]])
        with pytest.raises(RuleError) as info:
            run(state, ATTACK, [[6]])
        assert info.value.rule.endswith("3.1")


class TestS10_15_Ammunition:
    def test_a_one_and_a_low_roll_deplete(self) -> None:
        tough = {"T": _card("T", defense=40)}
        state = engaged(_fight("Fw 190A-8", "T", cards=tough, ammunition_rule=True), "a1", "b1",
                        "tailing")  # fmt: skip
        # 40 against 40 is 1:1: a 1 rolls again (6: damaged), then the ammunition roll (1).
        state, events = run(state, ATTACK, [[1], [6], [1]])
        assert of_type(events, AmmunitionChecked)[0].depleted
        state, events = run(state, ATTACK, [[6]])
        assert of_type(events, AttackResolved)[0].hit_value == 12  # right-hand (placeholder)
        # Provenance last: it skips on a clone without the rule documents.
        assert says("If the additional roll isless than or equal to the number of bursts in the "
                    "attack, the aircraft must use its right-hand Hit Value")  # fmt: skip

    def test_a_high_second_roll_keeps_the_left_hand_value(self) -> None:
        state = engaged(_fight("Fw 190A-8", ammunition_rule=True), "a1", "b1", "tailing")
        state, events = run(state, ATTACK, [[1], [2]])
        assert not of_type(events, AmmunitionChecked)[0].depleted
        assert not state.aircraft["a1"].ammo_depleted

    def test_no_check_without_the_optional_rule_or_for_crack_shots(self) -> None:
        state = engaged(_fight("Fw 190A-8"), "a1", "b1", "tailing")
        assert not of_type(run(state, ATTACK, [[1]])[1], AmmunitionChecked)

    def test_s4_1_10_bombers_always_roll(self) -> None:
        state = make_state(
            [entry("a1", "Fw 190A-8", "A", "A", "leader", hand=6),
             entry("bomber", "B-17G", "B", "F", "formation")],
            starting_altitude=5, ammunition_rule=True,
        )  # fmt: skip
        state = engaged(state, "a1", "bomber", "neutral")
        # 2 hits x HV 20 = 40: 5 points, nothing left over, yet the die is rolled (4.1.10).
        state, events = run(state, {**ATTACK, "target": "bomber"}, [[1], [1]])
        assert of_type(events, AmmunitionChecked)[0].depleted

    def test_out_of_ammunition_cannot_attack(self) -> None:
        cards = {"E": _card("E", hit_value=8, reduced_hit_value=0), "T": _card("T", defense=40)}
        state = engaged(_fight("E", "T", cards=cards, ammunition_rule=True), "a1", "b1", "tailing")
        # 16 against 40 is below 1:2: a 1 rolls again (a 6: no effect), then the ammo roll.
        state, _ = run(state, ATTACK, [[1], [6], [1]])
        assert state.aircraft["a1"].ammo_depleted
        with pytest.raises(RuleError) as info:
            run(state, ATTACK, [[6]])
        assert info.value.rule.endswith("10.15") and "out of ammunition" in str(info.value)


class TestS10_12_Hurricane:
    def test_heavy_fire_uses_16_and_discards(self) -> None:
        state = engaged(_fight("Hurricane IIC"), "a1", "b1", "tailing")
        state, events = run(state, {**ATTACK, "heavy_fire": True}, [[6]])
        assert of_type(events, AttackResolved)[0].hit_value == 16
        assert of_type(events, CardsDiscarded)[0].rule.endswith("10.12")
        assert state.aircraft["a1"].hand == 4

    def test_wingman_always_uses_8(self) -> None:
        state = engaged(_fight("Hurricane IIC"), "a2", "b1", "tailing")
        with pytest.raises(RuleError) as info:
            run(state, {**ATTACK, "attacker": "a2", "heavy_fire": True}, [[6]])
        assert info.value.rule.endswith("10.12")


def test_s10_13_beaufighter_scores_at_most_two_hits_per_card() -> None:
    state = engaged(_fight("Beaufighter IF"), "a1", "b1", "tailing")
    state, events = run(state, {**ATTACK, "hits": 3}, [[6]])
    assert of_type(events, AttackResolved)[0].hits == 2


def test_s10_6_quick_bank_scissors_do_not_count() -> None:
    cards = {"Q": _card("Q", performance=[{"low": 1, "high": 10, "agility": 1, "speed": 6,
                                           "hp": 3}], characteristics=["quick_bank"])}  # fmt: skip
    state = next_turn(_fight("Q", cards=cards), "A")
    state, _ = run(state, {"type": "PlayCard", "aircraft": "a1", "card": "maneuvering"})
    state, events = run(state, {"type": "PlayCard", "aircraft": "a1", "card": "scissors"})
    assert not of_type(events, CardPlayed)[0].agility_card


def test_s10_7_slow_bank_scissors_only_against_tight_turn() -> None:
    cards = {"L": _card("L", characteristics=["slow_bank"])}
    state = next_turn(_fight("L", cards=cards), "A")
    with pytest.raises(RuleError) as info:
        run(state, {"type": "PlayCard", "aircraft": "a1", "card": "scissors", "against": "b1"})
    assert info.value.rule.endswith("10.7")
    run(state, {"type": "PlayCard", "aircraft": "a1", "card": "scissors",
                "response_to": "tight_turn"})  # fmt: skip


def test_s10_11_3_thach_weave_bid() -> None:
    state = make_state(
        [entry("a1", "F4F-4", "A", "A", "leader", hand=6),
         entry("c1", "F4F-4", "A", "C", "leader", hand=6),
         entry("b1", "A6M2", "B", "B", "leader", hand=6)],
        starting_altitude=5,
    )  # fmt: skip
    state, _ = run(state, {"type": "BidThachWeave", "side": "A", "victory_points": 2,
                           "accepted": True})  # fmt: skip
    assert state.thach_weave == ("A",) and state.victory_points_conceded == {"A": 2}
    with pytest.raises(RuleError) as info:
        run(state, {"type": "BidThachWeave", "side": "B", "victory_points": 1, "accepted": True})
    assert info.value.rule.endswith("10.11")
