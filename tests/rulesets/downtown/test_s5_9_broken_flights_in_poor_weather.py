"""5.9.1 against 5.9.3: "Aborting and disordered flights will not change altitude", and in
poor weather DRV flights "will use Low altitude band as their lowest altitude band. If they
find themselves on the deck they will climb out of it as fast as possible" (only flights
"taking off, or landing" are excepted). For a broken flight on the Deck in poor weather
the two rules disagree; umpire reads 5.9.1 (README ledger 5.9.1, 5.9.3): it names broken
flights, and a broken flight heads for the China Buffer Zone or a rally point to recover
rather than into the fight that weather keeps the others out of the Deck for."""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.downtown.setups import new_state, of, run
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.state import DrvFlight, UsFlight
from umpire.engine.rulesets.downtown.terms import Altitude, FlightStatus, Mission, Phase, Task


@pytest.mark.parametrize("status", [FlightStatus.ABORTING, FlightStatus.DISORDERED])
def test_a_broken_flight_on_the_deck_stays_there_in_poor_weather(status: FlightStatus) -> None:
    """M1 (on the Deck in 2020) is broken, the weather poor, S1 far off in 0520: by hand
    it keeps the Deck as it flies (5.9.1), where a flight in transit would fly at Low."""
    s1 = UsFlight(id="S1", mission=Mission.STRIKE, task=Task.BOMBING, hex="0520")
    m1 = DrvFlight(id="M1", hex="2020", altitude=Altitude.DECK, status=status, fuel=4)
    state = msgspec.structs.replace(
        new_state(poor_weather=True), phase=Phase.MOVEMENT, turn=1, us=(s1,), drv=(m1,)
    )
    _, events = run(state, {"type": "RunDrvMovement"}, [])
    (intent,) = of(events, ev.MovementIntent)
    (moved,) = of(events, ev.DrvFlightMoved)
    assert intent.altitude == "deck" and moved.altitude == "deck"
    assert "altitude unchanged" in intent.explanation
