"""3.2.1 SAM Activation Check (000_842c81c5c58bc2f6.txt): the readings of its modifier table
(README ledger, 3.2.1): the distance tiers, the point distances are measured to, and the Acq
column when no raid bomber is on the map."""

from __future__ import annotations

import msgspec

from tests.rulesets.downtown.setups import SEED, new_state, of
from umpire.engine.dice import ManualDice
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown import sam_activation
from umpire.engine.rulesets.downtown.state import State, UsFlight
from umpire.engine.rulesets.downtown.terms import (
    DistanceTiersReading,
    Mission,
    Phase,
    Task,
    TwoSamsReading,
)
from umpire.engine.rulesets.downtown.turn import DowntownTurn
from umpire.testing.support.seeds import seed_text

ESCORT = UsFlight(id="E1", mission=Mission.ESCORT, task=Task.ARMED_ESCORT, hex="1921")
"""Within 10 of Hanoi: keeps the "No US flights within 10" row out of these tests."""


def _bomber(hex_: str) -> UsFlight:
    return UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex=hex_, bomber=True)


def _mods(flights: list[UsFlight], phase: Phase = Phase.ADMIN, **setup: object) -> list[str]:
    state: State = msgspec.structs.replace(new_state(**setup), us=tuple(flights))
    led = DowntownTurn(state, ManualDice([], 0))
    return [f"{k} {v:+d}" for k, v in sam_activation.modifiers(state, led, phase)]


def test_the_seed_prints_two_distance_rows() -> None:
    text = seed_text(SEED)
    assert "-2\t-2\tNearest US raid bomber flight is more than 12 hexes from the target" in text
    assert "-4\t-4\tNearest US raid bomber flight is more than 18 hexes from the target" in text


def test_distance_rows_are_exclusive_tiers_by_default() -> None:
    """A bomber more than 18 hexes away takes -4 only (not -2 and -4); 13-18 hexes: -2."""
    assert _mods([_bomber("0140"), ESCORT]) == ["bombers_over_18 -4"]
    assert _mods([_bomber("0421"), ESCORT]) == ["bombers_over_12 -2"]


def test_cumulative_distance_rows_are_a_setup_switch() -> None:
    """`distance_tiers_reading: cumulative`: beyond 18 hexes both rows, -6 in all."""
    both = {"distance_tiers_reading": DistanceTiersReading.CUMULATIVE.value}
    assert _mods([_bomber("0140"), ESCORT], **both) == ["bombers_over_12 -2", "bombers_over_18 -4"]
    assert _mods([_bomber("0421"), ESCORT], **both) == ["bombers_over_12 -2"]


def test_distance_is_to_the_nearer_of_the_target_and_downtown() -> None:
    """Raid target the yard (2316): a bomber at 2035 is 20 hexes from it but 11 from downtown
    Hanoi: "from the target or downtown Hanoi/Haiphong" takes the nearer, so no distance row."""
    mods = _mods([_bomber("2035"), ESCORT], raid_target="yard")
    assert not [m for m in mods if m.startswith("bombers_over")]


def test_acq_phase_without_raid_bombers_takes_no_distance_row() -> None:
    """No raid bomber on the map: the Acq column's "NA" row does not apply, and the two
    "nearest raid bomber" rows have no bomber to measure, so none of the three applies; the
    Admin Phase takes -5."""
    assert _mods([ESCORT], Phase.SAM_ACQUISITION) == []
    assert _mods([ESCORT], Phase.ADMIN) == ["no_bombers -5"]


def test_two_sams_follow_the_example_by_default_and_the_rule_as_a_switch() -> None:
    """3.2.1: "If the unmodified die roll was lower than the BSAN, two SAM battalions" but
    the example (BSAN 4): "If the unmodified roll is between 1 and 4, two SAMs are placed".
    An unmodified 4 against BSAN 4 places two by default (the example), one under
    `two_sams_reading: rule`."""
    flights = (_bomber("1921"), ESCORT)
    for reading, count in ((TwoSamsReading.EXAMPLE, 2), (TwoSamsReading.RULE, 1)):
        state = msgspec.structs.replace(
            new_state(two_sams_reading=reading.value), us=flights, hidden_sams=4
        )
        led = DowntownTurn(state, ManualDice([[4]], 0))
        sam_activation.hidden_check(led, Phase.SAM_ACQUISITION)
        assert of(led.events, ev.SamActivationChecked)[0].count == count, reading
    # Provenance last: it skips on a clone without the rule documents.
    text = " ".join(seed_text(SEED).split())
    assert "If the unmodified die roll was lower than the BSAN, two SAM battalions" in text
    assert "If the unmodified roll is between 1 and 4, two SAMs are placed." in text
