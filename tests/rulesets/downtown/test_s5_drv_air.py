"""5.1-5.6 DRV air: initiative, detection, flight generation and limits, flying profiles,
activation checks, visual identification, GCI level."""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.downtown.setups import new_state, of, run
from umpire.engine.errors import NothingToDo
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.state import DrvFlight, State, UsFlight
from umpire.engine.rulesets.downtown.terms import Altitude, Mission, Task

S1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="1021", bomber=True)


def _air(**kw: object) -> State:
    return msgspec.structs.replace(new_state(), phase="air_deployment", **kw)


def test_air_deployment_dummy_range_one_flight_plus_one_for_good_warning() -> None:
    """5.4.2: D4 Dummy 01-57: a 30 sets up one flight, Good warning adds one; 5.4.3 in the
    air at Low, 10 hexes from the entry hex, near the edge, on land; 5.5.1 one profile roll."""
    state, events = run(
        _air(),
        {"type": "DeployDrvAir", "early_warning": "good", "placement": "in_the_air"},
        [[3, 0], [9, 0]],
    )
    assert of(events, ev.DecisionMade)[0].result == "2"
    gen = of(events, ev.DrvFlightGenerated)
    assert len(gen) == 2 and all(g.altitude is Altitude.LOW for g in gen)
    from umpire.engine.rulesets.downtown.board import board_of

    board = board_of(None)
    assert all(board.dist(g.hex, "0520") == 10 and board.edge_distance(g.hex) <= 3 for g in gen)
    profiles = of(events, ev.FlightProfileAssigned)
    assert [(p.flight_id, p.aircraft) for p in profiles] == [(gen[0].flight_id, "MiG21F-13")]
    assert state.phase == "detection" and state.turn == 1


def test_air_deployment_at_orbit_points_discards_airfield_flights() -> None:
    """5.4.3: orbit point / airfield nearest the entry hex, one per hex, Deck, facing the
    entry; flights set up at airfields are discarded."""
    _state, events = run(
        _air(),
        {"type": "DeployDrvAir", "early_warning": "average", "placement": "orbit_or_airfield"},
        [[9, 0]],
    )
    gen = of(events, ev.DrvFlightGenerated)
    assert gen[0].hex == "1510" and all(g.hex in ("1510", "2808") for g in gen)
    assert all(g.altitude is Altitude.DECK for g in gen)
    assert any(e.result == "discarded" for e in of(events, ev.DecisionMade))


def _moving(
    drv: tuple[DrvFlight, ...] = (), us: tuple[UsFlight, ...] = (S1,), **kw: object
) -> State:
    return msgspec.structs.replace(
        new_state(), phase="movement", turn=1, movement_phases=1, drv=drv, us=us, **kw
    )


def test_takeoff_check_on_first_chit_only() -> None:
    """5.4.4: the first chit of 1+ checks; above the Dummy range a flight appears Ready at
    the open airfield closest to the strike mission; Kep allows only MiG17F (5.5.1)."""
    with pytest.raises(NothingToDo):  # a 0 checks nothing (issue 41 item 8)
        run(_moving(), {"type": "DrvChitPicked", "value": 0}, [])
    state, events = run(_moving(), {"type": "DrvChitPicked", "value": 2}, [[8, 0]])
    gen = of(events, ev.DrvFlightGenerated)[0]
    assert gen.ready and gen.hex == "1918" and state.takeoff_checked
    with pytest.raises(NothingToDo):  # the game turn's check is made
        run(state, {"type": "DrvChitPicked", "value": 3}, [])


def test_flight_limit_and_visual_id_reduce_it() -> None:
    """5.4.1: no more generic counters than Flights (D4: 6); each VID lowers it by one."""
    drv = tuple(DrvFlight(id=f"M{i}", hex=f"10{10 + i}") for i in range(6))
    state, events = run(_moving(drv), {"type": "DrvChitPicked", "value": 1}, [[9, 9]])
    assert of(events, ev.DecisionMade)[-1].result == "not generated"
    state, events = run(state, {"type": "IdentifyVisually", "flight_id": "M0"}, [[7, 5]])
    vid = of(events, ev.VisualIdentified)[0]
    assert (vid.count, vid.aircraft) == (4, "MiG21PF") and state.visual_ids == 1
    assert len([f for f in state.drv if not f.visual_id]) == 5


def test_admin_generation_joins_an_undetected_generic_flight() -> None:
    """5.4.5: one new flight per parent, same hex, altitude, facing and profile."""
    parent = DrvFlight(id="M1", hex="1518", altitude=Altitude.LOW, facing=2, profile="MiG17F")
    state = _moving((parent,), drv_moved=("M1",))  # it has flown this Movement Phase
    state, events = run(state, {"type": "RunAdminPhase"}, [[9], [9], [7, 0]])
    gen = of(events, ev.DrvFlightGenerated)[0]
    assert (gen.hex, gen.altitude, gen.facing, gen.profile, gen.parent) == (
        "1518",
        Altitude.LOW,
        2,
        "MiG17F",
        "M1",
    )


def test_activation_check_dummy_removed_real_detected() -> None:
    """5.6.1: Dummy range removes the flight; above it, detection makes it detected."""
    drv = (DrvFlight(id="M1", hex="1518"), DrvFlight(id="M2", hex="1519"))
    state = msgspec.structs.replace(_moving(drv), phase="detection")
    state, events = run(
        state, {"type": "RunDetectionPhase", "detected": ["M1", "M2"]}, [[2, 0], [9, 0]]
    )
    assert [c.real for c in of(events, ev.ActivationChecked)] == [False, True]
    assert [f.id for f in state.drv] == ["M2"] and state.drv[0].detected


def test_gci_exceeded_makes_every_check_a_dummy() -> None:
    """5.7.1: above the GCI level every activation check reveals a dummy."""
    drv = (
        DrvFlight(id="M1", hex="1518", detected=True),
        DrvFlight(id="M2", hex="1519", detected=True),
        DrvFlight(id="M3", hex="1520", detected=True),
        DrvFlight(id="M4", hex="1521"),
    )
    _state, events = run(
        _moving(drv), {"type": "CheckActivation", "flight_id": "M4", "reason": "targeted"}, [[9, 9]]
    )
    assert not of(events, ev.ActivationChecked)[0].real


def test_proximity_check_after_a_drv_move() -> None:
    """5.6.1: an undetected generic flight moving adjacent to a US flight (fewer than two
    bands apart) takes an activation check. M1 (Medium, 1419) is within 10 of the detected
    S1 (1021, Medium): Approach (5.8.2), dash (fuel 99), MiG-17 4 MP: it flies by itself to
    S1's hex side and the check rolls 70 (real, Dummy # 01-57)."""
    drv = (DrvFlight(id="M1", hex="1419", altitude=Altitude.MEDIUM),)
    _state, events = run(_moving(drv), {"type": "RunDrvMovement"}, [[7, 0]])
    moved = of(events, ev.DrvFlightMoved)[0]
    assert moved.path[0] == "1319" and len(moved.path) <= 4
    assert of(events, ev.ActivationChecked)[0].reason == "proximity"


def test_dagger_removes_all_generic_flights() -> None:
    """5.6.2 †: no more flights can be activated; all generic flights leave."""
    drv = (DrvFlight(id="M1", hex="1518"), DrvFlight(id="M2", hex="1519"))
    state = _moving(drv, setup=msgspec.structs.replace(new_state().setup, scenario="D2"))
    state, _events = run(state, {"type": "IdentifyVisually", "flight_id": "M1"}, [[5, 0]])
    assert state.no_more_flights and [f.id for f in state.drv] == ["M1"]


def test_initiative() -> None:
    """5.1: US first in the first Movement Phase; later DRV first with a flight engaged."""
    state = msgspec.structs.replace(
        new_state(),
        phase="sam_acquisition",
        turn=1,
        drv=(DrvFlight(id="M1", hex="1022"),),
        us=(S1,),
    )
    _, events = run(state, {"type": "RunSamAcquisitionPhase"}, [[9]])
    assert [e.result for e in of(events, ev.DecisionMade) if e.topic == "initiative"] == ["US"]
    state = msgspec.structs.replace(state, movement_phases=1)
    _, events = run(state, {"type": "RunSamAcquisitionPhase"}, [[9]])
    assert [e.result for e in of(events, ev.DecisionMade) if e.topic == "initiative"] == ["DRV"]
