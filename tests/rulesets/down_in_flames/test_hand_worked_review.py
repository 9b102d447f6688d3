"""More cases of 002_c21c1b1d0b6ff92b.txt worked by hand with stated dice, by a fresh
reviewer: each docstring gives the rule, the dice and the result worked from the seed's
words, not from the code. They cover what test_hand_worked leaves open: the 3:1 and 7:1
columns and a fraction dropped from 2.83:1, gunner fire on the odds, an Ace's damage, the
loaded floors, a Beaufighter's aggregated cards, a recruit's Neutral burst, an ammunition
check against two bursts, a climb that would break the 8.3 minimum, and a bid above a
Leader's ceiling.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.down_in_flames.setups import card, engaged, entry, make_state, of_type, run
from umpire.engine.errors import RuleError
from umpire.engine.roles import Role
from umpire.engine.rulesets.down_in_flames import RULESET
from umpire.engine.rulesets.down_in_flames.events import (
    AmmunitionChecked,
    AttackResolved,
    StartingAltitudeSet,
)
from umpire.engine.rulesets.down_in_flames.performance import ratings
from umpire.engine.rulesets.down_in_flames.state import State
from umpire.engine.rulesets.down_in_flames.terms import Outcome

D, S, N = Outcome.DAMAGED, Outcome.SHOT_DOWN, Outcome.NO_EFFECT


def _band(agility: int, speed: int, hp: int) -> list[dict[str, int]]:
    return [{"low": 1, "high": 10, "agility": agility, "speed": speed, "hp": hp}]


def _fight(
    att: dict[str, Any] | None = None,
    tgt: dict[str, Any] | None = None,
    a1: dict[str, Any] | None = None,
    b1: dict[str, Any] | None = None,
    position: str = "tailing",
    **options: Any,
) -> State:
    cards = {"ATT": att or card("ATT"), "TGT": tgt or card("TGT")}
    state = make_state(
        [entry("a1", "ATT", "A", "A", "leader", hand=6, **(a1 or {})),
         entry("b1", "TGT", "B", "B", "leader", hand=6, **(b1 or {}))],
        starting_altitude=5, custom_aircraft=cards, **options,
    )  # fmt: skip
    return engaged(state, "a1", "b1", position)


def _attack(state: State, hits: int, faces: list[list[int]], **kw: Any) -> Any:
    cmd = {"type": "Attack", "attacker": "a1", "target": "b1", "card": "in_my_sights",
           "hits": hits, "bursts": 1, **kw}  # fmt: skip
    return run(state, cmd, faces)


@pytest.mark.parametrize(("face", "result"), [(1, S), (2, D), (3, D), (4, N)])
def test_s3_2_5_three_to_one(face: int, result: Outcome) -> None:
    """3.2.5: 3 hits x HV 6 = 18 against Defense 6 is 3:1. Half the odds is 1.5: a 1 shoots
    down; at most the odds (3): a 2 or 3 damages; a 4 misses."""
    _, events = _attack(_fight(att=card("ATT", hit_value=6)), 3, [[face]])
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.column, resolved.result) == ("3:1", result)


@pytest.mark.parametrize(("face", "result"), [(3, S), (4, D), (6, D)])
def test_s3_2_5_seven_to_one_every_face_hits(face: int, result: Outcome) -> None:
    """3.2.5: 3 hits x HV 14 = 42 against Defense 6 is 7:1. Half the odds is 3.5: 1-3 shoot
    down; every other face is at most the odds: 4-6 damage. No face misses."""
    _, events = _attack(_fight(att=card("ATT", hit_value=14)), 3, [[face]])
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.column, resolved.result) == ("7:1", result)


@pytest.mark.parametrize(("face", "result"), [(1, S), (2, D), (3, N)])
def test_s3_2_4_a_fraction_is_dropped_above_one_to_one(face: int, result: Outcome) -> None:
    """3.2.4: 1 hit x HV 17 = 17 against Defense 6 is 2.83:1; greater than 1:1, so the
    fraction is dropped: 2:1 (not rounded up to 3:1). Half the odds (1) shoots down, at most
    the odds (2) damages, a 3 misses."""
    _, events = _attack(_fight(att=card("ATT", hit_value=17)), 1, [[face]])
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.column, resolved.result) == ("2:1", result)


@pytest.mark.parametrize(("face", "result"), [(1, S), (2, D), (3, N)])
def test_s3_3_gunner_fire_is_resolved_on_the_odds_at_hit_value_8(
    face: int, result: Outcome
) -> None:
    """3.3: gunner fire has a Hit Value of 8, and 3.2's odds resolve it against a fighter:
    2 hits x 8 = 16 against Defense 6 is 2.67:1, fractions dropped: 2:1 (3.2.9's figures).
    A 1 shoots the fighter down, a 2 damages it, a 3 misses."""
    gunship = card("GUN", aircraft_class="light_bomber", characteristics=["gunner"])
    state = make_state(
        [entry("g1", "GUN", "A", "A", "leader", hand=6),
         entry("b1", "TGT", "B", "B", "leader", hand=6)],
        starting_altitude=5, custom_aircraft={"GUN": gunship, "TGT": card("TGT")},
    )  # fmt: skip
    state, _ = run(state, {"type": "BeginTurn", "side": "B"})
    cmd = {"type": "ResolveDefensiveFire", "shooter": "g1", "target": "b1", "kind": "gunner",
           "hits": 2}  # fmt: skip
    _, events = run(state, cmd, [[face]])
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.hit_value, resolved.column, resolved.result) == (8, "2:1", result)


def test_s9_1_8_and_s5_1_an_ace_s_agility_4_is_5_before_the_damage_takes_2() -> None:
    """9.1.8 then 5.1: an Ace's card reads Agility 4, Speed 4, HP 1; the Ace makes them 5, 5
    and 2. Damaged: Agility 5 is more than 4, so it loses 2 (3); Speed 4; HP 1. The damage:
    4 hits x HV 8 against Defense 6 is 5:1, a 3 damages."""
    target = card("TGT", performance=_band(4, 4, 1))
    state = _fight(tgt=target, b1={"pilot_quality": "ace"})
    r = ratings(state, state.aircraft["b1"])
    assert (r.agility, r.speed, r.hp) == (5, 5, 2)
    state, _ = _attack(state, 4, [[3]])
    r = ratings(state, state.aircraft["b1"])
    assert (r.agility, r.speed, r.hp) == (3, 4, 1)


@pytest.mark.parametrize(
    ("band", "loaded"),
    [((5, 6, 3), (3, 6, 2)), ((4, 6, 3), (3, 6, 2)), ((1, 2, 1), (1, 2, 1))],
)
def test_s9_2_loaded_agility_and_hp_with_their_floors(
    band: tuple[int, int, int], loaded: tuple[int, int, int]
) -> None:
    """9.2.1-9.2.3: loaded, Agility loses 2 if more than 4, else 1, never below 1; HP loses 1,
    never below 1; Speed is unchanged. 5/6/3 -> 3/6/2, 4/6/3 -> 3/6/2, 1/2/1 stays 1/2/1."""
    made = card("ATT", performance=_band(*band))
    state = _fight(att=made, a1={"loaded": True})
    r = ratings(state, state.aircraft["a1"])
    assert (r.agility, r.speed, r.hp) == loaded


def test_s10_13_a_beaufighter_s_aggregated_three_hit_cards_score_two_each() -> None:
    """10.13 with 3.2.10: a Beaufighter IF scores at most 2 hits per card, so two aggregated
    3-hit cards count 2 + 2 = 4 hits: 4 x HV 8 = 32 against Defense 6 is 5:1 (not 6 hits,
    8:1). A 3 damages (at most 5, more than 2.5)."""
    state = _fight(att=card("ATT", characteristics=["beaufighter_if_firing"]))
    state, _ = _attack(state, 3, [], aggregate=True)
    _, events = _attack(state, 3, [[3]])
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.hits, resolved.column, resolved.result) == (4, "5:1", D)


def test_s9_1_1_a_recruit_leader_has_no_neutral_burst_and_three_tailing() -> None:
    """9.1.1 with 3.1: a recruit's burst rating is reduced by 1: a reflector sight's Neutral
    1 becomes 0, so a Neutral attack is refused, citing 9.1.1; Tailing gives 4 - 1 = 3
    bursts, so a card of 3 bursts is accepted (1 hit x HV 8 against Defense 6, 1:1; a first
    2 misses)."""
    state = _fight(a1={"pilot_quality": "recruit"}, b1={}, position="neutral",
                   player_sides=["A", "B"])  # fmt: skip
    with pytest.raises(RuleError) as info:
        _attack(state, 1, [[2]])
    # the refusal names 9.1.1 (not 3.1.1, the early gunsight) and says where the 0 comes from
    assert info.value.rule.endswith(" 9.1.1")
    assert "0 a turn: 1 from its sight (3.1), 1 fewer for a recruit (9.1.1)" in str(info.value)
    state = engaged(state, "a1", "b1", "tailing")
    _, events = _attack(state, 1, [[2]], bursts=3)
    assert of_type(events, AttackResolved)[0].result is N


@pytest.mark.parametrize(("ammo_face", "depleted"), [(2, True), (3, False)])
def test_s10_15_the_ammunition_die_is_read_against_the_attack_s_bursts(
    ammo_face: int, depleted: bool
) -> None:
    """10.15: after an attack at the left-hand Hit Value whose die shows 1, a D6 at most
    the number of bursts in the attack depletes. A 2-burst card (1 hit x HV 8 against
    Defense 6, 1:1: a first 1 is rolled again, a 5 damages): a 2 depletes, a 3 does not."""
    att = card("ATT", hit_value=8, reduced_hit_value=4)
    state = _fight(att=att, ammunition_rule=True)
    _, events = _attack(state, 1, [[1], [5], [ammo_face]], bursts=2)
    assert of_type(events, AttackResolved)[0].result is D
    assert of_type(events, AmmunitionChecked)[0].depleted is depleted


def test_s2_2_and_s8_3_a_climb_may_not_leave_fewer_cards_than_the_difference() -> None:
    """2.2 with 8.3: a Leader with Agility 9 and Speed 6 keeps at least 3 cards. Holding 4,
    a climb would discard 2 and leave 2: refused, nothing changes. Holding 5 it climbs and
    keeps 3."""
    made = card("ATT", performance=_band(9, 6, 3))
    state = _fight(att=made, player_sides=["A", "B"])
    held, _ = run(state, {"type": "ReportHand", "aircraft": "a1", "cards": 4})
    with pytest.raises(RuleError) as info:
        run(held, {"type": "Climb", "element": "A"})
    assert "8.3" in info.value.rule
    held, _ = run(state, {"type": "ReportHand", "aircraft": "a1", "cards": 5})
    climbed, _ = run(held, {"type": "Climb", "element": "A"})
    assert climbed.elements["A"].altitude == 6 and climbed.aircraft["a1"].hand == 3


def test_s2_5_1_a_bid_above_a_leader_s_ceiling_is_refused() -> None:
    """2.5 and 2.5.1: the game cannot begin higher than every Leader can reach; a bid for
    level 9 where one Leader's ceiling is 8 is refused, naming 2.5.1; a bid for 8 stands."""
    low = card("TGT", ceiling_level=8, performance=[
        {"low": 1, "high": 8, "agility": 5, "speed": 5, "hp": 3}])  # fmt: skip
    state = make_state(
        [entry("a1", "ATT", "A", "A", "leader", hand=6),
         entry("b1", "TGT", "B", "B", "leader", hand=6)],
        custom_aircraft={"ATT": card("ATT"), "TGT": low},
    )  # fmt: skip

    def bid(level: int) -> dict[str, Any]:
        return {"type": "BidStartingAltitude", "bids": [
            {"side": "A", "altitude": level, "victory_points": 1},
            {"side": "B", "altitude": 4, "victory_points": 0}]}  # fmt: skip

    with pytest.raises(RuleError) as info:
        run(state, bid(9))
    assert "2.5" in info.value.rule
    state, _ = run(state, bid(8))
    assert state.elements["A"].altitude == 8


def test_s5_4_a_damaged_result_on_a_damaged_aircraft_says_it_is_shot_down() -> None:
    """5.4: an aircraft damaged a second time is shot down. 4 hits x HV 8 against Defense 6
    is 5:1: a 3 damages b1, a second 3 damages it again: shot down. The second attack's
    result and its words agree: the table's 'damaged', then 5.4's 'shot down'."""
    state, _ = _attack(_fight(), 4, [[3]])
    state, events = _attack(state, 4, [[3]])
    resolved = of_type(events, AttackResolved)[0]
    assert resolved.result is S and state.aircraft["b1"].shot_down
    assert resolved.explanation.endswith(
        "rolled 3: damaged; b1 was already damaged: shot down (5.4)"
    )


def _weave_sides(state: State) -> list[str] | None:
    """The sides `actions` offers BidThachWeave to (None: not offered)."""
    for action in RULESET.actions(state, Role.PLAYER):
        if action.command_type.__struct_config__.tag == "BidThachWeave":
            return [str(v) for v in action.variants[0]["side"]["enum"]]
    return None


def test_s10_11_only_a_side_with_two_thach_weave_elements_is_offered_the_bid() -> None:
    """10.11 and 10.11.3: the weave applies where 2 or more Elements of the aircraft type
    are in play, and only such a side bids. A Spitfire against a Bf 109 has no weave: the
    bid is not offered (it was listed, then refused citing 10.11). Two F4F-4 Elements on
    side A against an A6M2: side A only, and no longer once it holds the weave."""
    duel = make_state(
        [entry("a1", "Spitfire", "A", "A", "leader", hand=6),
         entry("b1", "Bf 109", "B", "B", "leader", hand=6)],
    )  # fmt: skip
    assert _weave_sides(duel) is None
    state = make_state(
        [entry("a1", "F4F-4", "A", "A", "leader", hand=6),
         entry("c1", "F4F-4", "A", "C", "leader", hand=6),
         entry("b1", "A6M2", "B", "B", "leader", hand=6)],
    )  # fmt: skip
    assert _weave_sides(state) == ["A"]
    bid = {"type": "BidThachWeave", "side": "A", "victory_points": 2, "accepted": True}
    state, _ = run(state, bid)
    assert _weave_sides(state) is None


def test_s2_5_a_start_roll_above_the_limit_is_rolled_again_and_says_why() -> None:
    """2.5 with 2.5.1: a D20 for the starting altitude; both Leaders' ceilings are level 10,
    so a 14 cannot be the start: it is rolled again (ledger I1), and a 6 starts the game at
    level 6. The words say why the 14 was not used."""
    state = make_state(
        [entry("a1", "ATT", "A", "A", "leader", hand=6),
         entry("b1", "TGT", "B", "B", "leader", hand=6)],
        custom_aircraft={"ATT": card("ATT"), "TGT": card("TGT")},
    )  # fmt: skip
    state, events = run(state, {"type": "RollStartingAltitude"}, [[14], [6]])
    assert state.elements["A"].altitude == state.elements["B"].altitude == 6
    (started,) = of_type(events, StartingAltitudeSet)
    assert started.explanation == (
        "all aircraft start at altitude level 6 (rolled again on 14: above level 10, the "
        "highest every Leader can reach and never above 20, 2.5.1-2.5.2)"
    )
