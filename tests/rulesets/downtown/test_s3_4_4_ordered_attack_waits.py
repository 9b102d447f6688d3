"""3.4.4, 2.3.1, 4, 4.1.2: an attack umpire orders is rolled before play goes on.

A SAM reacts "each time" an acquired flight "moves a Movement Point" (3.4.4), a Fire Can
fires at "the first US flight to move within range" (2.3.1), and a random event's attack
comes as play is "immediately" stopped (4, 4.1.2): the attack happens as that Movement
Point is spent. So until the ordered attack is rolled, every other command is refused
(a RuleError naming the attack and the roll to send, citing the rule that ordered it,
writing nothing) and only DRV rolls are listed; the roll is read at the range of the
order (README ledger, 3.4.4). Dice are stated.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from tests.rulesets.downtown.setups import (
    C1_CAP,
    SAM1,
    SETUP,
    drv_attack,
    manual_for,
    move_us,
    moving,
    new_state,
    of,
    run,
    to_a_sam_in_reach,
)
from tests.support.gateway_games import create_bound
from umpire.engine.actions import legal_actions
from umpire.engine.errors import RuleError
from umpire.engine.roles import Role
from umpire.engine.rulesets.downtown import RULESET
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.board import board_of
from umpire.engine.rulesets.downtown.state import AaaUnit, FireCan, State, UsFlight
from umpire.engine.rulesets.downtown.terms import Mission, Task
from umpire.server.games import Games

# The universal commands every game lists (the player's own roll, ending the game early)
# are not the ruleset's: they play no part in the DRV's turn.
UNIVERSAL = {"RollDice", "EndGame"}


def _listed(state: State) -> dict[str, Any]:
    """The ruleset's listed commands by type (the universal ones left out)."""
    listed = legal_actions(RULESET, state, Role.PLAYER, ended=False)
    return {a.type: a.schema for a in listed if a.type not in UNIVERSAL}


def _rolls(listed: dict[str, Any]) -> list[tuple[str, str, str]]:
    schema = listed["RollDrvAttack"]
    return sorted(
        (v["properties"]["unit_id"]["enum"][0], v["properties"]["flight_id"]["enum"][0],
         v["properties"]["kind"]["enum"][0])
        for v in schema.get("anyOf", [schema])
    )  # fmt: skip


# Everything but a DRV roll waits: the US moving on or ending its movement, a report, a
# DRV move, a phase's end (the commands a Movement Phase offers).
WAITING = [
    move_us("2025"),
    {"type": "EndUsFlightMovement", "flight_id": "C1"},
    {"type": "ReportUsFlights", "flights": [{"id": "C1", "mission": "cap", "task": "cap",
                                              "hex": "2025"}]},
    {"type": "ReportAcquisition", "sam_id": "SAM1", "flight_id": "C1", "level": "partial"},
    {"type": "ReportUnitStatus", "unit_id": "SAM1", "status": "radar_off"},
    {"type": "DrvChitPicked", "value": 1},
    {"type": "RunAdminPhase"},
]  # fmt: skip


def test_a_sam_reaction_is_rolled_at_its_range_before_the_flight_moves_on() -> None:
    """3.4.4: C1 spends an MP into 2026, 5 hexes from SAM1, which fires one SAM (option 2,
    a CAP flight). C1's next MP, into 2025 (4 hexes), is refused, naming SAM1's attack at 5
    hexes and the roll to send, citing option 2; it is not listed, and neither is any
    other command but the roll. The roll (3, 8) is read at 5 hexes; then C1 moves on, and
    the damage roll (6, 2), after the move, is still read at the order's 5 hexes."""
    ordered, events = run(moving(sams=(SAM1,)), move_us("2026"), [])
    assert [e.option for e in of(events, ev.SamReacted)] == [2]
    with pytest.raises(RuleError) as info:
        run(ordered, move_us("2025"))
    said = str(info.value)
    assert "MoveUsFlight waits for the attack umpire ordered" in said
    assert "SAM1's SAM attack on C1 at 5 hexes, not rolled yet" in said
    assert "roll SAM1's SAM attack on C1 first (RollDrvAttack)" in said
    assert "3.4.5 SAM Reaction Table option 2" in info.value.rule
    listed = _listed(ordered)
    assert set(listed) == {"RollDrvAttack"}
    assert _rolls(listed) == [("SAM1", "C1", "sam_attack")]

    state, events = run(ordered, drv_attack("SAM1", "sam_attack"), [[3, 8]])
    (rolled,) = of(events, ev.DrvAttackRolled)
    assert rolled.range == 5 and "on C1 at 5 hexes" in rolled.explanation
    assert "MoveUsFlight" in _listed(state)

    state, _ = run(state, move_us("2025"), [])
    assert board_of(None).dist("2021", state.us[0].hex) == 4
    _, events = run(state, drv_attack("SAM1", "sam_damage"), [[6, 2]])
    assert of(events, ev.DrvAttackRolled)[0].range == 5


@pytest.mark.parametrize("command", WAITING, ids=[c["type"] for c in WAITING])
def test_every_other_command_waits_for_the_sam_attack(command: dict[str, Any]) -> None:
    """While SAM1's attack waits, each command of the phase is refused with the same
    answer, and nothing is decided (decide raises before any event)."""
    ordered, _ = run(moving(sams=(SAM1,)), move_us("2026"), [])
    with pytest.raises(RuleError, match="waits for the attack umpire ordered: SAM1's SAM attack"):
        run(ordered, command)
    assert command["type"] not in _listed(ordered)


def test_a_fire_can_attack_is_rolled_at_its_range_before_the_flight_moves_on() -> None:
    """2.3.1: C1 moves into 2028, 3 hexes from FC1 (`fire_can_range` 3): FC1 fires at it.
    The next MP is refused, naming FC1's Fire Can attack at 3 hexes and citing 2.3.1; the
    roll (4, 6) is read at 3 hexes; then the move is taken."""
    start = moving(us=(msgspec.structs.replace(C1_CAP, hex="2029"),),
                    fire_cans=(FireCan(id="FC1", hex="2025"),))  # fmt: skip
    ordered, events = run(start, move_us("2028"), [])
    assert [e.result for e in of(events, ev.DecisionMade) if e.topic == "fire_can_fires"]
    with pytest.raises(RuleError, match="FC1's Fire Can attack on C1 at 3 hexes") as info:
        run(ordered, move_us("2027"))
    assert info.value.rule.endswith("2.3.1")
    assert set(_listed(ordered)) == {"RollDrvAttack"}
    assert _rolls(_listed(ordered)) == [("FC1", "C1", "fire_can_attack")]
    state, events = run(ordered, drv_attack("FC1", "fire_can_attack"), [[4, 6]])
    assert of(events, ev.DrvAttackRolled)[0].range == 3
    state, events = run(state, move_us("2027"), [])
    assert of(events, ev.UsFlightMoved)[0].hex == "2027"


def test_an_event_fire_can_attack_waits_too() -> None:
    """4, 4.1.2 top paragraph: A1's double (2, 2) near the raid target calls Event! (10): a
    Fire Can in the target hex "and resolve a Fire Can attack on the moving flight". S1
    cannot move before it is rolled (citing 4.1.2); after the roll (5, 3) it can."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="2022")
    start = msgspec.structs.replace(
        new_state(), phase="movement", turn=1, us=(s1,),
        aaa=(AaaUnit(id="A1", hex="2021", density="L"),),
    )  # fmt: skip
    ordered, events = run(start, drv_attack("A1", "aaa_attack", "S1"), [[2, 2], [10]])
    can = of(events, ev.FireCanPlaced)[0].unit_id
    with pytest.raises(RuleError, match=f"{can}'s Fire Can attack on S1 at 1 hex") as info:
        run(ordered, move_us("2023", "S1"))
    assert "4.1.2" in info.value.rule
    state, _ = run(ordered, drv_attack(can, "fire_can_attack", "S1"), [[5, 3]])
    run(state, move_us("2023", "S1"), [])


def test_an_attack_inhibited_before_its_roll_holds_nothing_up() -> None:
    """4.1.1: SAM1 fires at C1 (option 2); A1's attack on C1 rolls a double (4, 4), and the
    random event (3) inhibits options 1 and 2: SAM1's attack "does not take place". It no
    longer waits: its roll is refused (4.1.1) and C1 moves on."""
    start = moving(sams=(SAM1,), aaa=(AaaUnit(id="A1", hex="2027", density="L"),))
    ordered, _ = run(start, move_us("2026"), [])
    state, events = run(ordered, drv_attack("A1", "aaa_attack"), [[4, 4], [3]])
    assert of(events, ev.RandomEventRolled)[0].inhibits == (1, 2)
    assert not state.ordered_attacks[0].waiting
    with pytest.raises(RuleError, match="inhibited") as info:
        run(state, drv_attack("SAM1", "sam_attack"))
    assert "4.1.1" in info.value.rule
    run(state, move_us("2025"), [])


async def test_a_refused_move_writes_nothing(games: Games) -> None:
    """Through `games` (a real Valkey), turn 1 of the scripted raid: a SAM fully acquires
    its target, which spends an MP in range; its next MP is refused with a RuleError naming
    the attack to roll, and the log does not grow; after the roll the move is appended."""
    created = await create_bound(games, "downtown", SETUP, "waits", opponent_manual_dice=True)
    gid, n = created.game_id, 0

    async def send(
        command: dict[str, Any], choices: dict[str, tuple[int, ...]] | None = None
    ) -> None:
        nonlocal n
        n += 1
        state = (await games.load(gid))[1].state
        manual = None if choices is None else manual_for(state, command, choices)
        await games.handle(gid, f"c{n}", command, manual_dice=manual)

    async def state_of() -> State:
        return (await games.load(gid))[1].state

    sam, target = await to_a_sam_in_reach(send, state_of)
    stay = {"type": "MoveUsFlight", "flight_id": target.id, "hex": target.hex,
            "altitude": target.altitude.value, "facing": target.facing}  # fmt: skip
    await send(stay)
    state = (await games.load(gid))[1].state
    assert [o.unit_id for o in state.ordered_attacks if o.waiting] == [sam.id]
    before = await games.store.version(gid)
    with pytest.raises(RuleError, match=f"{sam.id}'s SAM attack on {target.id}"):
        await games.handle(gid, "refused", stay)
    assert await games.store.version(gid) == before
    roll = drv_attack(sam.id, "sam_attack", target.id)
    await send(roll, {"sam_attack": (3, 4)})
    await send(stay)
    assert await games.store.version(gid) > before
