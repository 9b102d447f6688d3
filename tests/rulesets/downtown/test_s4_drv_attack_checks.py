"""4 DRV attack and damage rolls (RollDrvAttack), checked before they are rolled: a SAM or a
Fire Can rolls only the attack umpire ordered this Movement Phase (3.4.4-3.4.5, 2.3.1,
4.1.2), once, then its damage, and a SAM not inhibited (4.1.1); a AAA concentration within
`Setup.aaa_range` (2.1.7, a base-game value); each unit only its own rolls (4). The answer
names the base-game table and the column umpire knows. Dice are stated. That play waits for
an ordered attack's roll is test_s3_4_4_ordered_attack_waits."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from tests.rulesets.downtown.setups import (
    SAM1,
    drv_attack,
    flight,
    move_us,
    moving,
    new_state,
    of,
    run,
)
from tests.support.gateway_games import create_bound
from umpire.engine.actions import legal_actions
from umpire.engine.errors import RuleError
from umpire.engine.hexgrid import Hex
from umpire.engine.roles import Role
from umpire.engine.rulesets.downtown import RULESET
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.board import board_of
from umpire.engine.rulesets.downtown.state import (
    AaaUnit,
    FireCan,
    OrderedAttack,
)
from umpire.server.games import Games


def test_a_sam_attack_follows_its_reaction_and_names_table_and_column() -> None:
    """The 4.1.1 example's position: the CAP flight moves to 5 hexes from SAM1, which
    reacts by option 2 (CAP task: one SAM). The attack roll (3, 8) = 11 is read on the base
    game's SAM attack table, option 2, one SAM, full acquisition, at 5 hexes."""
    state, _ = run(moving(sams=(SAM1,)), move_us("2026"), [])
    (order,) = state.ordered_attacks
    assert (order.unit_id, order.flight_id, order.range, order.waiting) == ("SAM1", "C1", 5, True)
    assert "3.4.5 SAM Reaction Table option 2" in order.rule
    state, events = run(state, drv_attack("SAM1", "sam_attack"), [[3, 8]])
    (rolled,) = of(events, ev.DrvAttackRolled)
    assert (rolled.total, rolled.range) == (11, 5)
    assert rolled.table == "the base game's SAM attack table"
    assert rolled.column == "option 2: one SAM (1 missile), full acquisition"
    assert "3.4.5" in rolled.rule and rolled.rule.startswith("000_842c81c5c58bc2f6.txt 4")
    assert "read it on the base game's SAM attack table" in rolled.explanation


def test_a_sam_rolls_only_the_attack_ordered_once_then_its_damage() -> None:
    """No reaction ordered it: refused, citing 3.4.5. Ordered: its damage is refused before
    its attack (4: the damage table follows the attack), and once the attack is rolled a
    second attack roll is refused (an order is one attack). Nothing is decided."""
    with pytest.raises(RuleError, match="did not fire at C1") as info:
        run(moving(sams=(SAM1,)), drv_attack("SAM1", "sam_attack"))
    assert "3.4.5" in info.value.rule
    state, _ = run(moving(sams=(SAM1,)), move_us("2026"), [])
    with pytest.raises(RuleError, match="not rolled yet: roll the attack before its damage"):
        run(state, drv_attack("SAM1", "sam_damage"))
    state, _ = run(state, drv_attack("SAM1", "sam_attack"), [[3, 8]])
    with pytest.raises(RuleError, match=r"ordered at 5 hexes\) is rolled already") as info:
        run(state, drv_attack("SAM1", "sam_attack"))
    assert "3.4.5" in info.value.rule
    _, events = run(state, drv_attack("SAM1", "sam_damage"), [[2, 7]])
    assert of(events, ev.DrvAttackRolled)[0].table == "the base game's SAM Damage Table"


def test_an_inhibited_sam_attack_is_refused() -> None:
    """4.1.1: an inhibited attack "does not take place": its damage roll is refused."""
    inhibited = msgspec.structs.replace(SAM1, option=2, inhibited=(1, 2), fired=True)
    order = OrderedAttack(unit_id="SAM1", flight_id="C1", range=5, rule="3.4.5", waiting=False)
    state = moving(sams=(inhibited,), ordered_attacks=(order,))
    with pytest.raises(RuleError, match="inhibited") as info:
        run(state, drv_attack("SAM1", "sam_damage"))
    assert "4.1.1" in info.value.rule


def test_aaa_attacks_within_its_range_only() -> None:
    """A1 three hexes from C1: out of the default range 1 (refused, 2.1.7); with
    `aaa_range` 3 the roll (2, 5) is read on the AAA attack table, density M."""
    aaa = (AaaUnit(id="A1", hex="2027", density="M"),)
    with pytest.raises(RuleError, match="3 hexes from C1: a AAA concentration attacks within 1"):
        run(moving(aaa=aaa), drv_attack("A1", "aaa_attack"))
    wide = msgspec.structs.replace(moving(aaa=aaa), setup=new_state(aaa_range=3).setup)
    _, events = run(wide, drv_attack("A1", "aaa_attack"), [[2, 5]])
    (rolled,) = of(events, ev.DrvAttackRolled)
    assert rolled.column == "density M, target at medium" and rolled.range == 3


def test_each_unit_rolls_only_its_own_rolls() -> None:
    """4: a AAA concentration rolls aaa_attack or flak_damage, never a SAM roll."""
    aaa = (AaaUnit(id="A1", hex="2025", density="L"),)
    with pytest.raises(RuleError, match="rolls AAA attack or flak damage, not SAM attack"):
        run(moving(aaa=aaa), drv_attack("A1", "sam_attack"))


def test_a_fire_can_fires_only_when_ordered() -> None:
    """2.3.1: the Fire Can fires at the first US flight to move within range; before C1
    moves it has no order (refused); after, the roll (4, 4) is a Fire Can attack."""
    can = (FireCan(id="FC1", hex="2025"),)
    with pytest.raises(RuleError, match="not ordered to fire") as info:
        run(moving(fire_cans=can), drv_attack("FC1", "fire_can_attack"))
    assert "2.3.1" in info.value.rule
    state, events = run(moving(fire_cans=can), move_us("2026"), [])
    assert [e.result for e in of(events, ev.DecisionMade) if e.topic == "fire_can_fires"]
    _, events = run(state, drv_attack("FC1", "fire_can_attack"), [[4, 6]])
    (rolled,) = of(events, ev.DrvAttackRolled)
    assert rolled.table.endswith("(Fire Can directed)") and rolled.total == 10


async def test_a_refused_attack_is_a_typed_error_and_writes_nothing(games: Games) -> None:
    """Through `games` (a real Valkey): an attack roll by a AAA concentration far from the
    strike is a RuleError naming 2.1.7 and the rolls allowed now; the log does not grow."""
    created = await create_bound(games, "downtown", {}, "attack-refused")
    gid = created.game_id
    await games.handle(gid, "g1", {"type": "DeployGroundUnits"})
    await games.handle(gid, "g2", {"type": "CheckDrvRadar"})
    await games.handle(
        gid, "g3", {"type": "DeployDrvAir", "early_warning": "poor", "placement": "in_the_air"}
    )
    us = [flight("S1", "strike", "bombing", "0820", bomber=True)]
    await games.handle(gid, "g4", {"type": "ReportUsFlights", "flights": us})
    await games.handle(gid, "g5", {"type": "RunDetectionPhase"})
    await games.handle(gid, "g6", {"type": "RunSamAcquisitionPhase"})
    state = (await games.load(gid))[1].state
    printed = next(a for a in state.aaa if a.hex == "2022")
    before = await games.store.version(gid)
    with pytest.raises(RuleError, match=r"hexes from S1: .*DRV rolls allowed now") as info:
        await games.handle(gid, "bad", drv_attack(printed.id, "aaa_attack", "S1"))
    assert "2.1.7" in info.value.rule and info.value.rule.startswith("000_842c81c5c58bc2f6.txt")
    assert await games.store.version(gid) == before


def _triples(listed: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The (unit, flight, kind) of each listed RollDrvAttack variant."""
    schema = listed["RollDrvAttack"]
    return sorted(
        (v["properties"]["unit_id"]["enum"][0], v["properties"]["flight_id"]["enum"][0],
         v["properties"]["kind"]["enum"][0])
        for v in schema.get("anyOf", [schema])
    )  # fmt: skip


def test_actions_list_exactly_the_allowed_rolls_and_the_report_takes_any_map_hex() -> None:
    """After SAM1's reaction the only DRV roll listed is its attack on C1, then its damage;
    the US report's hex is any map hex, as decide takes it (1.2.1: actions is the whole
    truth)."""
    state, _ = run(moving(sams=(SAM1,)), move_us("2026"), [])
    listed = {a.type: a.schema for a in legal_actions(RULESET, state, Role.PLAYER, ended=False)}
    assert _triples(listed) == [("SAM1", "C1", "sam_attack")]
    state, _ = run(state, drv_attack("SAM1", "sam_attack"), [[3, 8]])
    listed = {a.type: a.schema for a in legal_actions(RULESET, state, Role.PLAYER, ended=False)}
    assert _triples(listed) == [("SAM1", "C1", "sam_damage")]
    report = listed["ReportUsFlights"]["properties"]["flights"]["items"]["properties"]["hex"]
    grid = board_of(None).grid
    cols, rows = range(grid.min_col, grid.max_col + 1), range(grid.min_row, grid.max_row + 1)
    assert set(report["enum"]) == {Hex(c, r).label for c in cols for r in rows}
    assert "MoveDrvFlight" not in listed
