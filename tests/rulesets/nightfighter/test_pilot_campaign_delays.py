"""Pilot Campaign (004_c3eb2ad371d7bb6a.txt) delays worked by hand: wounds run concurrently
with an aircraft's repair or loss, and from November two weeks without flying (not
recovering from wounds) retrain the pilot onto the Me110F-4 or Ju88C-6. Weeks are calendar
weeks from Monday 1 June 1942 (README "Campaign"): week 22 starts on 26 October, week 23 on
2 November."""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.nightfighter.setups import make_setup, named, run
from umpire.engine.rulesets.nightfighter.campaign import month_of
from umpire.engine.rulesets.nightfighter.evolve import initial_state
from umpire.engine.rulesets.nightfighter.state import State


def _at_week(week: int, aircraft: str = "") -> State:
    state = initial_state(make_setup(campaign="lite", campaign_aircraft=aircraft))
    at = msgspec.structs.replace(state.campaign, week=week)
    return msgspec.structs.replace(state, campaign=at)


def _end(state: State, **fields: object) -> tuple[State, str]:
    state, events = run(state, "EndCampaignWeek", [], **fields)
    return state, named(events, "CampaignWeekEnded").explanation


def _aircraft(state: State) -> str:
    assert state.campaign is not None
    return state.campaign.aircraft


def test_the_calendar_weeks_at_the_november_boundary() -> None:
    assert (month_of(22), month_of(23), month_of(24)) == (10, 11, 11)


@pytest.mark.parametrize(("aircraft", "retrained"),
                         [("Me110E-4", "Me110F-4"), ("Ju88C-2", "Ju88C-6")])  # fmt: skip
def test_two_idle_weeks_in_november_retrain(aircraft: str, retrained: str) -> None:
    """'From November onwards, any consecutive two week period in which you do not fly and
    are not recovering from wounds ... your aircraft thereafter is always an Me110F-4 ... or
    Ju88C-6': weeks 23 and 24 without flying: after week 23 the old type, after week 24
    the new one, said in the week's explanation."""
    state, _ = _end(_at_week(23, aircraft))
    assert _aircraft(state) == aircraft
    state, text = _end(state)
    assert _aircraft(state) == retrained and retrained in text


def test_idle_weeks_before_november_do_not_retrain() -> None:
    """Weeks 21 and 22 (both begun in October) without flying: no retraining."""
    state, _ = _end(_at_week(21))
    state, _ = _end(state)
    assert _aircraft(state) == "Me110E-4"


def test_an_october_week_does_not_open_the_november_period() -> None:
    """README ledger "Pilot Campaign, retraining": week 22 (26 October) and week 23 (2
    November) idle are not a two-week period 'from November onwards'; week 24 idle too
    completes one (weeks 23 and 24)."""
    state, _ = _end(_at_week(22))
    state, _ = _end(state)
    assert _aircraft(state) == "Me110E-4"
    state, _ = _end(state)
    assert _aircraft(state) == "Me110F-4"


def test_weeks_recovering_from_wounds_do_not_count() -> None:
    """Wounded in week 23 for two weeks (weeks 24 and 25 recovering): no retraining by then;
    weeks 26 and 27 idle and not recovering retrain after week 27."""
    state = _at_week(23)
    assert state.campaign is not None
    flying = msgspec.structs.replace(state.campaign, flying=True)
    state, _ = _end(msgspec.structs.replace(state, campaign=flying), wounded_weeks=2)
    for _week in (24, 25, 26):
        state, _ = _end(state)
        assert _aircraft(state) == "Me110E-4"
    state, _ = _end(state)
    assert _aircraft(state) == "Me110F-4"


@pytest.mark.parametrize(("recovery", "wounded", "flies_again"),
                         [("written_off", 1, 4), ("damaged", 3, 5), ("ok", 0, 2)])  # fmt: skip
def test_wounds_run_concurrently_with_the_aircraft_delay(
    recovery: str, wounded: int, flies_again: int
) -> None:
    """'any time you spend recovering from wounds runs concurrently with the other delays':
    written off in week 1 (out weeks 2-3) with one week's wound: flies again in week 4;
    damaged (out week 2) with three weeks' wounds (weeks 2-4): week 5."""
    state, _ = _end(initial_state(make_setup(campaign="lite")), recovery=recovery,
                    wounded_weeks=wounded)  # fmt: skip
    for week in range(2, flies_again):
        state, events = run(state, "RollCampaignWeek", [], moon="full")
        assert "grounded" in named(events, "CampaignRolled").explanation, week
        state, _ = _end(state)
    state, events = run(state, "RollCampaignWeek", [[1, 2]], moon="full")
    assert "grounded" not in named(events, "CampaignRolled").explanation
