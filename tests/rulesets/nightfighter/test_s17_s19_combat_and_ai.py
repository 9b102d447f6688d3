"""S16.0 reversion, S17.0 advanced combat (S28.0 follow) and S19.0 AI radar."""

from __future__ import annotations

import pytest

from tests.rulesets.nightfighter.setups import counter, make_setup, make_state, named, run
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.nightfighter.terms import Phase, Uncertainty


def _tallied(**extra):  # type: ignore[no-untyped-def]
    setup = make_setup(zones=[{"name": "K", "hexes": ["1010"]}])
    c = counter("B-1", "1010", "none", tallied_by=("F1",), ai_fixed_by=("F1",),
                searchlight="K", **extra)  # fmt: skip
    return make_state(setup, [c], Phase.COMBAT, ("1010", 3))


def test_s17_response_only_when_tallied() -> None:
    """S17.0: bombers roll for response only if the nightfighter has tallied them."""
    setup = make_setup()
    state = make_state(setup, [counter("B-1", "1010", "none", ai_fixed_by=("F1",))],
                       Phase.COMBAT, ("1010", 3))  # fmt: skip
    with pytest.raises(RuleError, match="only if the nightfighter has tallied") as info:
        run(state, "RollBomberResponse", [[3]], fighter="F1", hex="1010")
    assert "S17.0" in info.value.rule
    _, events = run(_tallied(), "RollBomberResponse", [[3]], fighter="F1", hex="1010")
    assert named(events, "BomberResponseRolled").value == 3


def test_s17_corkscrew_loses_everything_reverts_low_not_displaced() -> None:
    """S17.0: all tallies, track contacts and fixes lost, low uncertainty, firepower 0."""
    state, events = run(_tallied(track="on_top"), "Corkscrew", [], fighter="F1", hex="1010")
    c = state.counters[0]
    assert (c.hex, c.level, c.tallied_by, c.ai_fixed_by, c.searchlight) == (
        "1010",
        Uncertainty.LOW,
        (),
        (),
        "",
    )
    assert c.corkscrewed and c.track == "beneath"
    assert set(named(events, "Corkscrewed").lost) == {
        "searchlight_fix", "track_contact", "tally", "ai_fix"}  # fmt: skip


@pytest.mark.parametrize(("faces", "followed"), [([6, 1], True), ([5, 1], False)])
def test_s28_follow_the_corkscrew_keeps_tally_and_ai_fix(faces: list[int], followed: bool) -> None:
    """S28.0: following (rule 28.1) keeps the tally and AI fix; searchlight fixes and
    track contacts are still lost; neither aircraft displaced."""
    state, _ = run(_tallied(), "Corkscrew", [faces], fighter="F1", hex="1010", follow_dice=2)
    c = state.counters[0]
    assert c.searchlight == "" and c.hex == "1010"
    assert (c.tallied_by == ("F1",)) is followed
    assert c.level is (Uncertainty.NONE if followed else Uncertainty.LOW)


def test_s19_one_search_per_fighter_per_phase_and_area_in_arc() -> None:
    """S19.0: one counter per nightfighter per phase, whose area lies partly in range/arc."""
    setup = make_setup()
    counters = [counter("B-1", "1010", "low"), counter("C-1", "0502", "low")]
    state = make_state(setup, counters, Phase.AI_RADAR, ("1011", 0))
    with pytest.raises(RuleError, match="lies nowhere within") as info:
        run(state, "SearchAI", [], fighter="F1", hex="0502")
    assert "S19.0" in info.value.rule
    state, _ = run(state, "SearchAI", [[1]], fighter="F1", hex="1010")
    with pytest.raises(RuleError, match="already made its AI search") as info:
        run(state, "SearchAI", [[3]], fighter="F1", hex="1010")
    assert "S19.0" in info.value.rule


@pytest.mark.parametrize(("faces", "located"), [([6, 2], True), ([1, 2], False)])
def test_s24_jammed_ai_needs_a_six_and_bars_nothing_without_one(
    faces: list[int], located: bool
) -> None:
    """S24.0: a jammed AI radar dices for its fix (any 6); without one no location roll is
    made and the hexes are not barred (scenario 4G sets its fighters lightly jammed)."""
    setup = make_setup(fighters=[{"id": "F1", "hex": "0101", "ai_jamming": "light"}])
    state = make_state(setup, [counter("B-1", "1010", "low")], Phase.AI_RADAR, ("1011", 0))
    rolls = [faces, [3]] if located else [faces]
    state, _events = run(state, "SearchAI", rolls, fighter="F1", hex="1010", dice=2)
    assert (state.counters[0].ai_fixed_by == ("F1",)) is located
    assert state.excluded == {}


def test_s21_contrails_high_counters_use_the_low_area() -> None:
    """S21.0: under contrails there is no moderate uncertainty; high counters are low."""
    setup = make_setup(contrails=True)
    counters = [counter("B-1", "1010", "high"), counter("B-2", "0404", "high")]
    state = make_state(setup, counters, Phase.AI_RADAR, ("1011", 0))
    state, events = run(state, "SearchAI", [[3], [1]], fighter="F1", hex="1010")
    assert named(events, "PhantomTested").now_level == "low"
    assert state.counters[0].ai_fixed_by == ("F1",)
