"""2.1.7, 4: how often a AAA concentration attacks a US flight.

The seed says AAA "shoot at all US or DRV units they are eligible to attack" (2.1.7) and
that "During a US flight's movement it may be subject to AAA or SAM fire" (4); it bounds
neither the number of attacks nor the Flak Damage rolls: the base game does. Unbounded,
the player could roll the DRV's AAA attack on a flight again and again, and read the roll
they liked (or fish for the doubles that call random events). umpire takes the bound as
a documented base-game value, `aaa_attacks_per_mp` (default 1): a concentration attacks a
flight at most that often between two of the flight's Movement Points, and each attack
allows one Flak Damage roll; 0 lifts the bound (README ledger 2.1.7). Dice are stated.
"""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.downtown.setups import drv_attack, move_us, new_state, of, run
from umpire.engine.actions import legal_actions
from umpire.engine.errors import RuleError
from umpire.engine.roles import Role
from umpire.engine.rulesets.downtown import RULESET
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.state import AaaUnit, State, UsFlight
from umpire.engine.rulesets.downtown.terms import Mission, Phase, Task


def _beside(**setup: object) -> State:
    """Movement Phase: S1 (Strike, bombing) in 2022, one hex from A1 (L) in 2021."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="2022")
    return msgspec.structs.replace(
        new_state(**setup), phase=Phase.MOVEMENT, turn=1, us=(s1,),
        aaa=(AaaUnit(id="A1", hex="2021", density="L"),),
    )  # fmt: skip


def _movement_began() -> ev.PhaseBegan:
    return ev.PhaseBegan(rule="000_842c81c5c58bc2f6.txt 5.1", phase=Phase.MOVEMENT, turn=2)


def _rolls(state: State) -> list[tuple[str, str]]:
    listed = legal_actions(RULESET, state, Role.PLAYER, ended=False)
    roll = next((a for a in listed if a.type == "RollDrvAttack"), None)
    if roll is None:
        return []
    schema = roll.schema
    return sorted(
        (v["properties"]["unit_id"]["enum"][0], v["properties"]["kind"]["enum"][0])
        for v in schema.get("anyOf", [schema])
    )


def test_one_attack_per_movement_point_and_its_damage_rolls_after_it() -> None:
    """By hand: A1's attack on S1 (3, 4) is made; a second before S1 moves is refused
    (naming the bound, citing 2.1.7), and the listing offers its Flak Damage roll only
    (5, 2), which may be rolled again (1, 3) as the base game's result calls for (two
    hits). S1 spends a Movement Point where it stands: A1 may attack again (6, 1).
    Before: the second attack was accepted and listed."""
    state = _beside()
    assert _rolls(state) == [("A1", "aaa_attack")]
    state, events = run(state, drv_attack("A1", "aaa_attack", "S1"), [[3, 4]])
    assert of(events, ev.DrvAttackRolled)[0].total == 7
    with pytest.raises(RuleError, match="AAA attacks on a flight per Movement Point 1") as info:
        run(state, drv_attack("A1", "aaa_attack", "S1"), [[2, 5]])
    assert info.value.rule.endswith(" 2.1.7")
    assert _rolls(state) == [("A1", "flak_damage")]
    state, _ = run(state, drv_attack("A1", "flak_damage", "S1"), [[5, 2]])
    state, _ = run(state, drv_attack("A1", "flak_damage", "S1"), [[1, 3]])
    state, _ = run(state, move_us("2022", "S1"), [])
    assert _rolls(state) == [("A1", "aaa_attack"), ("A1", "flak_damage")]
    state, _ = run(state, drv_attack("A1", "aaa_attack", "S1"), [[6, 1]])


def test_a_flak_damage_roll_needs_an_attack_and_outlasts_the_move() -> None:
    """No attack rolled: no Flak Damage roll (refused, nothing listed but the attack).
    After an attack (2, 3), S1 moves to 2024, three hexes away (beyond `aaa_range` 1):
    the damage roll (4, 5) of the attack made is still taken; no new attack is. The next
    Movement Phase starts afresh: no damage roll without a new attack."""
    state = _beside()
    with pytest.raises(RuleError, match="roll the AAA attack first"):
        run(state, drv_attack("A1", "flak_damage", "S1"), [[4, 5]])
    state, _ = run(state, drv_attack("A1", "aaa_attack", "S1"), [[2, 3]])
    state, _ = run(state, move_us("2024", "S1"), [])
    assert _rolls(state) == [("A1", "flak_damage")]
    state, _ = run(state, drv_attack("A1", "flak_damage", "S1"), [[4, 5]])
    assert state.aaa_fire and RULESET.evolve(state, _movement_began()).aaa_fire == ()


def test_the_bound_is_a_setup_value_and_zero_lifts_it() -> None:
    """`aaa_attacks_per_mp` 2: two attacks (1, 2), (3, 5) before S1 moves, not a third;
    0: the rolls are the player's to ask for, as the base game has them (v6's way)."""
    state = _beside(aaa_attacks_per_mp=2)
    state, _ = run(state, drv_attack("A1", "aaa_attack", "S1"), [[1, 2]])
    state, _ = run(state, drv_attack("A1", "aaa_attack", "S1"), [[3, 5]])
    with pytest.raises(RuleError, match="Movement Point 2"):
        run(state, drv_attack("A1", "aaa_attack", "S1"), [[4, 6]])
    free = _beside(aaa_attacks_per_mp=0)
    for faces in ([1, 2], [3, 5], [4, 6]):
        free, _ = run(free, drv_attack("A1", "aaa_attack", "S1"), [faces])
    run(free, drv_attack("A1", "flak_damage", "S1"), [[2, 6]])


def test_a_report_that_moves_the_flight_opens_the_next_attack() -> None:
    """A report is the US side as it stands (1.2.1): one that puts S1 in another hex (2023,
    two hexes from A1, `aaa_range` 2) lets A1 attack again (4, 1) after its attack (2, 6),
    as an MP would; one that leaves S1 where it is (altitude only) does not."""
    state = _beside(aaa_range=2)
    state, _ = run(state, drv_attack("A1", "aaa_attack", "S1"), [[2, 6]])
    s1 = {"id": "S1", "mission": "strike", "task": "bombing", "hex": "2022", "altitude": "low"}
    state, _ = run(state, {"type": "ReportUsFlights", "flights": [s1]}, [])
    assert _rolls(state) == [("A1", "flak_damage")]
    state, _ = run(state, {"type": "ReportUsFlights", "flights": [{**s1, "hex": "2023"}]}, [])
    state, _ = run(state, drv_attack("A1", "aaa_attack", "S1"), [[4, 1]])
