"""S3.0 tally range, S10.0 basic tallying and S15.0 advanced tallying."""

from __future__ import annotations

import pytest

from tests.rulesets.nightfighter.setups import (
    counter,
    low_hex,
    make_setup,
    make_state,
    named,
    run,
)
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.nightfighter.geometry import tally_range
from umpire.engine.rulesets.nightfighter.terms import Phase


def test_s30_good_visibility_range_is_own_hex_and_the_one_in_front() -> None:
    """S3.0: in good visibility, the range of 1 extends only into the own hex and the single
    hex directly in front, except in illuminated cloud (all six adjacent)."""
    setup = make_setup(visibility="good")
    state = make_state(setup, [], Phase.TALLY, ("1010", 3))
    fighter = state.fighters[0]
    assert tally_range(setup, fighter, illuminated=False) == ("1010", "1011")
    assert len(tally_range(setup, fighter, illuminated=True)) == 7
    moderate = make_setup(visibility="moderate")
    assert tally_range(moderate, fighter, illuminated=False) == ("1010",)


@pytest.mark.parametrize("roll", [1, 2, 3, 4, 5, 6])
def test_s10_example_me110_behind_and_left(roll: int) -> None:
    """S10.0: an Me110C-4 behind and to the left of a low counter in moderate visibility
    rolls four dice; with a 6, a location roll of 5 tallies it in the fighter's hex."""
    setup = make_setup(visibility="moderate")
    here = low_hex(setup, "1010", "5")
    state = make_state(setup, [counter("B-1", "1010", "low")], Phase.TALLY, (here, 3))
    state, events = run(
        state, "AttemptTally", [[2, 6, 1, 3], [roll]], fighter="F1", hex="1010", dice=4
    )
    assert named(events, "TallyAttempted").succeeded is (roll == 5)
    if roll == 5:
        assert state.counters[0].hex == here


def test_s10_no_six_means_no_location_roll() -> None:
    """S10.0: only a 6 on the tally dice leads to the location test."""
    setup = make_setup(visibility="moderate")
    state = make_state(setup, [counter("B-1", "1010", "low")], Phase.TALLY, ("1010", 3))
    _, events = run(state, "AttemptTally", [[1, 2, 3, 4]], fighter="F1", hex="1010", dice=4)
    assert not any(type(e).__name__ == "LocalisationFailed" for e in events)


def test_s10_one_counter_per_fighter_and_range_checked() -> None:
    """S10.0: each fighter tries one counter a turn, whose area is partly in range."""
    setup = make_setup(visibility="good")
    state = make_state(
        setup, [counter("B-1", "1010", "low"), counter("C-1", "1510", "low")], Phase.TALLY,
        ("1010", 3),
    )  # fmt: skip
    with pytest.raises(RuleError, match="visibility range") as info:
        run(state, "AttemptTally", [], fighter="F1", hex="1510", dice=3)
    assert "S3.0" in info.value.rule
    state, _ = run(state, "AttemptTally", [[1, 1, 1]], fighter="F1", hex="1010", dice=3)
    with pytest.raises(RuleError, match="already tried") as info:
        run(state, "AttemptTally", [[6]], fighter="F1", hex="1010", dice=3)
    assert "S10.0" in info.value.rule


def test_s15_example_fixed_tally_after_a_failed_basic_attempt() -> None:
    """S15.0: a basic tally (a 6) on a low counter in the same hex, location not a 3: the
    fighter may try another counter three hexes away fixed by searchlights."""
    setup = make_setup(visibility="moderate", zones=[{"name": "K", "hexes": ["1013"]}])
    fixed = counter("C-1", "1013", "none", searchlight="K")
    state = make_state(setup, [counter("B-1", "1010", "low"), fixed], Phase.TALLY, ("1010", 3))
    with pytest.raises(RuleError, match="follows only a failed basic"):
        run(state, "AttemptTally", [[6]], fighter="F1", hex="1013", dice=3, kind="fixed")
    state, events = run(state, "AttemptTally", [[6], [4]], fighter="F1", hex="1010", dice=1)
    assert named(events, "TallyAttempted").succeeded is False
    state, events = run(state, "AttemptTally", [[1, 6, 2]], fighter="F1", hex="1013", dice=3,
                        kind="fixed")  # fmt: skip
    assert named(events, "TallyAttempted").succeeded is True
    assert state.counters[1].tallied_by == ("F1",)


def test_s15_needs_a_fix_by_own_ai_or_searchlights() -> None:
    """S15.0: the counter must be fixed by the fighter's own AI radar or by searchlights."""
    setup = make_setup(visibility="moderate")
    state = make_state(
        setup, [counter("B-1", "1010", "low"), counter("C-1", "1013", "low")], Phase.TALLY,
        ("1010", 3),
    )  # fmt: skip
    state, _ = run(state, "AttemptTally", [[1]], fighter="F1", hex="1010", dice=1)
    with pytest.raises(RuleError, match="not fixed") as info:
        run(state, "AttemptTally", [[6]], fighter="F1", hex="1013", dice=1, kind="fixed")
    assert "S15.0" in info.value.rule
