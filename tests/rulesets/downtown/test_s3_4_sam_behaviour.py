"""3.4 SAM behaviour: the SAM Acquisition Table A-J and the SAM Reaction Table 1-7."""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.downtown.setups import SEED, new_state, of
from umpire.engine.dice import ManualDice
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown import sam_behaviour
from umpire.engine.rulesets.downtown.state import DrvFlight, Sam, State, UsFlight
from umpire.engine.rulesets.downtown.tables import sam_acquisition, sam_reaction
from umpire.engine.rulesets.downtown.terms import (
    AcqLevel,
    Altitude,
    FireMode,
    Mission,
    SamStatus,
    Task,
)
from umpire.engine.rulesets.downtown.turn import DowntownTurn
from umpire.testing.support.seeds import seed_text

SAM = Sam(id="SAM1", hex="2021", status=SamStatus.ACTIVE, radar_on=True)


def _us(
    fid: str,
    task: Task,
    hex_: str,
    facing: int = 0,
    alt: Altitude = Altitude.MEDIUM,
    mission: Mission = Mission.STRIKE,
) -> UsFlight:
    return UsFlight(id=fid, mission=mission, task=task, hex=hex_, facing=facing, altitude=alt)


def _acquire(flights: list[UsFlight], sam: Sam = SAM, drv: tuple[DrvFlight, ...] = ()) -> str:
    state = msgspec.structs.replace(new_state(), us=tuple(flights), sams=(sam,), drv=drv)
    led = DowntownTurn(state, ManualDice([], 0))
    sam_behaviour.acquire(led, led.state.sams[0])
    decided = of(led.events, ev.SamAcquisitionDecided)[-1]
    return f"{decided.row}:{decided.action}:{decided.target}"


def test_acquisition_rows_are_in_the_seed() -> None:
    text = seed_text(SEED)
    for letter, _ in sam_acquisition.ROWS:
        assert f"\n{letter}\t" in text[text.index("3.4.3 SAM Acquisition Table") :]
    assert sam_acquisition.drv_clear_range(1967) == 5 and sam_acquisition.drv_clear_range(1972) == 3


def test_row_a_launch_marker_keeps_tracking() -> None:
    sam = msgspec.structs.replace(SAM, launch=True, target="S1", level=AcqLevel.FULL)
    assert _acquire([_us("S1", Task.BOMBING, "2821")], sam) == "A:keep:S1"


def test_row_b_drops_near_a_drv_flight_and_goes_to_f() -> None:
    """3.4.3 B: the acquired flight within 5 of a DRV flight: drop, go directly to F."""
    sam = msgspec.structs.replace(SAM, target="S1", level=AcqLevel.FULL)
    migs = (DrvFlight(id="M1", hex="2023"),)
    got = _acquire([_us("S1", Task.BOMBING, "2022"), _us("S2", Task.BOMBING, "2029")], sam, migs)
    assert got == "F:acquire:S2"


def test_row_c_keeps_a_flight_within_5() -> None:
    sam = msgspec.structs.replace(SAM, target="S1", level=AcqLevel.PARTIAL)
    assert _acquire([_us("S1", Task.CAP, "2024")], sam) == "C:keep:S1"


def test_row_d_keeps_a_fully_acquired_flight_with_the_sam_in_its_front_arc() -> None:
    sam = msgspec.structs.replace(SAM, target="S1", level=AcqLevel.FULL)
    assert _acquire([_us("S1", Task.CAP, "2031", facing=0, alt=Altitude.DECK)], sam) == "D:keep:S1"


def test_row_e_keeps_a_low_flight_within_8() -> None:
    sam = msgspec.structs.replace(SAM, target="S1", level=AcqLevel.PARTIAL)
    assert _acquire([_us("S1", Task.CAP, "2028", facing=0)], sam) == "E:keep:S1"


def test_row_f_nearest_bomber_at_low_within_8() -> None:
    got = _acquire([_us("S1", Task.BOMBING, "2028"), _us("S2", Task.BOMBING, "2027")])
    assert got == "F:acquire:S2"


def test_row_g_sead_flight_with_the_site_in_its_front_arc() -> None:
    sead = _us("W1", Task.SEAD, "2028", facing=0, mission=Mission.IRON_HAND)
    assert _acquire([sead]) == "G:acquire:W1"


def test_rows_h_i_j() -> None:
    """H nearest within 5; I nearest with the site in its front arc; J nearest."""
    assert _acquire([_us("C1", Task.CAP, "2025", alt=Altitude.DECK, facing=3)]) == "H:acquire:C1"
    assert (
        _acquire(
            [
                _us("C1", Task.CAP, "2031", alt=Altitude.DECK, facing=0),
                _us("C2", Task.CAP, "2030", alt=Altitude.DECK, facing=3),
            ]
        )
        == "I:acquire:C1"
    )
    assert _acquire([_us("C2", Task.CAP, "2030", alt=Altitude.DECK, facing=3)]) == "J:acquire:C2"


@pytest.mark.parametrize(
    ("level", "distance", "task", "option", "fire"),
    [
        (AcqLevel.FULL, 2, Task.CAP, 1, FireMode.SALVO),
        (AcqLevel.PARTIAL, 3, Task.OTHER, 1, FireMode.SALVO),
        (AcqLevel.FULL, 4, Task.BOMBING, 2, FireMode.SALVO),
        (AcqLevel.PARTIAL, 5, Task.ARMED_ESCORT, 2, FireMode.SALVO),
        (AcqLevel.FULL, 5, Task.CAP, 2, FireMode.ONE),
        (AcqLevel.FULL, 6, Task.BOMBING, 3, FireMode.SALVO),
        (AcqLevel.FULL, 6, Task.SEAD, 3, FireMode.ONE),
        (AcqLevel.FULL, 6, Task.CAP, 3, FireMode.NOTHING),
        (AcqLevel.PARTIAL, 6, Task.SEAD, 4, FireMode.ONE),
        (AcqLevel.PARTIAL, 6, Task.CAP, 4, FireMode.NOTHING),
        (AcqLevel.FULL, 7, Task.ARMED_ESCORT, 5, FireMode.ONE),
        (AcqLevel.FULL, 8, Task.RECON, 5, FireMode.NOTHING),
        (AcqLevel.PARTIAL, 8, Task.BOMBING, 6, FireMode.ONE),
        (AcqLevel.PARTIAL, 7, Task.SEAD, 6, FireMode.NOTHING),
        (AcqLevel.FULL, 9, Task.BOMBING, 7, FireMode.NOTHING),
        (AcqLevel.PARTIAL, 20, Task.BOMBING, 7, FireMode.NOTHING),
    ],
)
def test_reaction_options(
    level: AcqLevel, distance: int, task: Task, option: int, fire: FireMode
) -> None:
    """3.4.5: every option 1-7 and its fire mode by task."""
    opt, mode = sam_reaction.react(level, distance, task)
    assert opt is not None and opt.option == option and mode is fire


def test_reaction_table_lines_are_in_the_seed() -> None:
    text = seed_text(SEED)
    for phrase in (
        "Range of 2-3 hexes",
        "Range of 4-5 hexes",
        "range of 6 hexes",
        "range of 7-8 hexes",
        "range greater than 8",
    ):
        assert phrase in text


def _moving(sam: Sam, flight: UsFlight) -> State:
    return msgspec.structs.replace(new_state(), phase="movement", turn=1, us=(flight,), sams=(sam,))


def test_reaction_fires_once_per_movement_phase() -> None:
    """3.4.4: only an unfired SAM reacts when its acquired flight spends an MP."""
    sam = msgspec.structs.replace(SAM, target="S1", level=AcqLevel.FULL)
    flight = _us("S1", Task.BOMBING, "2024")
    led = DowntownTurn(_moving(sam, flight), ManualDice([], 0))
    sam_behaviour.react(led, flight)
    sam_behaviour.react(led, flight)
    reacted = of(led.events, ev.SamReacted)
    assert len(reacted) == 1 and reacted[0].option == 1 and reacted[0].fire == "salvo"


def test_dummy_radar_first_fire_check() -> None:
    """3.3.2 row 9: on its first attempt to fire, below 10 the site is a dummy and removed."""
    sam = msgspec.structs.replace(SAM, target="S1", level=AcqLevel.FULL, dummy_radar=True)
    flight = _us("S1", Task.BOMBING, "2024")
    led = DowntownTurn(_moving(sam, flight), ManualDice([[3, 4]], 0))
    sam_behaviour.react(led, flight)
    assert not of(led.events, ev.SamReacted)
    assert led.state.sams[0].status is SamStatus.REMOVED and led.state.dummies_found == 1
    led = DowntownTurn(_moving(sam, flight), ManualDice([[6, 4]], 0))
    sam_behaviour.react(led, flight)
    assert of(led.events, ev.SamReacted) and not led.state.sams[0].dummy_radar


def test_table_rows_are_cited_as_the_logs_cite_them() -> None:
    """The SAM Acquisition, Reaction and Placement tables are kit SeedTables whose row
    citations keep the logged shape: "<table> row B", "<table> option 3" (no comma)."""
    assert sam_acquisition.TABLE.row("B").citation == f"{SEED} 3.4.3 SAM Acquisition Table row B"
    assert sam_reaction.TABLE.row("3").citation == f"{SEED} 3.4.5 SAM Reaction Table option 3"
    assert sam_reaction.TABLE.row("3").value.option == 3
