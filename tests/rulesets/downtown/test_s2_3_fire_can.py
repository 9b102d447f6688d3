"""2.2-2.3 Fire Can: activation, the Fire Can Deployment Table A-D, behaviour."""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.downtown.setups import SEED, new_state, of, run
from umpire.engine.dice import ManualDice
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown import fire_can
from umpire.engine.rulesets.downtown.state import AaaUnit, FireCan, State, UsFlight
from umpire.engine.rulesets.downtown.tables import aaa_deployment
from umpire.engine.rulesets.downtown.terms import Mission, Phase, Task
from umpire.engine.rulesets.downtown.turn import DowntownTurn
from umpire.testing.support.seeds import seed_text


def _state(flights: list[tuple[str, Mission, str]], aaa: list[str], hidden: int = 2) -> State:
    us = tuple(UsFlight(id=i, mission=m, task=Task.BOMBING, hex=h) for i, m, h in flights)
    units = tuple(AaaUnit(id=f"A{n}", hex=h, density="L") for n, h in enumerate(aaa))
    return msgspec.structs.replace(new_state(), us=us, aaa=units, hidden_fire_cans=hidden)


def test_rows_match_the_seed() -> None:
    """2.3 rows A-D as printed."""
    text = seed_text(SEED)
    assert "place a <i>Fire Can</i> unit in the target hex, if eligible" in text
    assert "within 10 hexes of the raid target and is within 2 hexes of a AAA" in text
    rows = {b.span: b.value for b in aaa_deployment.FIRE_CAN_TABLE.bands}
    assert rows["A"].within_target == 5 and rows["A"].within_aaa is None
    assert (rows["B"].within_target, rows["B"].within_aaa) == (10, 2)
    assert (rows["C"].within_target, rows["C"].within_aaa) == (None, 2)
    assert not rows["D"].place
    cited = aaa_deployment.FIRE_CAN_TABLE.row("B").citation
    assert cited == f"{SEED} 2.3 Fire Can Deployment Table row B"


@pytest.mark.parametrize(
    ("flights", "aaa", "row", "hex_"),
    [
        ([("S1", Mission.STRIKE, "1921")], ["2021", "1820"], "A", "2021"),
        ([("IH", Mission.IRON_HAND, "1921")], ["2021", "1820"], "B", "2021"),
        ([("IH", Mission.IRON_HAND, "0420")], ["2021", "0520"], "C", "0520"),
        ([("C1", Mission.CAP, "1921")], ["2021"], "D", ""),
    ],
)
def test_table_rows(
    flights: list[tuple[str, Mission, str]], aaa: list[str], row: str, hex_: str
) -> None:
    """2.3: A target hex; B/C a AAA hex within 2 of a mission flight (closest to the raid
    target first); D none."""
    led = DowntownTurn(_state(flights, aaa), ManualDice([], 0))
    placed = fire_can.deploy_from_table(led)
    last = led.events[-1]
    assert last.rule.endswith(f"row {row}")  # type: ignore[attr-defined]
    if hex_:
        assert placed and of(led.events, ev.FireCanPlaced)[0].hex == hex_
        assert led.state.fire_cans[0].radar_on
    else:
        assert not placed


def test_full_aaa_hex_is_not_eligible() -> None:
    """2.3: a AAA hex at its Fire Can maximum is not eligible (row A falls to B)."""
    state = _state([("S1", Mission.STRIKE, "1921")], ["2021", "1920"])
    state = msgspec.structs.replace(
        state, aaa=(msgspec.structs.replace(state.aaa[0], fire_cans=1), state.aaa[1])
    )
    led = DowntownTurn(state, ManualDice([], 0))
    fire_can.deploy_from_table(led)
    placed = of(led.events, ev.FireCanPlaced)[0]
    assert placed.hex == "1920" and placed.rule.endswith("row B")


def test_activation_roll_against_inactive_fire_cans() -> None:
    """2.2.1: roll one die; at most the number of inactive Fire Cans activates one."""
    led = DowntownTurn(
        _state([("S1", Mission.STRIKE, "1921")], ["2021"], hidden=2), ManualDice([[2]], 0)
    )
    fire_can.admin_activation(led)
    assert of(led.events, ev.FireCanActivationChecked)[0].activations == 1
    assert led.state.hidden_fire_cans == 1 and len(led.state.fire_cans) == 1
    led = DowntownTurn(
        _state([("S1", Mission.STRIKE, "1921")], ["2021"], hidden=2), ManualDice([[3]], 0)
    )
    fire_can.admin_activation(led)
    assert not led.state.fire_cans


def test_fires_at_first_flight_within_range_once() -> None:
    """2.3.1: a Fire Can fires at the first US flight to move within range, radar on."""
    state = msgspec.structs.replace(new_state(), fire_cans=(FireCan(id="FC1", hex="2021"),))
    led = DowntownTurn(state, ManualDice([], 0))
    fire_can.fire_at_mover(led, "S1", "1921")
    fire_can.fire_at_mover(led, "S2", "1920")
    fired = [e for e in of(led.events, ev.DecisionMade) if e.topic == "fire_can_fires"]
    assert [e.order for e in fired] == [("S1",)]


def test_radar_restart_roll() -> None:
    """2.3.1: a shut-down radar rolls to come back on every Admin Phase."""
    state = msgspec.structs.replace(
        new_state(), fire_cans=(FireCan(id="FC1", hex="2021", radar_on=False),)
    )
    led = DowntownTurn(state, ManualDice([[4]], 0))
    fire_can.radar_restart(led)
    assert led.state.fire_cans[0].radar_on


def test_2_3_1_a_radar_reported_off_is_said_in_words() -> None:
    """2.3.1: the base-game result's decision says the status as the rules do ("radar
    off"), never its code (issue 41 item 7)."""
    state = msgspec.structs.replace(
        new_state(), phase=Phase.MOVEMENT, turn=1, fire_cans=(FireCan(id="FC1", hex="1424"),)
    )
    report = {"type": "ReportUnitStatus", "unit_id": "FC1", "status": "radar_off"}
    after, events = run(state, report, [])
    assert not after.fire_cans[0].radar_on
    assert [e.explanation for e in events] == ["FC1: radar off (base-game result)"]
