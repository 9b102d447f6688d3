"""Fresh cases worked by hand from 002_c21c1b1d0b6ff92b.txt (rules session 10), each with
its dice stated and its result worked from the seed's text before reading the code; and
the citations a decision of two rules carries (the seed file once, each number once)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from tests.rulesets.down_in_flames.setups import (
    card,
    duel,
    engaged,
    entry,
    make_state,
    of_type,
    run,
)
from umpire.engine.actions import offered
from umpire.engine.citations import names_of, readable
from umpire.engine.errors import RuleError
from umpire.engine.roles import Role
from umpire.engine.rulesets.down_in_flames import RULESET
from umpire.engine.rulesets.down_in_flames.events import (
    AircraftDamaged,
    AircraftShotDown,
    AmmunitionChecked,
    AttackResolved,
)
from umpire.engine.rulesets.down_in_flames.state import State
from umpire.engine.rulesets.down_in_flames.terms import Outcome


def _attack(state: State, hits: int, faces: list[list[int]], **more: Any) -> Any:
    return run(state, {"type": "Attack", "attacker": "a1", "target": "b1",
                       "card": "in_my_sights", "hits": hits, "bursts": 1, **more},
               faces)  # fmt: skip


def test_a_decision_of_two_rules_cites_the_seed_and_each_rule_once() -> None:
    """3.2.9's Spitfire (HV 8) hits the Bf 109 (Defense 6) with 2 hits: 16 to 6 is 2:1
    (3.2.4), a 1 shoots it down (3.2.5). The decision applies 3.2 and its 3.2.5 column:
    its rule is "<seed> 3.2, 3.2.5", read as the seed's title once and the heading once
    (it read "<seed> 3.2; <seed> 3.2.5": the title and "Combat System – Fighters and
    Light Bombers" twice)."""
    state = engaged(duel(), "a1", "b1", "neutral")
    _, events = _attack(state, 2, [[1]])
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.column, resolved.result) == ("2:1", Outcome.SHOT_DOWN)
    assert resolved.rule == "002_c21c1b1d0b6ff92b.txt 3.2, 3.2.5"
    words = readable(resolved.rule, names_of(RULESET))
    assert words == (
        "Down in Flames supplemental rules 3.2 (Combat System – Fighters and Light Bombers), 3.2.5"
    )


def test_a_rocket_decision_cites_the_seed_once() -> None:
    """7.1.2 (the attack) and 7.1.3 (its hit number) in one citation."""
    state = make_state(
        [entry("r1", "Bf 110G-2", "B", "R", "leader", hand=6, rockets=True),
         entry("bomber", "B-17G", "A", "F", "formation")],
        starting_altitude=8, rockets_rule=True,
    )  # fmt: skip
    state = engaged(state, "r1", "bomber", "neutral")
    _, events = run(state, {"type": "Attack", "attacker": "r1", "target": "bomber",
                            "card": "in_my_sights", "hits": 1, "bursts": 1, "rockets": True},
                    [[3]])  # fmt: skip
    assert of_type(events, AttackResolved)[0].rule == "002_c21c1b1d0b6ff92b.txt 7.1.2, 7.1.3"


# Fresh cases. Fighter a1 (side A, the player's) attacks b1 or a formation "bomber";
# custom cards are the player's own data (setups.card: a fighter of even ratings).


def _fight(
    attacker: dict[str, Any], target: dict[str, Any], station: str = "leader", **options: Any
) -> State:
    """a1 (side A's Leader) against b1 of side B; a card with more than a name is the
    player's own data (custom_aircraft)."""
    cards = {c["name"]: c for c in (attacker, target) if len(c) > 1}
    return make_state(
        [entry("a1", attacker["name"], "A", "A", "leader", hand=6),
         entry("b1", target["name"], "B", "B", station, hand=6)],
        starting_altitude=5, custom_aircraft=cards, **options,
    )  # fmt: skip


def _damaged(state: State, plane: str) -> State:
    planes = {**state.aircraft, plane: msgspec.structs.replace(state.aircraft[plane], damaged=True)}
    return msgspec.structs.replace(state, aircraft=planes)


def test_s3_2_5_odds_beyond_the_last_column_shoot_down_on_every_face() -> None:
    """3.2.2-3.2.5: HV 20 x 4 hits = 80 against Defense 6 is 13.33, 13:1 with the fraction
    dropped (3.2.4); half the odds is 6.5, so every D6 face (a 6 here) shoots it down."""
    state = engaged(_fight(card("ATT", hit_value=20), {"name": "Bf 109"}), "a1", "b1", "neutral")
    _, events = _attack(state, 4, [[6]])
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.total_hv, resolved.defense) == (80, 6)
    assert resolved.result is Outcome.SHOT_DOWN and of_type(events, AircraftShotDown)


@pytest.mark.parametrize(("face", "result"), [(6, Outcome.SHOT_DOWN), (7, Outcome.DAMAGED),
                                              (12, Outcome.DAMAGED)])  # fmt: skip
def test_s6_1_1_d12_at_six_to_one_every_face_hits(face: int, result: Outcome) -> None:
    """6.1.1, 6.1.2: HV 8 x 3 hits = 24 against Defense 4 is 6:1 exactly; on the D12 a roll
    at most 6 shoots down, at most 12 (twice the odds) damages: a 12 still damages."""
    state = _fight(card("ATT"), card("TGT", defense=4), combat_die="d12")
    state = engaged(state, "a1", "b1", "neutral")
    _, events = _attack(state, 3, [[face]])
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.column, resolved.result) == ("6:1", result)


@pytest.mark.parametrize(("defense", "faces", "column", "result"), [
    (15, [[1], [3]], "1:2", Outcome.DAMAGED),  # 8:15 = 0.53, from 1:2 up to 1:1
    (15, [[1], [1]], "1:2", Outcome.SHOT_DOWN),
    (17, [[1], [1]], "<1:2", Outcome.DAMAGED),  # 8:17 = 0.47, below 1:2: a 1 damages only
    (17, [[1], [2]], "<1:2", Outcome.NO_EFFECT),
])  # fmt: skip
def test_s3_2_7_and_3_2_8_either_side_of_one_to_two(
    defense: int, faces: list[list[int]], column: str, result: Outcome
) -> None:
    """3.2.7 "For odds of 1:2 roll again if a 1 is rolled. On a 1, the aircraft is shot down;
    on a 2 or 3, it is damaged"; 3.2.8 "less than 1:2, roll again if a 1 is rolled and the
    aircraft is damaged on a 1". One hit of HV 8 against Defense 15 (0.53) reads the 1:2
    column (ledger I5), against Defense 17 (0.47) the one below."""
    state = _fight(card("ATT"), card("TGT", defense=defense))
    _, events = _attack(engaged(state, "a1", "b1", "neutral"), 1, faces)
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.column, resolved.result) == (column, result)


def test_s4_1_4_to_4_1_6_damage_points_add_up_across_attacks() -> None:
    """4.1.3-4.1.6 on a B-17G (Defense 16), HV 8 Tailing (4 bursts, one a card): 7 hits =
    56 HV = 7 points, not yet half (8): flying, in formation. 1 hit more: 8 points, half:
    damaged and out of formation. 1 more: 9 points: still flying (5.4's second damage is
    the fighters', ledger I15). 7 more: 16, its Defense: shot down. No die: no left-over."""
    state = _fight(card("ATT"), {"name": "B-17G"}, "formation")
    state = engaged(state, "a1", "b1", "tailing")
    state, events = _attack(state, 7, [])
    bomber = state.aircraft["b1"]
    assert (bomber.damage_points, bomber.damaged, bomber.in_formation) == (7, False, True)
    # The words say where the bomber stands, and that no die was rolled (one candidate,
    # not two rejected: found playing bomber-escort through the CLI).
    resolved = of_type(events, AttackResolved)[0]
    assert resolved.explanation.endswith("b1 has 7 of its defense 16: damaged at half, 8 (4.1.4)")
    assert [(c.option, c.chosen) for c in resolved.candidates] == [("no left-over roll", True)]
    state, events = _attack(state, 1, [])
    bomber = state.aircraft["b1"]
    assert (bomber.damage_points, bomber.damaged, bomber.in_formation) == (8, True, False)
    assert of_type(events, AircraftDamaged)[0].dropped_out
    state, events = _attack(state, 1, [])
    assert state.aircraft["b1"].damage_points == 9 and not state.aircraft["b1"].shot_down
    assert not of_type(events, AircraftShotDown)
    state, events = _attack(state, 7, [])
    assert state.aircraft["b1"].shot_down and of_type(events, AircraftShotDown)


def test_s5_1_2_and_8_4_a_damaged_p51_plays_three_agility_cards() -> None:
    """8.4.4's P-51D-10 at level 18 (Agility 5, Speed 8), damaged: Agility 5 is more than
    4, so 2 less, 3 (5.1.2); Speed 7 (5.1.3). Speed still exceeds Agility, so 3 Agility
    Cards a turn (8.4): the fourth MANEUVERING is refused citing 8.4."""
    state = make_state(
        [entry("a1", "P-51D-10", "A", "A", "leader", hand=7),
         entry("b1", "TGT", "B", "B", "leader", hand=6)],
        starting_altitude=18,
        custom_aircraft={"TGT": card("TGT", ceiling_level=20, performance=[
            {"low": 1, "high": 20, "agility": 5, "speed": 5, "hp": 3}])},
    )  # fmt: skip
    state = _damaged(state, "a1")
    state, _ = run(state, {"type": "BeginTurn", "side": "A"})
    play = {"type": "PlayCard", "aircraft": "a1", "card": "maneuvering"}
    for _ in range(3):
        state, _ = run(state, play)
    assert state.aircraft["a1"].agility_played == 3
    with pytest.raises(RuleError) as info:
        run(state, play)
    assert info.value.rule.endswith(" 8.4")


@pytest.mark.parametrize(("quality", "damaged", "most", "fewest"), [
    ("regular", True, 7, 2),  # 5.1.2: 9 -> 7; 5.1.3: 6 -> 5; 8.2 7, 8.3 7 - 5 = 2
    ("recruit", False, 7, 3),  # 9.1.1: 2 fewer than 9 to hold; the 8.3 minimum stays 3
    ("veteran", False, 10, 3),  # 9.1.6: 1 more than 9; the 8.3 minimum stays 3
])  # fmt: skip
def test_s8_3_the_a6m2_s_limits_under_damage_and_pilots(
    quality: str, damaged: bool, most: int, fewest: int
) -> None:
    """8.3's A6M2 at level 2 (Agility 9, Speed 6: hold up to 9, never fewer than 3). The
    pilot's 2 fewer (9.1.1) or 1 more (9.1.6) is what the Leader may hold; the minimum is
    8.3's difference of the ratings, which pilots other than an Ace do not change. Shown
    by the rules' own answers: an EndTurn one card above the most is refused, a discard
    to one below the fewest is refused."""
    state = make_state(
        [entry("a1", "A6M2", "A", "A", "leader", hand=fewest, pilot_quality=quality),
         entry("b1", "Bf 109", "B", "B", "leader", hand=6)],
        starting_altitude=2,
    )  # fmt: skip
    if damaged:
        state = _damaged(state, "a1")
    state, _ = run(state, {"type": "BeginTurn", "side": "A"})
    with pytest.raises(RuleError) as info:
        run(state, {"type": "Discard", "aircraft": "a1", "count": 1})
    assert info.value.rule.endswith(" 8.3")
    state, _ = run(state, {"type": "ReportHand", "aircraft": "a1", "cards": most + 1})
    with pytest.raises(RuleError):
        run(state, {"type": "EndTurn", "side": "A"})
    state, _ = run(state, {"type": "Discard", "aircraft": "a1", "count": 1})
    state, _ = run(state, {"type": "EndTurn", "side": "A"})
    assert state.active_side is None


@pytest.mark.parametrize(("d12", "faces", "depleted"), [
    (2, [[2], [1]], True),  # D12 2: shot down, and a 2 checks ammunition: D6 1 <= 1 burst
    (2, [[2], [2]], False),  # ... a D6 of 2 is above the attack's 1 burst
    (3, [[3]], None),  # D12 3: shot down, no check
])  # fmt: skip
def test_s10_15_on_the_d12_a_two_checks_ammunition(
    d12: int, faces: list[list[int]], depleted: bool | None
) -> None:
    """10.15 "If the optional D12 combat system is used, check for ammunition depletion on
    a D12 roll of 1 or 2". Fw 190A-8 (HV 20, right-hand 12) hits the Bf 109 (Defense 6)
    with 1 hit: 20:6 is 3.33, 3:1 by halves (6.1.3): shot down on 1-3 (6.1.2)."""
    state = _fight({"name": "Fw 190A-8"}, {"name": "Bf 109"}, combat_die="d12",
                   ammunition_rule=True)  # fmt: skip
    state, events = _attack(engaged(state, "a1", "b1", "neutral"), 1, faces)
    assert of_type(events, AttackResolved)[0].result is Outcome.SHOT_DOWN
    checks = of_type(events, AmmunitionChecked)
    if depleted is None:
        assert not checks
    else:
        assert [c.depleted for c in checks] == [depleted]
        assert state.aircraft["a1"].ammo_depleted is depleted


def test_s4_1_1_and_5_2_a_damaged_wingman_plays_one_attack_card_on_a_bomber() -> None:
    """4.1.1: a Wingman "may not in a single turn play more IN MY SIGHTS and OUT OF THE SUN
    cards than its Offense rating". A Wingman of Offense 2 and Defense 2, damaged: its
    defense draw is not greater, so its offense draw goes down 1 (5.2): Offense 1. One
    card on the B-17 (HV 8 x 1 hit = 1 point, no die) is played; the second is refused."""
    state = make_state(
        [entry("a1", "ATT", "A", "A", "leader", hand=6),
         entry("a2", "ATT", "A", "A", "wingman"),
         entry("bomber", "B-17G", "B", "F", "formation")],
        starting_altitude=5, custom_aircraft={"ATT": card("ATT")},
    )  # fmt: skip
    state = engaged(_damaged(state, "a2"), "a2", "bomber", "neutral")
    shot = {"type": "Attack", "attacker": "a2", "target": "bomber", "card": "in_my_sights",
            "hits": 1, "bursts": 1}  # fmt: skip
    state, _ = run(state, shot)
    assert state.aircraft["bomber"].damage_points == 1
    with pytest.raises(RuleError) as info:
        run(state, shot)
    assert info.value.rule.endswith(" 4.1.1")


def _listed_cards(state: State) -> set[tuple[str, bool | None]]:
    """The (card, aggregate) pairs the Attack listing allows (None: either)."""
    out: set[tuple[str, bool | None]] = set()
    for action in offered(RULESET, state, Role.PLAYER, ended=False):
        if action.command_type.__struct_config__.tag != "Attack":
            continue
        for variant in action.variants:
            aggregate = variant.get("aggregate", {}).get("enum", [None])[0]
            out |= {(card, aggregate) for card in variant["card"]["enum"]}
    return out


def test_s3_2_10_a_fuel_tank_is_not_aggregated() -> None:
    """3.2.10: "A player may elect to aggregate hits from separate In My Sights or Out of
    Sun cards"; 5.5 counts a Fuel Tank "as a 4 hit card" against a fighter. The Spitfire
    (HV 8), Tailing the Bf 109 (Defense 6), may not announce a Fuel Tank for aggregation,
    nor close an IN MY SIGHTS aggregation with one (it was accepted: 1 + 4 hits = 5, 40:6,
    6:1). Played alone: 4 x 8 = 32 against 6 is 5.33, 5:1; a 3 damages (at most 5, 3.2.5)."""
    state = engaged(duel(), "a1", "b1", "tailing")
    fuel = {"type": "Attack", "attacker": "a1", "target": "b1", "card": "fuel_tank",
            "hits": 1, "bursts": 1}  # fmt: skip
    assert ("fuel_tank", False) in _listed_cards(state)
    assert ("fuel_tank", None) not in _listed_cards(state)
    with pytest.raises(RuleError) as info:
        run(state, {**fuel, "aggregate": True})
    assert info.value.rule.endswith(" 3.2.10")
    held, _ = _attack(state, 1, [], aggregate=True)
    assert not {c for c, _ in _listed_cards(held)} & {"fuel_tank"}
    with pytest.raises(RuleError, match="Fuel Tank card is resolved on its own"):
        run(held, fuel, [[4]])
    _, events = run(state, fuel, [[3]])
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.hits, resolved.column, resolved.result) == (4, "5:1", Outcome.DAMAGED)
