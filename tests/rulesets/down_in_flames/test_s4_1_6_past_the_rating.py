"""4.1.6: "When a bomber takes damage point equal to its defense rating, it is shot down."
Damage comes in whole points per attack (4.1.3), so one attack can take a bomber past its
rating: it is shot down then too (read as "at least", README ledger 4.1.6), and the words
say how many points it has against the rating, not that they are equal."""

from __future__ import annotations

import msgspec

from tests.rulesets.down_in_flames.setups import engaged, entry, make_state, of_type, run
from umpire.engine.rulesets.down_in_flames.events import AircraftShotDown


def test_a_bomber_taken_past_its_defense_rating_is_shot_down() -> None:
    """B-17G (sample defense 16) with 13 damage points; an Fw 190A-8 (HV 20) IN MY SIGHTS
    of 2 hits: 40 HV, 5 points and nothing left over (4.1.3, 4.1.7: no die). By hand: 18
    points, more than 16: shot down. Before: "18 damage points, equal to ... 16"."""
    state = make_state(
        [entry("f1", "Fw 190A-8", "B", "J", "leader", hand=6),
         entry("bomber", "B-17G", "A", "F", "formation")],
        starting_altitude=8,
    )  # fmt: skip
    state = engaged(state, "f1", "bomber", "neutral")
    hurt = msgspec.structs.replace(state.aircraft["bomber"], damage_points=13)
    state = msgspec.structs.replace(state, aircraft={**state.aircraft, "bomber": hurt})
    attack = {"type": "Attack", "attacker": "f1", "target": "bomber", "card": "in_my_sights",
              "hits": 2, "bursts": 1}  # fmt: skip
    state, events = run(state, attack, [])
    (down,) = of_type(events, AircraftShotDown)
    assert (
        down.explanation
        == "bomber has 18 damage points, more than its defense rating 16: shot down"
    )
    assert state.aircraft["bomber"].shot_down
