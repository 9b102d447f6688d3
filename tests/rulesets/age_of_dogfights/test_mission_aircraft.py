"""001_989a2f850da69b66.txt 'Mission' Aircraft: Task Zones in order, bombing before
reconnaissance, and the attack-on-the-way roll."""

from __future__ import annotations

import pytest

from tests.rulesets.age_of_dogfights.setups import arrange, combat_state, of_type, run_until
from umpire.engine.rulesets.age_of_dogfights.events import (
    BotMoved,
    ResponseRolled,
    RetreatDecided,
    TaskPerformed,
)
from umpire.engine.rulesets.age_of_dogfights.mission import fly_mission
from umpire.engine.rulesets.age_of_dogfights.terms import Manoeuvre, Task

ZONES = [
    {"name": "Z1", "position": [10, 6], "radius": 1},
    {"name": "Z2", "position": [4, 2], "radius": 1},
    {"name": "Z3", "position": [4, 10], "radius": 1},
]
FAR = {"P1": ("se5a", (2, 2), "E", 3)}


def mission(state, faces):  # type: ignore[no-untyped-def]
    return run_until(state, lambda ctx: fly_mission(ctx, "B1"), faces)


def bomber(**fields):  # type: ignore[no-untyped-def]
    s = combat_state(FAR, {"B1": ("dh4", (14, 6), "W", 3)}, zones=ZONES)
    return arrange(s, "B1", **fields) if fields else s


def test_flies_to_the_nearest_zone_and_bombs_it() -> None:
    events, _ = mission(bomber(), [[1]])
    (moved,) = of_type(events, BotMoved)
    assert moved.manoeuvre is Manoeuvre.MISSION and moved.position == (11, 6)
    (task,) = of_type(events, TaskPerformed)
    assert task.zone == "Z1" and task.task is Task.BOMBING


def test_an_already_bombed_zone_is_passed_over_until_all_are_bombed() -> None:
    s = bomber()
    from msgspec.structs import replace

    events, _ = mission(replace(s, bombed=("Z1",)), [[1], [1]])
    zone_choice = of_type(events, BotMoved)[0]
    assert {c.option for c in zone_choice.candidates if c.chosen} <= {"Z2", "Z3"}
    events, _ = mission(replace(s, bombed=("Z1", "Z2", "Z3")), [[1]])
    assert [c.option for c in of_type(events, BotMoved)[0].candidates if c.chosen] == ["Z1"]


def test_bombing_before_reconnaissance_then_home() -> None:
    """DH4 (bombs and camera): bombs first; then photographs; then heads home."""
    events, _ = mission(bomber(bombs_dropped=True), [[1]])
    assert of_type(events, TaskPerformed)[0].task is Task.RECON
    events, _ = mission(bomber(bombs_dropped=True, photographed=True), [])
    (retreat,) = of_type(events, RetreatDecided)
    assert retreat.retreating and "no mission task" in retreat.reason


@pytest.mark.parametrize(
    ("a_position", "roll", "attacks"),
    [(False, 5, False), (False, 6, True), (True, 5, True), (True, 4, False)],
)
def test_attack_on_the_way(a_position: bool, roll: int, attacks: bool) -> None:
    """'1-5 = ignore | 6 = attack', +1 when it can come to an 'A' position: P2 flying
    away from the bomber offers an 'A' position behind it; head-on only 'B'."""
    s = combat_state({"P2": ("se5a", (9, 6), "W" if a_position else "E", 3)},
                     {"B1": ("dh4", (14, 6), "W", 3)}, zones=ZONES)  # fmt: skip
    events, _ = mission(s, [[1], [roll], [1], [1]])
    rolled = [e for e in of_type(events, ResponseRolled) if e.table.startswith("mission")]
    assert rolled[0].result == ("attack" if attacks else "ignore")
    assert rolled[0].modified == roll + (1 if a_position else 0)
    moved = of_type(events, BotMoved)[0]
    assert (moved.manoeuvre is Manoeuvre.ATTACK) is attacks
