"""5.7.2 flight order A-H and 5.8-5.9 maneuver zones and movement intents."""

from __future__ import annotations

import msgspec

from tests.rulesets.downtown.setups import new_state, of
from umpire.engine.dice import ManualDice
from umpire.engine.rulesets.downtown import drv_movement
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.state import DrvFlight, Sam, State, UsFlight
from umpire.engine.rulesets.downtown.terms import (
    Altitude,
    FlightStatus,
    Mission,
    SamStatus,
    Task,
    Zone,
)
from umpire.engine.rulesets.downtown.turn import DowntownTurn

S1 = UsFlight(
    id="S1",
    mission=Mission.STRIKE,
    task=Task.BOMBING,
    hex="1021",
    facing=2,
    altitude=Altitude.MEDIUM,
)
C1 = UsFlight(id="C1", mission=Mission.CAP, task=Task.CAP, hex="1030", facing=0)


def _led(
    drv: tuple[DrvFlight, ...], us: tuple[UsFlight, ...] = (S1, C1), **kw: object
) -> DowntownTurn:
    state: State = msgspec.structs.replace(
        new_state(), phase="movement", turn=1, drv=drv, us=us, **kw
    )
    return DowntownTurn(state, ManualDice([], 0))


def test_flight_order_steps() -> None:
    """5.7.2: A engage threatening, B engage vs bomber, D aborting, E approach vs bomber,
    F closest, G taking off, H disordered; steps in order A to H."""
    drv = (
        DrvFlight(id="Ma", hex="0920", facing=2),  # behind S1 (rear arc), S1 ahead: A
        DrvFlight(id="Mb", hex="1123", facing=0),  # within 3 of S1: B
        DrvFlight(id="Md", hex="1030", status=FlightStatus.ABORTING),
        DrvFlight(id="Me", hex="1628"),  # 8 from S1: approach vs bomber: E
        DrvFlight(id="Mf", hex="3040"),  # far: F
        DrvFlight(id="Mg", hex="1918", ready=True),
        DrvFlight(id="Mh", hex="2540", status=FlightStatus.DISORDERED),
    )
    led = _led(drv)
    steps = {f.id: drv_movement.step_of(led, f)[0] for f in drv}
    assert steps == {"Ma": "A", "Mb": "B", "Md": "D", "Me": "E", "Mf": "F", "Mg": "G", "Mh": "H"}
    drv_movement.flight_order(led)
    assert of(led.events, ev.DecisionMade)[0].order == ("Ma", "Mb", "Md", "Me", "Mf", "Mg", "Mh")


def test_zones() -> None:
    """5.8: Engage within 3, Approach within 10 of a detected flight, else Transit."""
    led = _led(())
    assert drv_movement.zone(led, DrvFlight(id="M", hex="1023")) is Zone.ENGAGE
    assert drv_movement.zone(led, DrvFlight(id="M", hex="1026")) is Zone.APPROACH
    assert drv_movement.zone(led, DrvFlight(id="M", hex="3040")) is Zone.TRANSIT


def test_transit_intent_deck_route_avoids_barrage() -> None:
    """5.8.1: Deck, combat throttle, shortest route to the strike mission avoiding barrage."""
    led = _led((), us=(msgspec.structs.replace(S1, hex="1422"),))
    f = DrvFlight(id="M1", hex="2622", altitude=Altitude.DECK)
    drv_movement.intent(led, f)
    intent = of(led.events, ev.MovementIntent)[0]
    assert (intent.zone, intent.altitude, intent.throttle) == ("transit", "deck", "combat")
    assert not any(led.board.in_barrage(h) for h in intent.route)


def test_approach_targets_bomber_first_and_climbs_one_band() -> None:
    """5.8.2: the closest detected flight, Bombing before SEAD before others; climb at most
    one band a turn; dash with 2+ fuel."""
    sead = UsFlight(
        id="W1", mission=Mission.IRON_HAND, task=Task.SEAD, hex="1027", altitude=Altitude.HIGH
    )
    bomber = msgspec.structs.replace(S1, hex="1015", altitude=Altitude.HIGH)
    led = _led((), us=(sead, bomber))
    drv_movement.intent(led, DrvFlight(id="M1", hex="1021", altitude=Altitude.DECK, fuel=5))
    intent = of(led.events, ev.MovementIntent)[0]
    assert (intent.target, intent.altitude, intent.throttle) == ("S1", "low", "dash")


def test_approach_never_targets_a_flight_under_sam_cover() -> None:
    """5.8.2: not within 5 of a SAM with its radar on."""
    sam = Sam(id="SAM1", hex="1015", status=SamStatus.ACTIVE, radar_on=True)
    bomber = msgspec.structs.replace(S1, hex="1015")
    led = _led((), us=(bomber,), sams=(sam,))
    drv_movement.intent(led, DrvFlight(id="M1", hex="1021"))
    assert of(led.events, ev.MovementIntent)[0].target == ""


def test_broken_flights() -> None:
    """5.9.1: aborting to a China Buffer Zone edge hex at dash; disordered to the nearest
    rally point; neither changes altitude."""
    led = _led(())
    drv_movement.intent(
        led,
        DrvFlight(id="M1", hex="1010", status=FlightStatus.ABORTING, altitude=Altitude.LOW, fuel=3),
    )
    drv_movement.intent(
        led, DrvFlight(id="M2", hex="1612", status=FlightStatus.DISORDERED, altitude=Altitude.HIGH)
    )
    abort, dis = of(led.events, ev.MovementIntent)
    assert (
        abort.destination in ("0901", "1001")
        and abort.throttle == "dash"
        and abort.altitude == "low"
    )
    assert dis.destination == "1510" and dis.altitude == "high"


def test_poor_weather_keeps_transit_at_low() -> None:
    """5.9.3: in poor weather Low is the lowest band."""
    led = _led(
        (),
        us=(msgspec.structs.replace(S1, hex="1422"),),
        setup=msgspec.structs.replace(new_state().setup, poor_weather=True),
    )
    drv_movement.intent(led, DrvFlight(id="M1", hex="3040"))
    assert of(led.events, ev.MovementIntent)[0].altitude == "low"
