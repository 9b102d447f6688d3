"""3.2.1 SAM Activation Check (BSAN, Acq and Admin modifiers and rules, MiG day) and 3.2.2
SAM Placement Table A-D, with the worked examples of 3.2.1."""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.downtown.setups import SEED, new_state, of
from umpire.engine.dice import ManualDice
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown import sam_activation, sam_sites
from umpire.engine.rulesets.downtown.state import SiteUse, State, UsFlight
from umpire.engine.rulesets.downtown.tables import sam_activation as table
from umpire.engine.rulesets.downtown.tables import sam_placement
from umpire.engine.rulesets.downtown.terms import Mission, Phase, Task
from umpire.engine.rulesets.downtown.turn import DowntownTurn
from umpire.testing.support.seeds import seed_text


def _bomber(hex_: str, detected: bool = True) -> UsFlight:
    return UsFlight(
        id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex=hex_, bomber=True, detected=detected
    )


def _state(flights: list[UsFlight], hidden: int, **setup: object) -> State:
    return msgspec.structs.replace(new_state(**setup), us=tuple(flights), hidden_sams=hidden)


def test_modifier_table_matches_the_seed() -> None:
    """3.2.1: each modifier row's Acq and Admin values and words as printed."""
    text = seed_text(SEED)
    for m in table.MODIFIERS:
        acq = "NA" if m.acq is None else str(m.acq)
        assert f"{acq}\t{m.admin}\t{m.text}" in text, m.key


def test_example_acq_modifiers_total_minus_4_and_a_3_becomes_minus_1() -> None:
    """3.2.1 EXAMPLE: Strike mission 16 hexes from its target, no flight within 10 of
    Hanoi/Haiphong: -4; a roll of 3 is modified to -1: no SAM switches on."""
    state = _state([_bomber("0421")], hidden=4)
    led = DowntownTurn(state, ManualDice([[3]], 0))
    sam_activation.hidden_check(led, Phase.SAM_ACQUISITION)
    check = of(led.events, ev.SamActivationChecked)[0]
    assert check.modifiers == ("bombers_over_12 -2", "none_within_10 -2")
    assert (check.unmodified, check.modified, check.count) == (3, -1, 0)
    assert not of(led.events, ev.SamPlaced)


@pytest.mark.parametrize(
    ("unmodified", "modified", "count"),
    [(1, 1, 2), (4, 4, 2), (4, 2, 2), (5, 3, 1), (6, 4, 1), (5, 5, 0), (2, 0, 0), (3, -1, 0)],
)
def test_example_acq_bsan_4(unmodified: int, modified: int, count: int) -> None:
    """3.2.1 EXAMPLE (BSAN 4): a modified 1-4 places one SAM; an unmodified 1-4 places two."""
    assert sam_activation.activation_count(unmodified, modified, 4, acq=True) == count


def test_example_admin_bsan_7() -> None:
    """3.2.1 EXAMPLE (Admin, BSAN 7): unmodified 7 modified to 3 places 3 SAMs; an
    unmodified 8 (modified to 4) places none."""
    assert sam_activation.activation_count(7, 3, 7, acq=False) == 3
    assert sam_activation.activation_count(8, 4, 7, acq=False) == 0
    escort = UsFlight(id="E1", mission=Mission.ESCORT, task=Task.ARMED_ESCORT, hex="1921")
    state = _state([_bomber("0140"), escort], hidden=7)
    led = DowntownTurn(state, ManualDice([[7]], 0))
    sam_activation.hidden_check(led, Phase.ADMIN)
    check = of(led.events, ev.SamActivationChecked)[0]
    assert check.modifiers == ("bombers_over_18 -4",) and check.modified == 3
    assert len(of(led.events, ev.SamPlaced)) == 3 and led.state.hidden_sams == 4


def test_admin_no_bombers_and_early_date_and_arms() -> None:
    """3.2.1: Admin -5 without raid bombers (NA in Acq), -1 for 1965-66, -1 per ARM."""
    cap = UsFlight(id="C1", mission=Mission.CAP, task=Task.CAP, hex="1921")
    state = msgspec.structs.replace(_state([cap], 3, year=1966), preemptive_arms=2)
    led = DowntownTurn(state, ManualDice([], 0))
    assert sam_activation.modifiers(state, led, Phase.ADMIN) == [
        ("early_date", -1),
        ("preemptive_arm", -2),
        ("no_bombers", -5),
    ]
    assert sam_activation.modifiers(state, led, Phase.SAM_ACQUISITION) == [
        ("early_date", -1),
        ("preemptive_arm", -2),
    ]


def test_acq_check_only_with_us_flights_on_the_map_and_never_on_a_mig_day() -> None:
    """3.2.1: no check in the Acq phase with no US flight on the map; 3: MiG day."""
    led = DowntownTurn(_state([], 4), ManualDice([], 0))
    sam_activation.hidden_check(led, Phase.SAM_ACQUISITION)
    assert of(led.events, ev.DecisionMade)[0].result == "no check"
    led = DowntownTurn(_state([_bomber("1921")], 4, mig_day=True), ManualDice([], 0))
    sam_activation.hidden_check(led, Phase.ADMIN)
    assert of(led.events, ev.DecisionMade)[0].result == "MiG day"


@pytest.mark.parametrize(("hex_", "row"), [("1622", "A"), ("0120", "B"), ("0115", "C")])
def test_placement_rows(hex_: str, row: str) -> None:
    """3.2.2: A within 5 of the measuring flight, B within 8, C within 15 of the target
    (Admin), closest to downtown first."""
    led = DowntownTurn(_state([_bomber(hex_)], 4), ManualDice([], 0))
    assert sam_activation.place_hidden(led, acq=False)
    placed = of(led.events, ev.SamPlaced)[0]
    assert placed.row == row and placed.rule.endswith(f"row {row}")
    assert led.state.sams[-1].radar_on and led.state.sams[-1].warning


def test_placement_in_acq_phase_skips_c() -> None:
    """3.2.2 row B: in the SAM Acquisition Phase go to D, not C."""
    led = DowntownTurn(_state([_bomber("0115")], 4), ManualDice([], 0))
    assert not sam_activation.place_hidden(led, acq=True)
    assert led.events[-1].rule.endswith("row D")  # type: ignore[attr-defined]


def test_placement_needs_a_detected_flight() -> None:
    """3.2.2: no detected US flight: do not place SAMs."""
    led = DowntownTurn(_state([_bomber("1622", detected=False)], 4), ManualDice([], 0))
    assert not sam_activation.place_hidden(led, acq=False)


def test_strike_through_and_one_sam_beyond_4_hexes_of_downtown() -> None:
    """3.2.2: a location takes two SAMs (two strikes) within 4 of downtown, one beyond."""
    assert sam_placement.MAX_USES == 2 and sam_placement.ONE_SAM_BEYOND == 4
    state = new_state()
    led = DowntownTurn(state, ManualDice([], 0))
    assert sam_sites.uses_left(led, "2022") == 2  # downtown Hanoi
    assert sam_sites.uses_left(led, "1221") == 1  # 8 hexes from downtown
    led.state = msgspec.structs.replace(state, site_uses=(SiteUse(hex="2022", strikes=2),))
    assert sam_sites.uses_left(led, "2022") == 0
