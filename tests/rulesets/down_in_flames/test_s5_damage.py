"""5: damage effects; 9.2 loaded condition and jettison."""

from __future__ import annotations

from tests.rulesets.down_in_flames.setups import (
    duel,
    engaged,
    entry,
    make_state,
    next_turn,
    of_type,
    run,
    says,
)
from umpire.engine.rulesets.down_in_flames.events import AircraftShotDown, AttackResolved
from umpire.engine.rulesets.down_in_flames.performance import ratings, reduce_agility, wingman_draw
from umpire.engine.rulesets.down_in_flames.terms import Outcome


def _hit(state, faces):  # type: ignore[no-untyped-def]
    return run(state, {"type": "Attack", "attacker": "a1", "target": "b1",
                       "card": "in_my_sights", "hits": 2, "bursts": 1}, faces)  # fmt: skip


def test_s5_1_leader_ratings_after_damage() -> None:
    """5.1.1-5.1.3 on the P-51D-10 at level 18 (Agility 5, Speed 8, HP placeholder 4)."""
    state = engaged(duel(target="P-51D-10", altitude=18), "a1", "b1", "tailing")
    # Spitfire HV 8 x 2 = 16 against the P-51's placeholder defense 7: 2:1, damaged on 2.
    state, _ = _hit(state, [[2]])
    r = ratings(state, state.aircraft["b1"])
    assert (r.agility, r.speed, r.hp) == (3, 7, 3)
    assert [reduce_agility(a) for a in (1, 2, 4, 5, 9)] == [1, 1, 3, 3, 7]
    # Provenance last: it skips on a clone without the rule documents.
    assert says("Reduce their Agility rating (see below) by 2 if more than 4. Otherwise,")


def test_s5_4_second_damage_shoots_down() -> None:
    state = engaged(duel(), "a1", "b1", "tailing")
    state, _ = _hit(state, [[2]])
    state = engaged(next_turn(state, "A"), "a1", "b1", "tailing")
    state, events = _hit(state, [[2]])
    assert of_type(events, AttackResolved)[0].result is Outcome.SHOT_DOWN
    assert of_type(events, AircraftShotDown)[0].rule.endswith("5.4")
    assert state.aircraft["b1"].shot_down


def test_s5_2_wingman_loses_one_card_of_its_greater_draw() -> None:
    custom = {
        "W": {
            "name": "W",
            "aircraft_class": "fighter",
            "ceiling_level": 10,
            "defense": 6,
            "hit_value": 8,
            "wingman_offense": 1,
            "wingman_defense": 2,
            "performance": [{"low": 1, "high": 10, "agility": 5, "speed": 5, "hp": 3}],
        }
    }
    state = make_state(
        [entry("a1", "Spitfire", "A", "A", "leader", hand=6),
         entry("b1", "W", "B", "B", "leader", hand=6), entry("b2", "W", "B", "B", "wingman")],
        starting_altitude=5, custom_aircraft=custom,
    )  # fmt: skip
    state = engaged(state, "a1", "b2", "tailing")
    assert wingman_draw(state, state.aircraft["b2"]) == (1, 2)
    state, _ = run(state, {"type": "Attack", "attacker": "a1", "target": "b2",
                           "card": "in_my_sights", "hits": 2, "bursts": 1}, [[2]])  # fmt: skip
    assert wingman_draw(state, state.aircraft["b2"]) == (1, 1)


def test_s5_5_fuel_tank_counts_four_hits_against_a_fighter() -> None:
    state = engaged(duel(), "a1", "b1", "tailing")
    state, events = run(state, {"type": "Attack", "attacker": "a1", "target": "b1",
                                "card": "fuel_tank", "hits": 1, "bursts": 1}, [[6]])  # fmt: skip
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.hits, resolved.total_hv, resolved.column) == (4, 32, "5:1")


def test_s9_2_loaded_penalties_and_s9_2_4_jettison() -> None:
    state = make_state(
        [entry("a1", "Spitfire", "A", "A", "leader", hand=6),
         entry("b1", "P-51D-10", "B", "B", "leader", hand=6, loaded=True)],
        starting_altitude=18,
    )  # fmt: skip
    r = ratings(state, state.aircraft["b1"])
    assert (r.agility, r.speed, r.hp) == (3, 8, 3)  # 9.2.1-9.2.3
    state = engaged(state, "a1", "b1", "tailing")
    state, _ = _hit(state, [[2]])
    plane = state.aircraft["b1"]
    assert plane.damaged and not plane.loaded
    r = ratings(state, plane)
    assert (r.agility, r.speed, r.hp) == (3, 7, 3)  # damage only, not cumulative
