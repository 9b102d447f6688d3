"""S5.0 FOG OF WAR: the worked examples of S5.2-S5.5 with the dice they state."""

from __future__ import annotations

import pytest

from tests.rulesets.nightfighter.setups import (
    counter,
    low_hex,
    make_setup,
    make_state,
    moderate_hex,
    named,
    run,
)
from umpire.engine.rulesets.nightfighter.terms import Phase, Status, Uncertainty


@pytest.mark.parametrize("roll", [1, 2, 3, 4, 5, 6])
def test_s52_example_tally_from_hex_1(roll: int) -> None:
    """S5.2: fighter in hex 1, bomber's heading, good visibility: 1 -> hex 1, 2 -> hex 2,
    3 or more fails."""
    setup = make_setup(visibility="good")
    hex1 = low_hex(setup, "1010", "1")
    state = make_state(setup, [counter("B-1", "1010", "low")], Phase.TALLY, (hex1, 3))
    state, events = run(state, "AttemptTally", [[6], [roll]], fighter="F1", hex="1010", dice=1)
    tallied = named(events, "TallyAttempted").succeeded
    assert tallied is (roll <= 2)
    if tallied:
        c = state.counters[0]
        assert c.hex == low_hex(setup, "1010", str(roll)) and c.tallied_by == ("F1",)
        assert c.level is Uncertainty.NONE
    else:
        assert state.counters[0].hex == "1010"  # S5.2: it remains in place


@pytest.mark.parametrize("blue", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("purple", [1, 2, 3, 4, 5, 6])
def test_s53_example_mosquito_narrow_arc_range_4(blue: int, purple: int) -> None:
    """S5.3: a Mosquito NF.XIII (range 4, narrow arc) just above 2/1-2 with the bomber's
    heading fixes the target if blue is 2, or 3 with purple 1 or 2."""
    setup = make_setup(fighters=[{"id": "F1", "hex": "0101", "ai_range": 4, "ai_arc": "narrow"}])
    above = moderate_hex(setup, "1010", "2/1-2")
    above = f"{int(above[:2]):02d}{int(above[2:]) - 1:02d}"
    state = make_state(setup, [counter("B-1", "1010")], Phase.AI_RADAR, (above, 3))
    _, events = run(state, "SearchAI", [[blue, purple]], fighter="F1", hex="1010")
    found = any(type(e).__name__ == "Localised" for e in events)
    assert found is (blue == 2 or (blue == 3 and purple <= 2))


def test_s53_example_ground_radar_shift_on_a_1() -> None:
    """S5.3: narrowed by ground radar, a roll of 1 shifts the counter to 2/3-4, low."""
    setup = make_setup()
    state = make_state(setup, [counter("B-1", "1010")], Phase.RADAR_SEARCH)
    state, events = run(
        state, "PlaceRadarSearches", [[6], [1]], searches=[{"radar": "W", "hex": "1010"}]
    )
    c = state.counters[0]
    assert c.hex == moderate_hex(setup, "1010", "2/3-4") and c.level is Uncertainty.LOW
    assert named(events, "CounterShifted").cell == "1"


def _four_counters(setup):  # type: ignore[no-untyped-def]
    return [
        counter("B-1", "1010", "high"),
        counter("B-2", "0410", "high"),
        counter("B-3", "1610", "high"),
        counter("B-4", "0404", "high"),
    ]


@pytest.mark.parametrize(("reroll", "real"), [(1, True), (2, False), (3, False), (4, False)])
def test_s54_example_ju88_wide_arc(reroll: int, real: bool) -> None:
    """S5.4: a Ju88G-1 (range 3, wide arc) directly behind one of four counters; location
    3/2 is in arc at three hexes; the die 5 is re-rolled; 1 fixes the bomber in 3/1-2 and
    removes the other three, 2-4 remove the counter as a phantom."""
    setup = make_setup(fighters=[{"id": "F1", "hex": "0101", "ai_range": 3, "ai_arc": "wide"}])
    state = make_state(setup, _four_counters(setup), Phase.AI_RADAR, ("1009", 3))
    state, events = run(state, "SearchAI", [[3, 2], [5], [reroll]], fighter="F1", hex="1010")
    test = named(events, "PhantomTested")
    assert len(test.dice) == 2 and test.value == reroll
    by_id = {c.id: c for c in state.counters}
    if real:
        assert by_id["B-1"].hex == moderate_hex(setup, "1010", "3/1-2")
        assert by_id["B-1"].ai_fixed_by == ("F1",)
        assert all(by_id[i].status is Status.REMOVED for i in ("B-2", "B-3", "B-4"))
    else:
        assert by_id["B-1"].status is Status.REMOVED
        assert all(by_id[i].status is Status.ON_MAP for i in ("B-2", "B-3", "B-4"))


@pytest.mark.parametrize(
    ("rolls", "tallied_in"),
    [([[6], [3], [4], [1]], "1"), ([[6], [5]], "5"), ([[6], [4], [2]], ""), ([[6], [6]], "")],
)
def test_s55_example_exclusions_after_a_failed_ai_search(
    rolls: list[list[int]], tallied_in: str
) -> None:
    """S5.5: after a fruitless narrow-arc AI search from directly behind a low counter, a
    tally in illuminated cloud re-rolls 3 and 4; 1 or 5 tallies in that hex; 2 or 6 fails
    and bars hexes 1 and 5 too."""
    setup = make_setup()
    behind = "1009"
    state = make_state(setup, [counter("B-1", "1010", "low")], Phase.AI_RADAR, (behind, 3))
    state, events = run(state, "SearchAI", [[2]], fighter="F1", hex="1010")
    assert named(events, "LocalisationFailed")
    state, _ = run(state, "EndPhase", [])
    state, _ = run(state, "EndPhase", [])
    assert state.phase is Phase.TALLY
    state, events = run(
        state, "AttemptTally", rolls, fighter="F1", hex="1010", dice=1, illuminated=True
    )
    c = state.counters[0]
    if tallied_in:
        assert c.hex == low_hex(setup, "1010", tallied_in) and c.tallied_by == ("F1",)
    else:
        assert c.tallied_by == ()
        barred = state.excluded["B"]
        for label in ("1", "3", "4", "5"):
            assert low_hex(setup, "1010", label) in barred


def test_s55_exclusions_are_not_carried_to_the_next_turn() -> None:
    """S5.5: failed location attempts are not tracked from turn to turn."""
    setup = make_setup()
    state = make_state(setup, [counter("B-1", "1010", "low")], Phase.AI_RADAR, ("1009", 3))
    state, _ = run(state, "SearchAI", [[2]], fighter="F1", hex="1010")
    assert state.excluded
    for _ in range(4):
        state, _ = run(state, "EndPhase", [])
    assert state.turn == 2 and state.excluded == {}


def test_s51_no_uncertainty_reverts_to_low_when_markers_are_lost() -> None:
    """S5.1/S16.0: a track contact on top not kept by a search value one radar is placed
    beneath: low uncertainty, the counter not displaced."""
    setup = make_setup()
    c = counter("B-1", "1010", "none", track="on_top")
    state = make_state(setup, [c], Phase.RADAR_SEARCH)
    state, events = run(state, "EndPhase", [])
    lost = named(events, "MarkersLost")
    assert lost.lost == ("track_contact",)
    c = state.counters[0]
    assert (c.hex, c.level, c.track) == ("1010", Uncertainty.LOW, "beneath")
