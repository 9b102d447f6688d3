"""5.5.1 Gaining Flying Profiles (000_842c81c5c58bc2f6.txt): the flights generated in the air
in the DRV Air Deployment Phase make one percentile roll, and at most one flight gains a
profile."""

from __future__ import annotations

import msgspec

from tests.rulesets.downtown.setups import SEED, new_state, of, rolls, run
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.state import State
from umpire.testing.support.seeds import seed_text

IN_THE_AIR = {"type": "DeployDrvAir", "early_warning": "good", "placement": "in_the_air"}


def _air() -> State:
    return msgspec.structs.replace(new_state(scenario="D4"), phase="air_deployment")


def test_the_seed_says_one_roll_and_one_flight() -> None:
    text = " ".join(seed_text(SEED).split())
    assert (
        "Roll percentile dice. If the roll is in the range listed for the Dummy# column on the "
        "DRV Air Activation Table, then no flight gains a flying profile. If the dice roll is "
        "greater than the Dummy# then one flight gains a profile."
    ) in text


def test_three_flights_one_roll_one_profile() -> None:
    """D4 (Dummy 01-57), Good warning: a deployment roll of 90 sets up 2 + 1 = 3 flights in
    the air. One profile roll of 90 (81-100: MiG21F-13) gives ONE flight a profile; the old
    code rolled three times and gave three profiles (ManualDice would run out here)."""
    state, events = run(_air(), IN_THE_AIR, [[9, 0], [9, 0]])
    generated = of(events, ev.DrvFlightGenerated)
    assert len(generated) == 3
    assert len(rolls(events)) == 2  # the deployment roll and one profile roll
    profiles = of(events, ev.FlightProfileAssigned)
    assert len(profiles) == 1
    first = generated[0].flight_id
    assert (profiles[0].flight_id, profiles[0].aircraft) == (first, "MiG21F-13")
    assert "5.5.1" in profiles[0].rule and SEED in profiles[0].rule
    assert [f.profile for f in state.drv] == ["MiG21F-13", "", ""]


def test_a_roll_in_the_dummy_range_gives_no_flight_a_profile() -> None:
    """D4: a profile roll of 57 (Dummy 01-57): no flight gains a flying profile."""
    state, events = run(_air(), IN_THE_AIR, [[9, 0], [5, 7]])
    assert len(of(events, ev.DrvFlightGenerated)) == 3
    assert not of(events, ev.FlightProfileAssigned)
    none = [e for e in of(events, ev.DecisionMade) if e.topic == "profile"]
    assert len(none) == 1 and none[0].result == "none" and "5.5.1" in none[0].rule
    assert all(f.profile == "" for f in state.drv)


def test_orbit_point_flights_roll_no_profile() -> None:
    """5.5.1 names only flights generated in the air: orbit-point flights make no roll."""
    _state, events = run(_air(), {**IN_THE_AIR, "placement": "orbit_or_airfield"}, [[9, 0]])
    assert of(events, ev.DrvFlightGenerated) and not of(events, ev.FlightProfileAssigned)
