"""001_989a2f850da69b66.txt Long Burst and Jammed Machine Guns."""

from __future__ import annotations

import pytest

from tests.rulesets.age_of_dogfights.setups import (
    arrange,
    combat_state,
    of_type,
    run,
    run_until,
)
from umpire.engine.rulesets.age_of_dogfights.burst import fire
from umpire.engine.rulesets.age_of_dogfights.events import (
    BotMoved,
    BurstChosen,
    CardinalRuleApplied,
    GunsUnjammed,
    ResponseRolled,
    RetreatDecided,
)
from umpire.engine.rulesets.age_of_dogfights.fighter import fly_fighter
from umpire.engine.rulesets.age_of_dogfights.firing import Shot
from umpire.engine.rulesets.age_of_dogfights.retreat import check_triggers
from umpire.engine.rulesets.age_of_dogfights.terms import Column, Gun, Manoeuvre

A_SHOT = Shot(target="P1", gun=Gun.NOSE, column=Column.A, range=2, long_burst=True)
B_SHOT = Shot(target="P1", gun=Gun.NOSE, column=Column.B, range=3, long_burst=False)


def state(ammo: int = 6):  # type: ignore[no-untyped-def]
    s = combat_state({"P1": ("se5a", (9, 6), "E", 3)}, {"B1": ("albatros_dv", (7, 6), "E", 3)})
    return arrange(s, "B1", ammo_nose=ammo)


@pytest.mark.parametrize(
    ("ammo", "roll", "burst", "table"),
    [
        (6, 3, "short", "long burst"),
        (6, 4, "long", "long burst"),
        (3, 4, "long", "long burst"),  # exactly half is not "less than half"
        (2, 4, "short", "long burst, less than half ammunition"),
        (2, 5, "long", "long burst, less than half ammunition"),
    ],
)
def test_long_burst_rolls(ammo: int, roll: int, burst: str, table: str) -> None:
    ctx, events = run(state(ammo), lambda ctx: fire(ctx, "B1", A_SHOT), [[roll]])
    (rolled,) = of_type(events, ResponseRolled)
    assert rolled.table == table and rolled.result == burst
    (chosen,) = of_type(events, BurstChosen)
    assert chosen.burst == burst
    assert ctx.state.plane("B1").ammo_nose == ammo - (2 if burst == "long" else 1)


def test_no_long_burst_roll_where_the_position_does_not_permit_one() -> None:
    _, events = run(state(), lambda ctx: fire(ctx, "B1", B_SHOT), [])
    assert of_type(events, BurstChosen)[0].burst == "short"


def test_last_ammunition_means_retreat() -> None:
    """General Rules: 'If a bot aircraft uses all of its ammunition ... it must start
    retreating immediately.'"""

    def proc(ctx) -> None:  # type: ignore[no-untyped-def]
        fire(ctx, "B1", A_SHOT)
        check_triggers(ctx, "B1")

    ctx, events = run(state(1), proc, [[6]])
    assert of_type(events, BurstChosen)[0].ammo_used == 1
    (retreat,) = of_type(events, RetreatDecided)
    assert retreat.retreating and "ammunition" in retreat.reason
    assert ctx.state.plane("B1").retreating


JAM_BOT = {"B1": ("albatros_dv", (4, 6), "E", 3)}


def jammed(players, **fields):  # type: ignore[no-untyped-def]
    return arrange(combat_state(players, JAM_BOT), "B1", pilot_guns_jammed=True, **fields)


def test_unjamming_by_flying_straight() -> None:
    ctx, events = run(jammed({"P1": ("se5a", (14, 2), "E", 3)}), lambda c: fly_fighter(c, "B1"),
                      [[1], [1]])  # fmt: skip
    (moved,) = of_type(events, BotMoved)
    assert moved.manoeuvre is Manoeuvre.UNJAM and moved.turns == ("straight",) * 3
    assert of_type(events, GunsUnjammed) and not ctx.state.plane("B1").pilot_guns_jammed


@pytest.mark.parametrize(
    ("aggressiveness", "roll", "unjams"),
    [("average", 4, False), ("average", 5, True), ("cautious", 5, False),
     ("aggressive", 4, True)],
)  # fmt: skip
def test_exposed_unjamming_roll(aggressiveness: str, roll: int, unjams: bool) -> None:
    """'1-4 = Random maneuver | 5-6 = continue unjamming' (+1 aggressive, -1 cautious)."""
    s = jammed({"P1": ("se5a", (5, 6), "E", 3)}, aggressiveness=aggressiveness)
    events, asked = run_until(s, lambda c: fly_fighter(c, "B1"), [[1], [1], [roll]])
    (rolled,) = [e for e in of_type(events, ResponseRolled) if e.table.startswith("unjamming")]
    assert rolled.rule.startswith("001_989a2f850da69b66.txt Jammed Machine Guns")
    assert bool(of_type(events, GunsUnjammed)) is unjams
    if not unjams:
        assert "solo die" in asked


def test_straight_off_the_board_is_replaced_by_the_cardinal_rule() -> None:
    s = jammed({"P1": ("se5a", (2, 2), "E", 3)})
    s = arrange(s, "B1", position=(16, 6))
    events, asked = run_until(s, lambda c: fly_fighter(c, "B1"), [[1], [1]])
    (cardinal,) = of_type(events, CardinalRuleApplied)
    assert cardinal.chosen == "Random maneuver" and cardinal.rule.endswith("(cardinal rule)")
    assert "solo die" in asked
