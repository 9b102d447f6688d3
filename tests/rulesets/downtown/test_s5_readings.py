"""5 DRV Air Units (000_842c81c5c58bc2f6.txt): the readings of README ledger rows 5.4.3, 5.6.1
and 5.8.3."""

from __future__ import annotations

import msgspec

from tests.rulesets.downtown.setups import SEED, new_state, of, run
from umpire.engine.dice import ManualDice
from umpire.engine.rulesets.downtown import drv_movement
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.state import DrvFlight, State, UsFlight
from umpire.engine.rulesets.downtown.terms import Altitude, Mission, Task, Zone
from umpire.engine.rulesets.downtown.turn import DowntownTurn
from umpire.testing.support.seeds import seed_text

S1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="1021", bomber=True)
"""At Medium (the default altitude of a reported flight)."""


def _moving(drv: tuple[DrvFlight, ...], us: tuple[UsFlight, ...] = (S1,)) -> State:
    return msgspec.structs.replace(
        new_state(), phase="movement", turn=1, movement_phases=1, drv=drv, us=us
    )


def _move_to(us_altitude: str, dice: list[list[int]]) -> list[object]:
    """M1 (Deck, in transit: S1 is undetected) flies 1319-1220-1120 by itself, ending next
    to S1 (1021) at `us_altitude`."""
    drv = (DrvFlight(id="M1", hex="1419"),)
    s1 = msgspec.structs.replace(S1, detected=False, altitude=Altitude(us_altitude))
    _, events = run(_moving(drv, (s1,)), {"type": "RunDrvMovement"}, dice)
    return events


def test_the_seed_counts_bands_between() -> None:
    assert "If there are two or more altitude bands between the US and the DRV flights, no " \
        "activation check is made." in " ".join(seed_text(SEED).split())  # fmt: skip


def test_5_6_1_deck_and_medium_are_two_bands_apart_no_check() -> None:
    """Read as a difference of two bands or more: Deck next to Medium takes no proximity
    check (one band, Low, lies strictly between them); Deck next to Low does."""
    assert not of(_move_to("medium", []), ev.ActivationChecked)
    assert of(_move_to("low", [[7, 0]]), ev.ActivationChecked)[0].reason == "proximity"


def test_5_8_3_engage_zone_counts_undetected_us_flights() -> None:
    """5.8.3 "within a range of 3 hexes of an enemy flight" (detected or not) is Engage;
    5.8.2's Approach needs a detected flight within 10."""
    hidden = msgspec.structs.replace(S1, detected=False)
    flight = DrvFlight(id="M1", hex="1121")
    led = DowntownTurn(_moving((flight,), (hidden,)), ManualDice([], 0))
    assert drv_movement.zone(led, flight) is Zone.ENGAGE
    far = DrvFlight(id="M2", hex="1521")
    led = DowntownTurn(_moving((far,), (hidden,)), ManualDice([], 0))
    assert drv_movement.zone(led, far) is Zone.TRANSIT


def test_5_4_3_flights_at_airfields_are_discarded_not_placed() -> None:
    """5.4.3 "Discard any such flights": a flight whose turn falls on an airfield is never
    generated (no counter, no event other than the decision saying so)."""
    state = msgspec.structs.replace(new_state(), phase="air_deployment")
    _, events = run(
        state, {"type": "DeployDrvAir", "early_warning": "good", "placement": "orbit_or_airfield"},
        [[9, 0]],
    )  # fmt: skip
    generated = of(events, ev.DrvFlightGenerated)
    discarded = [e for e in of(events, ev.DecisionMade) if e.result == "discarded"]
    assert len(generated) + len(discarded) == 3 and discarded
    assert all(g.hex in ("1510", "2808") for g in generated)
