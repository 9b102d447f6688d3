"""Fresh cases worked by hand from 002_c21c1b1d0b6ff92b.txt (rules session 10), each with
its dice stated and its result worked from the seed's text before reading the code; and
the citations a decision of two rules carries (the seed file once, each number once)."""

from __future__ import annotations

from typing import Any

from tests.rulesets.down_in_flames.setups import (
    duel,
    engaged,
    entry,
    make_state,
    of_type,
    run,
)
from umpire.engine.citations import names_of, readable
from umpire.engine.rulesets.down_in_flames import RULESET
from umpire.engine.rulesets.down_in_flames.events import (
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
