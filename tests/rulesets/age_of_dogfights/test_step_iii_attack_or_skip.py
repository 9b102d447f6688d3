"""001_989a2f850da69b66.txt Step III: skip-or-attack when Exposed, down the priority list,
a skipped 'A' target reconsidered at 'B' after the other 'A' opportunities, the Approach
maneuver's own exposure roll, and the 1-in-6 Random maneuver."""

from __future__ import annotations

import pytest

from tests.rulesets.age_of_dogfights.setups import (
    arrange,
    combat_state,
    of_type,
    run,
    run_until,
)
from umpire.engine.rulesets.age_of_dogfights.events import (
    BotMoved,
    BurstChosen,
    ExposureChecked,
    ResponseRolled,
)
from umpire.engine.rulesets.age_of_dogfights.fighter import fly_fighter
from umpire.engine.rulesets.age_of_dogfights.terms import Column, Manoeuvre

BOT = {"B1": ("albatros_dv", (4, 6), "E", 3)}
TARGET = {"P2": ("se5a", (9, 6), "E", 3)}
EXPOSER = {"P3": ("se5a", (5, 6), "E", 3)}  # ends up behind the bot's 'A' position


def fly(ctx) -> None:  # type: ignore[no-untyped-def]
    fly_fighter(ctx, "B1")


def skip_rolls(events) -> list[ResponseRolled]:  # type: ignore[no-untyped-def]
    return [e for e in of_type(events, ResponseRolled) if e.table == "skip or attack"]


def test_position_that_is_not_exposed_is_attacked_without_a_roll() -> None:
    ctx, events = run(combat_state(TARGET, BOT), fly, [[1], [1], [4]])
    assert not skip_rolls(events)
    (moved,) = of_type(events, BotMoved)
    assert moved.manoeuvre is Manoeuvre.ATTACK and moved.target == "P2"
    assert moved.position == (7, 6)
    (burst,) = of_type(events, BurstChosen)
    assert burst.column is Column.A and burst.burst == "long" and burst.ammo_left == 4
    assert ctx.state.plane("B1").ammo_nose == 4


@pytest.mark.parametrize(
    ("aggressiveness", "roll", "attacks"),
    [("average", 4, True), ("average", 3, False), ("aggressive", 3, True),
     ("cautious", 4, False)],
)  # fmt: skip
def test_exposed_position_skip_or_attack(aggressiveness: str, roll: int, attacks: bool) -> None:
    s = arrange(combat_state({**TARGET, **EXPOSER}, BOT), "B1", aggressiveness=aggressiveness)
    events, asked = run_until(s, fly, [[1], [1], [roll], [1]])
    first = skip_rolls(events)[0]
    assert first.result == ("attack" if attacks else "skip")
    assert first.rule.endswith("Step III, row " + ("4-6 = attack" if attacks else "1-3 = skip"))
    exposure = [e for e in of_type(events, ExposureChecked) if "P2 (column A)" in e.situation]
    assert exposure[0].exposed and exposure[0].threats == ("P3",)
    if attacks:
        assert of_type(events, BotMoved)[0].target == "P2"
        assert of_type(events, BurstChosen)[0].burst == "short"  # long burst roll 1
    else:  # next on the list: P2 again, at 'B'
        assert not of_type(events, BotMoved)
        assert "skip or attack P2" in asked or len(skip_rolls(events)) == 2


def test_skipped_a_target_is_reconsidered_at_b_after_the_other_a_targets() -> None:
    """P2 (damaged, first) at 'A' skipped; P4 at 'A' skipped; only then P2 at 'B'."""
    s = combat_state({**TARGET, **EXPOSER, "P4": ("se5a", (8, 4), "E", 3)}, BOT)
    s = arrange(s, "P2", damaged=True)
    _, events = run(s, fly, [[1], [1], [1], [2], [6], [4]])
    situations = [e.situation for e in of_type(events, ExposureChecked)][1:]
    assert [x.split(" (column")[0] for x in situations] == [
        "firing position on P2", "firing position on P4", "firing position on P2",
    ]  # fmt: skip
    assert "(column A)" in situations[0] and "(column A)" in situations[1]
    assert "(column B)" in situations[2]
    b_check = of_type(events, ExposureChecked)[3]
    assert b_check.rule.endswith("(skipped 'A' target reconsidered at 'B')")
    assert [r.result for r in skip_rolls(events)] == ["skip", "skip", "attack"]
    (moved,) = of_type(events, BotMoved)
    assert moved.target == "P2" and moved.position == (6, 7)  # second of two, die 4
    assert of_type(events, BurstChosen)[0].column is Column.B


APPROACH = {"P2": ("dh4", (12, 6), "E", 3), **EXPOSER}  # mission aircraft chosen


@pytest.mark.parametrize(("roll", "random"), [(3, True), (4, False)])
def test_exposed_approach_maneuver_rolls_skip_or_go(roll: int, random: bool) -> None:
    events, asked = run_until(combat_state(APPROACH, BOT), fly, [[1], [1], [roll]])
    check = [e for e in of_type(events, ExposureChecked) if e.situation == "Approach maneuver"]
    assert check[0].exposed and check[0].rule.endswith(
        "(whether the Approach maneuver would make the bot Exposed)"
    )
    if random:
        assert "solo die, step 1" in asked and not of_type(events, BotMoved)
    else:
        (moved,) = of_type(events, BotMoved)
        assert moved.manoeuvre is Manoeuvre.APPROACH and moved.target == "P2"


@pytest.mark.parametrize(("roll", "random"), [(1, True), (2, False)])
def test_unexposed_approach_still_turns_random_on_a_one(roll: int, random: bool) -> None:
    """'Even if an Approach maneuver would not make the bot Exposed, roll a standard die.
    If 1 is rolled, the bot will perform a Random maneuver, regardless of pilot
    aggressiveness.'"""
    s = arrange(combat_state({"P2": ("dh4", (12, 6), "E", 3)}, BOT), "B1",
                aggressiveness="aggressive")  # fmt: skip
    events, asked = run_until(s, fly, [[1], [1], [roll]])
    (roll_event,) = [e for e in of_type(events, ResponseRolled) if "Approach" in e.table]
    assert roll_event.modified == roll  # no aggressiveness modifier
    assert ("solo die, step 1" in asked) is random
    # Nothing modifies it, so it reads "rolled 2: approach maneuver", not "rolled 2 = 2".
    result = "random maneuver" if random else "approach maneuver"
    assert roll_event.explanation == f"Approach maneuver, 1 = Random: rolled {roll}: {result}"


def test_every_opportunity_skipped_means_the_approach_maneuver() -> None:
    """Step III (hand-worked, round 7): 'Do this for all currently available targets until
    ... there are no more opportunities for attack' and Step II: 'if all opportunities are
    skipped ..., the bot will perform an Approach maneuver'. P2 at 'A' (Exposed to P3):
    3 = skip; P2 again at 'B': 3 = skip; nothing left, so the bot turns to the Approach
    maneuver towards the nearest aircraft (P3; a die, 1, among equal paths), whose own
    exposure check follows (not Exposed) and then its 1-in-6 roll."""
    s = combat_state({**TARGET, **EXPOSER}, BOT)
    events, asked = run_until(s, fly, [[1], [1], [3], [3], [1]])
    assert [r.result for r in skip_rolls(events)] == ["skip", "skip"]
    assert not of_type(events, BotMoved)
    situations = [e.situation for e in of_type(events, ExposureChecked)]
    assert situations[-1] == "Approach maneuver"
    assert "Approach maneuver" in asked
