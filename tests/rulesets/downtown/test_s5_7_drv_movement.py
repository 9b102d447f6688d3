"""5.7-5.9 The DRV flights fly themselves (RunDrvMovement): in 5.7.2 order, along the route
of their maneuver zone (5.8.1 transit, 5.8.2 approach, 5.9.1 aborting), as many hexes as
the Movement Points of their aircraft at the intent's throttle (5.9.2, `Setup.drv_speeds`),
each once a Movement Phase; the Admin Phase flies any flight left. The seed prints no
worked example of DRV movement; the positions below are on the synthetic map, with the
dice stated (none is rolled unless a proximity check is made)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from tests.rulesets.downtown.setups import new_state, of, run
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.board import board_of
from umpire.engine.rulesets.downtown.state import DrvFlight, State, UsFlight
from umpire.engine.rulesets.downtown.synthetic_map import SYNTHETIC
from umpire.engine.rulesets.downtown.terms import Altitude, FlightStatus, Mission, Task

S1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="2420", bomber=True)
"""The strike, detected, at Medium."""
RUN = {"type": "RunDrvMovement"}


def _moving(drv: tuple[DrvFlight, ...], us: tuple[UsFlight, ...] = (S1,), **setup: Any) -> State:
    return msgspec.structs.replace(
        new_state(**setup), phase="movement", turn=2, movement_phases=2, drv=drv, us=us
    )


def _moved(events: list[Any]) -> list[ev.DrvFlightMoved]:
    return of(events, ev.DrvFlightMoved)


def test_5_8_1_transit_deck_combat_throttle_mig17_allowance() -> None:
    """16 hexes from the detected strike: Transit, Deck, combat throttle; no profile, so the
    MiG-17's 3 MP at combat (5.9.2); it faces along its last step. No dice."""
    state, events = run(_moving((DrvFlight(id="M1", hex="0821"),)), RUN, [])
    (moved,) = _moved(events)
    assert moved.path == ("0920", "1020", "1119")
    assert (moved.hex, moved.altitude, moved.facing) == ("1119", Altitude.DECK, 1)
    assert moved.rule.startswith("000_842c81c5c58bc2f6.txt 5.7; ") and "5.8.1" in moved.rule
    assert state.drv[0].hex == "1119" and state.drv_moved == ("M1",)
    intent = of(events, ev.MovementIntent)[0]
    assert intent.zone == "transit" and intent.route[: len(moved.path) + 1][1:] == moved.path


def test_5_8_1_transit_route_avoids_barrage_zones() -> None:
    """The strike (undetected, so the flight stays in transit) is beyond the Hanoi barrage:
    the route bends around it (2021-2023, 1921, 1922 are barrage hexes)."""
    hidden = msgspec.structs.replace(S1, hex="2522", detected=False)
    _, events = run(_moving((DrvFlight(id="M1", hex="1722"),), (hidden,)), RUN, [])
    (moved,) = _moved(events)
    board = board_of(None)
    assert moved.path == ("1823", "1923", "2024")
    assert not any(board.in_barrage(h) for h in moved.path)


def test_5_8_2_approach_dash_profile_allowance_and_one_band_climb() -> None:
    """Within 10 of the detected strike: Approach, fuel 99 so dash (5.8.2); the MiG21PF
    profile flies its own 6 MP at dash (5.9.2); from the Deck it climbs one band (Low)
    toward the target's Medium."""
    m1 = DrvFlight(id="M1", hex="1622", profile="MiG21PF")
    _, events = run(_moving((m1,)), RUN, [])
    (moved,) = _moved(events)
    assert len(moved.path) == 6 and moved.hex == "2219" and moved.altitude is Altitude.LOW
    assert "MiG21PF dash 6 MP" in moved.explanation


def test_5_9_2_the_allowance_is_scenario_data() -> None:
    """`Setup.drv_speeds` sets the base-game values: a MiG-17 of 2 MP flies two hexes."""
    slow = [{"aircraft": "MiG17F", "combat": 2, "dash": 2}]
    _, events = run(_moving((DrvFlight(id="M1", hex="0821"),), drv_speeds=slow), RUN, [])
    assert _moved(events)[0].path == ("0920", "1020")


def test_5_7_2_order_and_each_flight_moves_once() -> None:
    """`flights: 1` flies the first of the order only (M2, step E, before M1, step F); the
    next RunDrvMovement flies M1; a third is refused (nothing left to move)."""
    m1 = DrvFlight(id="M1", hex="0821")
    m2 = DrvFlight(id="M2", hex="1622", altitude=Altitude.LOW)
    state, events = run(_moving((m1, m2)), {**RUN, "flights": 1}, [])
    order = next(e for e in of(events, ev.DecisionMade) if e.topic == "flight_order")
    assert order.order == ("M2", "M1")
    assert [m.flight_id for m in _moved(events)] == ["M2"]
    state, events = run(state, RUN, [])
    assert [m.flight_id for m in _moved(events)] == ["M1"]
    with pytest.raises(RuleError, match="every DRV flight has moved") as info:
        run(state, RUN, [])
    assert "5.7.2" in info.value.rule


def test_the_admin_phase_flies_the_flights_left() -> None:
    """5.7: a flight the player did not call flies before the Movement Phase ends. Dice: the
    Admin Phase's own rolls (hidden AAA, Fire Cans, SAMs, set-up SAMs, generation)."""
    state = _moving((DrvFlight(id="M1", hex="0821"),))
    state, events = run(state, {"type": "RunAdminPhase"})
    moved = _moved(events)
    assert [m.flight_id for m in moved] == ["M1"] and moved[0].path == ("0920", "1020", "1119")
    first_admin = next(i for i, e in enumerate(events) if isinstance(e, ev.PhaseBegan))
    assert events.index(moved[0]) < first_admin


def test_5_9_1_an_aborting_flight_leaves_by_the_china_buffer_zone() -> None:
    """Aborting: dash if any fuel, toward the nearest China Buffer Zone map-edge hex (row 1
    on the synthetic map); reaching it, it leaves the map."""
    m1 = DrvFlight(id="M1", hex="1004", status=FlightStatus.ABORTING)
    state, events = run(_moving((m1,)), RUN, [])
    assert _moved(events)[0].path == ("1003", "1002", "0901")
    (gone,) = of(events, ev.DrvFlightRemoved)
    assert gone.reason == "left the map" and "5.9.1" in gone.rule and state.drv == ()


def test_no_command_names_a_drv_hex() -> None:
    """The player's commands on DRV flights carry no hex: the DRV moves itself."""
    from umpire.engine.rulesets.downtown import commands as cmd

    for kind in (cmd.RunDrvMovement, cmd.ReportDrvFlight, cmd.PlanDrvFlight):
        assert "hex" not in kind.__struct_fields__
    assert not hasattr(cmd, "MoveDrvFlight")


def test_report_drv_flight_sets_status_and_fuel_or_removes() -> None:
    """Base-game results reported with no hex: the flight aborts with 1 fuel point left (it
    will fly toward the China Buffer Zone, 5.9.1) without moving; then it is destroyed."""
    state = _moving((DrvFlight(id="M1", hex="1004"),))
    state, _events = run(
        state, {"type": "ReportDrvFlight", "flight_id": "M1", "status": "aborting", "fuel": 1}
    )
    assert (state.drv[0].status, state.drv[0].fuel) == (FlightStatus.ABORTING, 1)
    assert state.drv_moved == ()
    state, _ = run(state, {"type": "ReportDrvFlight", "flight_id": "M1", "destroyed": True})
    assert state.drv == ()


def test_5_6_1_the_proximity_check_is_umpires_not_the_players() -> None:
    """CheckActivation takes targeted or detected; a proximity check by the player is
    refused (umpire makes it as the flight moves), and actions offer only the two."""
    state = _moving((DrvFlight(id="M1", hex="1419"),))
    with pytest.raises(RuleError, match="proximity check is made by umpire"):
        run(state, {"type": "CheckActivation", "flight_id": "M1", "reason": "proximity"})


CAP = UsFlight(id="C1", mission=Mission.CAP, task=Task.CAP, hex="2025")
"""A CAP flight between the disordered flight and its rally point (issue 41, item 9)."""


def _rallying_to(rally: str) -> State:
    only = msgspec.structs.replace(SYNTHETIC, rally_points=(rally,))
    flight = DrvFlight(id="M1", hex="2020", status=FlightStatus.DISORDERED)
    return _moving((flight,), (CAP,), map=msgspec.to_builtins(only))


def test_5_9_1_disordered_route_never_steps_closer_to_a_us_flight() -> None:
    """5.9.1: a disordered flight at 2020 rallying to 2030, a CAP at 2025 (5 hexes from
    both): the shortest route that never moves it closer to the CAP bends around it,
    where the straight route closes to 2 hexes. No dice."""
    board = board_of(None)
    _, events = run(_rallying_to("2030"), RUN, [])
    (intent,) = of(events, ev.MovementIntent)
    assert intent.destination == "2030" and intent.rule.endswith("5.9.1")
    steps = list(zip(intent.route, intent.route[1:], strict=False))
    assert steps and all(board.dist(b, "2025") >= board.dist(a, "2025") for a, b in steps)
    (moved,) = _moved(events)
    assert all(board.dist(h, "2025") >= 5 for h in moved.path)
    assert "not closer to a US flight" in intent.explanation
    assert "no such route" not in intent.explanation


def test_5_9_1_disordered_falls_back_to_the_shortest_route_and_says_so() -> None:
    """5.9.1 "If there is no such route": the rally point 2026 is next to the CAP, so every
    route to it closes in; the flight takes the plain shortest route, and its record says
    so."""
    board = board_of(None)
    _, events = run(_rallying_to("2026"), RUN, [])
    (intent,) = of(events, ev.MovementIntent)
    assert len(intent.route) == board.dist("2020", "2026") + 1
    assert "no such route" in intent.explanation
