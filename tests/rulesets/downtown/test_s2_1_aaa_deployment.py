"""2.1.3-2.1.7 AAA placement: the initial half, hidden activation, the AAA Deployment Table
A-D with the eligible-hex line rule, and suppression removal."""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.downtown.setups import SEED, new_state, of, rolls, run
from umpire.engine.dice import ManualDice
from umpire.engine.rulesets.downtown import aaa
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.state import AaaUnit, State, UsFlight
from umpire.engine.rulesets.downtown.tables import aaa_deployment
from umpire.engine.rulesets.downtown.terms import Mission, Task
from umpire.engine.rulesets.downtown.turn import DowntownTurn
from umpire.testing.support.seeds import seed_text


def _with(
    state: State, flights: list[UsFlight], aaa_hexes: list[str], pool: tuple[str, ...]
) -> State:
    units = tuple(AaaUnit(id=f"A{i}", hex=h, density="L") for i, h in enumerate(aaa_hexes))
    return msgspec.structs.replace(state, us=tuple(flights), aaa=units, aaa_pool=pool)


def _f(fid: str, mission: Mission, hex_: str) -> UsFlight:
    task = Task.SEAD if mission is Mission.IRON_HAND else Task.BOMBING
    return UsFlight(id=fid, mission=mission, task=task, hex=hex_)


def test_table_rows_match_the_seed() -> None:
    """2.1.6 rows A-D: missions and ranges as printed."""
    text = seed_text(SEED)
    assert "If any Strike or Recon mission flight is within 5 hexes of the raid target" in text
    assert "If any Iron Hand mission flight is within 5 hexes of the raid target" in text
    assert "If any Strike or Recon mission flight is within 10 hexes of the raid target" in text
    rows = {b.span: b.value for b in aaa_deployment.AAA_TABLE.bands}
    assert (rows["A"].within_target, rows["B"].within_target, rows["C"].within_target) == (5, 5, 10)
    assert rows["B"].missions == (Mission.IRON_HAND,)
    assert rows["D"].within_target is None
    # The logs cite a row "<table> row D" (no comma), as before the table was a SeedTable.
    assert aaa_deployment.AAA_TABLE.row("D").citation == f"{SEED} 2.1.6 AAA Deployment Table row D"


def test_initial_deployment_places_half_round_up_targets_first() -> None:
    """2.1.4: 5 bought -> 3 placed (targets without flak first, then adjacent), 2 hidden."""
    state, events = run(new_state(aaa_points=6), {"type": "DeployGroundUnits"}, seed=1)
    bought = of(events, ev.AaaPurchased)[0]
    placed = [e for e in of(events, ev.AaaPlaced) if e.from_pool]
    assert len(placed) == (bought.count + 1) // 2
    assert [p.hex for p in placed[:2]] == ["2021", "2316"]  # both targets, nearest entry first
    assert all("2.1.4" in p.rule for p in placed)
    assert len(state.aaa_pool) == bought.count - len(placed) == bought.hidden_count
    # the pool picks are hidden rolls (2.1.3)
    assert all(r.hidden for r in rolls(events)[: 1 + len(placed)])


def test_row_a_line_along_a_hex_side_makes_both_hexes_eligible() -> None:
    """2.1.6: line 1621-2021 runs along the 1920/1921 side; both are eligible, and the tie
    (each adjacent to the target) goes to the lower label; closer to the target wins over
    equally close to the flight."""
    state = _with(new_state(), [_f("S1", Mission.STRIKE, "1621")], ["2021"], ("M",))
    led = DowntownTurn(state, ManualDice([[1]], 0))
    assert aaa.eligible_hexes(led, "1621", "2021")[:2] == ("1920", "1921")
    assert aaa.deploy_from_table(led)
    placed = of(led.events, ev.AaaPlaced)[0]
    assert placed.hex == "1920" and placed.rule.endswith("row A") and placed.density == "M"
    assert {c.option for c in placed.candidates} >= {"row A: 1920", "row A: 1921"}


def test_example_place_in_the_hex_closest_to_the_flight() -> None:
    """2.1.6 EXAMPLE: nearest eligible hex to the target is 2 away, nearest to the flight is
    adjacent to it: the AAA goes next to the flight."""
    state = _with(new_state(), [_f("S1", Mission.STRIKE, "1621")], ["2021", "1920", "1921"], ("L",))
    led = DowntownTurn(state, ManualDice([[1]], 0))
    aaa.deploy_from_table(led)
    assert of(led.events, ev.AaaPlaced)[0].hex == "1720"


@pytest.mark.parametrize(
    ("flights", "row"),
    [
        ([_f("IH", Mission.IRON_HAND, "1621")], "B"),
        ([_f("S1", Mission.STRIKE, "1221")], "C"),
        ([_f("S1", Mission.STRIKE, "0521")], "D"),
        ([_f("C1", Mission.CAP, "1921")], "D"),
    ],
)
def test_rows_b_c_d(flights: list[UsFlight], row: str) -> None:
    """2.1.6: B for Iron Hand within 5, C for Strike/Recon within 10, else D (no AAA)."""
    state = _with(new_state(), flights, ["2021"], ("L",))
    led = DowntownTurn(state, ManualDice([[1]] if row != "D" else [], 0))
    placed = aaa.deploy_from_table(led)
    assert placed is (row != "D")
    decision = led.events[-1]
    assert decision.rule.endswith(f"row {row}")  # type: ignore[attr-defined]


def test_admin_activation_one_or_two() -> None:
    """2.1.5: with 4 hidden, a 3 activates one and a 2 (half or less) activates two."""
    state = _with(new_state(), [_f("S1", Mission.STRIKE, "1621")], ["2021"], ("L", "L", "M", "H"))
    led = DowntownTurn(state, ManualDice([[3], [1]], 0))
    aaa.admin_activation(led)
    assert of(led.events, ev.AaaActivationChecked)[0].activations == 1
    led = DowntownTurn(state, ManualDice([[2], [1], [1]], 0))
    aaa.admin_activation(led)
    assert of(led.events, ev.AaaActivationChecked)[0].activations == 2
    assert len(of(led.events, ev.AaaPlaced)) == 2
    led = DowntownTurn(state, ManualDice([[5]], 0))
    aaa.admin_activation(led)
    assert of(led.events, ev.AaaActivationChecked)[0].activations == 0


def test_admin_activation_needs_a_mission_flight_over_land() -> None:
    """2.1.5: no Iron Hand, Strike or Recon unit over land: no check (no roll)."""
    state = _with(new_state(), [_f("C1", Mission.CAP, "1621")], [], ("L",))
    led = DowntownTurn(state, ManualDice([], 0))
    aaa.admin_activation(led)
    assert not rolls(led.events) and of(led.events, ev.DecisionMade)[0].result == "no check"


def test_suppression_removal_rolls() -> None:
    """2.1.7: a suppressed concentration rolls each Admin Phase (removed on 5 or less)."""
    state = new_state()
    units = (
        AaaUnit(id="A1", hex="2021", density="L", suppressed=True),
        AaaUnit(id="A2", hex="2022", density="M"),
    )
    state = msgspec.structs.replace(state, aaa=units)
    led = DowntownTurn(state, ManualDice([[5]], 0))
    aaa.suppression(led)
    assert of(led.events, ev.AaaSuppressionRolled)[0].removed
    assert not led.state.aaa[0].suppressed
    led = DowntownTurn(state, ManualDice([[6]], 0))
    aaa.suppression(led)
    assert led.state.aaa[0].suppressed
