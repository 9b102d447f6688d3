"""Cases worked by hand from the seed (004_c3eb2ad371d7bb6a.txt) with stated dice, the way
an outside reviewer checks the engine: each docstring gives the rule, the dice and the
result the seed's text gives, worked without reading the code.

Counters are named <bomber>-<n>; the Würzburg-like radar W has search value 1 unless a test
says otherwise.
"""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.nightfighter.setups import counter, make_setup, make_state, named, run
from umpire.engine.actions import legal_actions
from umpire.engine.errors import RuleError
from umpire.engine.roles import Role
from umpire.engine.rulesets.nightfighter import RULESET
from umpire.engine.rulesets.nightfighter.evolve import initial_state
from umpire.engine.rulesets.nightfighter.state import State
from umpire.engine.rulesets.nightfighter.terms import Phase, Status, Track, Uncertainty


def _search(state: State, hex_label: str, rolls: list[list[int]], radar: str = "W") -> tuple:  # type: ignore[type-arg]
    return run(state, "PlaceRadarSearches", rolls, searches=[{"radar": radar, "hex": hex_label}])


def _statuses(state: State) -> dict[str, tuple[Status, Uncertainty]]:
    return {c.id: (c.status, c.level) for c in state.counters}


@pytest.mark.parametrize(("roll", "real"), [(3, True), (4, False)])
def test_s5_4_one_other_counter_is_removed_on_1_to_3(roll: int, real: bool) -> None:
    """S5.4: 'If there is only one other high uncertainty counter for that bomber, that
    other counter is removed on a roll of 1, 2 or 3'; on any other result the tested counter
    is the phantom, and the one left becomes moderate. Ground radar on H-1, die 3 or 4."""
    counters = [counter("H-1", "1010", "high"), counter("H-2", "0410", "high")]
    state = make_state(make_setup(), counters, Phase.RADAR_SEARCH)
    state, events = _search(state, "1010", [[roll]])
    assert named(events, "PhantomTested").value == roll
    if real:
        assert _statuses(state) == {
            "H-1": (Status.ON_MAP, Uncertainty.MODERATE),
            "H-2": (Status.REMOVED, Uncertainty.HIGH),
        }
    else:
        assert _statuses(state) == {
            "H-1": (Status.REMOVED, Uncertainty.HIGH),
            "H-2": (Status.ON_MAP, Uncertainty.MODERATE),
        }


@pytest.mark.parametrize(("roll", "real"), [(2, True), (3, False)])
def test_s5_4_two_other_counters_are_removed_on_1_or_2(roll: int, real: bool) -> None:
    """S5.4: 'If there are two other high uncertainty counters for that bomber, those two
    other counters are both removed on a roll of 1 or 2'; on a 3 the tested counter is
    removed and the other two stay high."""
    counters = [counter("H-1", "1010", "high"), counter("H-2", "0410", "high"),
                counter("H-3", "1610", "high")]  # fmt: skip
    state = make_state(make_setup(), counters, Phase.RADAR_SEARCH)
    state, _ = _search(state, "1010", [[roll]])
    got = _statuses(state)
    if real:
        assert got["H-1"] == (Status.ON_MAP, Uncertainty.MODERATE)
        assert got["H-2"][0] is got["H-3"][0] is Status.REMOVED
    else:
        assert got["H-1"][0] is Status.REMOVED
        assert got["H-2"] == got["H-3"] == (Status.ON_MAP, Uncertainty.HIGH)


def test_s5_4_pending_counters_count_as_others() -> None:
    """S5.4: counters 'which have yet to enter play ... do NOT count as removed': one on the
    map and two due next turn is two others, so a 3 shows the tested one a phantom (it
    would be real with one other), and the two pending counters remain."""
    counters = [counter("H-1", "1010", "high"),
                counter("H-2", "0403", "high", status=Status.PENDING),
                counter("H-3", "1603", "high", status=Status.PENDING)]  # fmt: skip
    state = make_state(make_setup(), counters, Phase.RADAR_SEARCH)
    state, events = _search(state, "1010", [[3]])
    assert named(events, "PhantomTested").others == 2
    got = _statuses(state)
    assert got["H-1"][0] is Status.REMOVED
    assert got["H-2"] == got["H-3"] == (Status.PENDING, Uncertainty.HIGH)


def test_s5_4_three_others_reroll_above_the_counters_in_play() -> None:
    """S5.4: with three other counters (four in play) the die is 're-rolled as many times
    as necessary if the score exceeds the total number of high uncertainty counters':
    6 and 5 are rolled again, then 2: the tested counter is a phantom (real only on 1)."""
    counters = [counter(f"H-{i}", h, "high") for i, h in
                enumerate(["1010", "0410", "1610", "1020"], 1)]  # fmt: skip
    state = make_state(make_setup(), counters, Phase.RADAR_SEARCH)
    state, events = _search(state, "1010", [[6], [5], [2]])
    tested = named(events, "PhantomTested")
    assert (len(tested.dice), tested.value, tested.result) == (3, 2, "phantom")
    assert [c.status for c in state.counters].count(Status.ON_MAP) == 3


@pytest.mark.parametrize(("roll", "localised"), [(6, True), (5, False)])
def test_s13_low_counter_crowded_needs_a_6(roll: int, localised: bool) -> None:
    """S13.0: against low uncertainty a search value one radar rolls a die, 'deduct one if
    another bomber counter other than a high uncertainty counter is within four hexes', and
    localises on a modified 5 or 6: with a low counter three hexes away, 6 - 1 = 5
    localises (then the S5.2 location die, 3: the counter's own hex), 5 - 1 = 4 does not."""
    counters = [counter("B-1", "1010", "low"), counter("C-1", "1013", "low")]
    state = make_state(make_setup(), counters, Phase.RADAR_SEARCH)
    rolls = [[roll], [3]] if localised else [[roll]]
    state, events = _search(state, "1010", rolls)
    resolved = named(events, "RadarSearchResolved")
    assert resolved.modified == roll - 1
    assert (state.counters[0].track is Track.ON_TOP) is localised
    assert state.counters[0].hex == "1010"


def test_s13_a_high_counter_nearby_does_not_crowd() -> None:
    """S13.0: only 'another bomber counter other than a high uncertainty counter' costs the
    -1: a moderate counter with a high counter two hexes away, search value 1, die 4:
    4 - 1 = 3, narrowed to low (scatter die 3: directly back one hex)."""
    counters = [counter("B-1", "1010"), counter("H-1", "1012", "high")]
    state = make_state(make_setup(), counters, Phase.RADAR_SEARCH)
    state, events = _search(state, "1010", [[4], [3]])
    assert named(events, "RadarSearchResolved").modified == 3
    assert state.counters[0].level is Uncertainty.LOW


@pytest.mark.parametrize(("roll", "removed"), [(2, True), (3, False)])
def test_s25_heavily_jammed_gci_is_a_lightly_jammed_search_radar(roll: int, removed: bool) -> None:
    """S25.0: 'heavily jammed GCI radars are treated as lightly jammed search radars', and
    S24.0 removes a lightly jammed search counter 'on a roll of 1 or 2'. If it stands it
    searches as a plain radar: one die (5; search value 2: 5 - 2 = 3, narrowed; scatter 1)."""
    setup = make_setup(radars=[{"name": "G", "kind": "gci", "jamming": "heavy",
                                "search_value": 2}])  # fmt: skip
    state = make_state(setup, [counter("B-1", "1010")], Phase.RADAR_SEARCH)
    rolls = [[roll]] if removed else [[roll], [5], [1]]
    state, events = _search(state, "1010", rolls, radar="G")
    assert named(events, "JammingTested").removed is removed
    if not removed:
        resolved = named(events, "RadarSearchResolved")
        assert (len(resolved.dice), resolved.value, resolved.modified) == (1, 5, 3)
        assert state.counters[0].level is Uncertainty.LOW


def _campaign(kind: str) -> State:
    return initial_state(make_setup(campaign=kind))


@pytest.mark.parametrize(("roll", "cards", "moon", "more"),
                         [(6, 3, "full", False), (4, 2, "none", True)])  # fmt: skip
def test_campaign_night_continuation(roll: int, cards: int, moon: str, more: bool) -> None:
    """CAMPAIGN MODIFICATIONS: deduct one per card drawn that night, one more in a full
    moon week, add one with no moon; 3 or more draws another card: 6 - 3 - 1 = 2 ends the
    night; 4 - 2 + 1 = 3 goes on."""
    state = _campaign("full")
    night = msgspec.structs.replace(state.campaign, night_cards=cards)
    state = msgspec.structs.replace(state, campaign=night)
    _, events = run(state, "RollNightContinuation", [[roll]], moon=moon)
    assert named(events, "CampaignRolled").candidates[0].chosen is more


def test_pilot_campaign_written_off_misses_two_weeks_and_flies_the_third() -> None:
    """Pilot Campaign: 'If your aircraft is written off or destroyed, you do not fly for the
    next two weeks': written off in week 1, weeks 2 and 3 are grounded (no dice), week 4
    rolls its two full-moon dice (1, 2: no 6, not flying)."""
    state, _ = run(_campaign("lite"), "EndCampaignWeek", [], recovery="written_off")
    for _week in (2, 3):
        state, events = run(state, "RollCampaignWeek", [], moon="full")
        assert "grounded" in named(events, "CampaignRolled").explanation
        state, _ = run(state, "EndCampaignWeek", [])
    state, events = run(state, "RollCampaignWeek", [[1, 2]], moon="full")
    assert named(events, "CampaignRolled").flying is False


def test_pilot_campaign_plays_one_scenario_a_week() -> None:
    """Pilot Campaign: 'Only one scenario is played per week': the night-continuation roll
    of the full campaign asks for another scenario, so a pilot campaign neither lists it nor
    accepts it (and it lists no scenario-card draw: the week's rolls draw its card); the
    full campaign lists no pilot week roll."""
    for kind in ("lite", "seasoned"):
        state = _campaign(kind)
        listed = {a.type for a in legal_actions(RULESET, state, Role.PLAYER, ended=False)}
        assert "RollCampaignWeek" in listed and "EndCampaignWeek" in listed
        assert not listed & {"RollNightContinuation", "DrawScenarioCard"}
        with pytest.raises(RuleError, match="one scenario a week") as info:
            run(state, "RollNightContinuation", [], moon="half")
        assert "Pilot Campaign" in info.value.rule
    state = _campaign("full")
    listed = {a.type for a in legal_actions(RULESET, state, Role.PLAYER, ended=False)}
    assert "RollCampaignWeek" not in listed and "RollNightContinuation" in listed


def test_full_campaign_week_has_no_knights_cross_verdict() -> None:
    """The 20-point Knight's Cross victory, the grounding and the retraining belong to the
    Pilot Campaign; the full campaign's week end only moves the week on."""
    state, events = run(_campaign("full"), "EndCampaignWeek", [], points=20,
                        recovery="written_off")  # fmt: skip
    ended = named(events, "CampaignWeekEnded")
    assert (ended.week, ended.result, ended.out_until) == (2, "", 0)
    assert state.campaign.result == ""  # type: ignore[union-attr]
