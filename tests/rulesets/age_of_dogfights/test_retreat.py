"""001_989a2f850da69b66.txt General Rules: retreat triggers, the damage roll, the noted
decision, the retreating attack roll, the retreat path, altitude and throttle."""

from __future__ import annotations

import pytest

from tests.rulesets.age_of_dogfights.setups import (
    arrange,
    combat_state,
    decide,
    of_type,
    run_until,
)
from umpire.engine.rulesets.age_of_dogfights.commands import FlyBots, ReportBotDamage
from umpire.engine.rulesets.age_of_dogfights.events import (
    BotMoved,
    DieChosen,
    ResponseRolled,
    RetreatDecided,
)
from umpire.engine.rulesets.age_of_dogfights.retreat import fly_retreat
from umpire.engine.rulesets.age_of_dogfights.terms import Attitude, Damage, DieColour, Manoeuvre

PLAYERS = {"P1": ("se5a", (2, 2), "E", 3), "P2": ("se5a", (2, 10), "E", 3)}


def fighter(**fields):  # type: ignore[no-untyped-def]
    s = combat_state(PLAYERS, {"B1": ("albatros_dv", (15, 6), "E", 3)})
    return arrange(s, "B1", **fields) if fields else s


@pytest.mark.parametrize(
    ("aggressiveness", "roll", "retreats"),
    [("average", 2, True), ("average", 3, False), ("cautious", 3, True),
     ("aggressive", 2, False)],
)  # fmt: skip
def test_damage_to_wings_tail_or_engine_rolls(
    aggressiveness: str, roll: int, retreats: bool
) -> None:
    s = fighter(aggressiveness=aggressiveness)
    s, events = decide(s, ReportBotDamage(aircraft="B1", damage=Damage.TAIL), [[roll]])
    (decision,) = of_type(events, RetreatDecided)
    assert decision.retreating is retreats and "tail" in decision.reason
    assert s.plane("B1").retreating is retreats


def test_damaged_guns_mean_retreat_without_a_roll() -> None:
    s, events = decide(fighter(), ReportBotDamage(aircraft="B1", damage=Damage.GUNS), [])
    assert of_type(events, RetreatDecided)[0].retreating and s.plane("B1").retreating


def test_retreat_is_kept_no_second_damage_roll() -> None:
    s, _ = decide(fighter(), ReportBotDamage(aircraft="B1", damage=Damage.GUNS), [])
    s, events = decide(s, ReportBotDamage(aircraft="B1", damage=Damage.WINGS), [])
    assert not of_type(events, ResponseRolled) and s.plane("B1").retreating


def test_retreat_flies_out_of_its_own_edge_at_full_throttle_and_descends() -> None:
    s = fighter(retreating=True, attitude="nose-down")
    s, events = decide(s, FlyBots(), [[1]])
    assert of_type(events, DieChosen)[0].colour is DieColour.GREEN
    (moved,) = of_type(events, BotMoved)
    assert moved.manoeuvre is Manoeuvre.RETREAT and moved.exited
    assert moved.level == 1  # nose-down towards the lowest level (dive 2 from L3)
    assert s.plane("B1").out == "exited"


def test_retreat_climbs_when_most_player_fighters_have_lower_ceilings() -> None:
    """Nieuport 17 (ceiling L4) and Camel (L5) below the SPAD bot's L6."""
    s = combat_state({"P1": ("nieuport_17", (2, 2), "E", 3), "P2": ("sopwith_camel", (2, 10),
                                                                   "E", 3)},
                     {"B1": ("spad_xiii", (8, 6), "E", 3)})  # fmt: skip
    s = arrange(s, "B1", retreating=True)
    events, _ = run_until(s, lambda ctx: fly_retreat(ctx, "B1"), [[1], [1]])
    (moved,) = of_type(events, BotMoved)
    assert moved.attitude is Attitude.NOSE_UP and "climbs" in moved.explanation


@pytest.mark.parametrize(
    ("aggressiveness", "roll", "attacks"),
    [("average", 3, False), ("average", 4, True), ("cautious", 4, False),
     ("aggressive", 3, True)],
)  # fmt: skip
def test_retreating_attack_roll(aggressiveness: str, roll: int, attacks: bool) -> None:
    """'1-3 = ignore | 4-6 = attack' (+1 aggressive, -1 cautious); here a 'B' position."""
    s = combat_state({"P1": ("se5a", (13, 6), "W", 3)}, {"B1": ("albatros_dv", (9, 6), "E", 3)})
    s = arrange(
        s, "B1", retreating=True, aggressiveness=aggressiveness, full_throttle_available=False
    )  # blue die: 3 steps
    events, _ = run_until(s, lambda ctx: fly_retreat(ctx, "B1"), [[1], [roll], [1], [1], [1]])
    rolled = [e for e in of_type(events, ResponseRolled) if e.table.startswith("retreating")]
    assert rolled[0].result == ("attack" if attacks else "ignore")
    assert (of_type(events, BotMoved)[0].manoeuvre is Manoeuvre.ATTACK) is attacks


def test_retreating_attack_plus_two_for_an_a_position() -> None:
    s = combat_state({"P1": ("se5a", (14, 6), "E", 3)}, {"B1": ("albatros_dv", (9, 6), "E", 3)})
    s = arrange(s, "B1", retreating=True, full_throttle_available=False)
    events, _ = run_until(s, lambda ctx: fly_retreat(ctx, "B1"), [[1], [2], [1], [1]])
    rolled = [e for e in of_type(events, ResponseRolled) if e.table.startswith("retreating")]
    assert rolled[0].modified == 4 and rolled[0].result == "attack"
