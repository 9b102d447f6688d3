"""S14.0 SEARCHLIGHTS: the worked example, zone rules and the hand-off."""

from __future__ import annotations

import pytest

from tests.rulesets.nightfighter.setups import counter, make_setup, make_state, named, run
from umpire.engine.actions import legal_actions
from umpire.engine.errors import ManualDiceError, RuleError
from umpire.engine.roles import Role
from umpire.engine.rulesets.nightfighter import RULESET
from umpire.engine.rulesets.nightfighter.terms import Phase, Status, Uncertainty

ZONES = [
    {"name": "K", "hexes": ["1114", "1115", "1116", "1015", "1215"]},
    {"name": "M", "hexes": ["1315", "1316"]},
]


def _after_failed_ai():  # type: ignore[no-untyped-def]
    """S14.0 example: high counter in 1115, AI search of 1114, 1115, 1116 fails."""
    setup = make_setup(zones=ZONES)
    counters = [counter("B-1", "1115", "high"), counter("B-2", "0405", "high")]
    state = make_state(setup, counters, Phase.AI_RADAR, ("1116", 0))
    state, events = run(state, "SearchAI", [[1, 1]], fighter="F1", hex="1115")
    assert named(events, "LocalisationFailed").search_area == ("1114", "1115", "1116")
    state, _ = run(state, "EndPhase", [])
    return state


def test_s14_example_reroll_then_fix_in_another_zone() -> None:
    """S14.0: real (phantom test), four dice with a 6, 3/4 re-rolled (1114 searched by
    AI), 6/3 moves the counter to 1315 in zone M and fixes it there."""
    state = _after_failed_ai()
    state, events = run(
        state, "SearchSearchlight", [[2], [6, 1, 1, 1], [3, 4], [6, 3]], zone="K", hex="1115"
    )
    assert named(events, "PhantomTested").result == "real"
    loc = named(events, "Localised")
    assert (loc.to_hex, loc.by, len(loc.dice)) == ("1315", "M", 2)
    assert named(events, "SearchlightSearched").also_zone == "M"
    with pytest.raises(RuleError, match="already"):
        run(state, "SearchSearchlight", [[6]], zone="M", hex="1315")


def test_s14_example_outside_all_zones_no_fix() -> None:
    """S14.0: a re-roll of 5 and 1 (1214) is outside all active zones: no fix."""
    state = _after_failed_ai()
    state, events = run(
        state, "SearchSearchlight", [[2], [6, 1, 1, 1], [5, 1]], zone="K", hex="1115"
    )
    assert named(events, "LocationRolled").rolled_hex == "1214"
    c = state.counters[0]
    assert (c.hex, c.level, c.searchlight) == ("1115", Uncertainty.MODERATE, "")


def test_s14_high_counter_phantom_removed_first() -> None:
    """S14.0: searchlights on a high counter test it as a phantom first (S5.4)."""
    state = _after_failed_ai()
    state, events = run(state, "SearchSearchlight", [[5]], zone="K", hex="1115")
    assert named(events, "PhantomTested").result == "phantom"
    assert state.counters[0].status is Status.REMOVED
    assert state.counters[1].level is Uncertainty.MODERATE  # the last counter (S5.4)


def test_s14_one_search_per_zone_and_counter_in_zone() -> None:
    """S14.0: one selected counter in each active zone; the counter must be in the zone."""
    setup = make_setup(zones=[*ZONES, {"name": "X", "hexes": ["0101"], "active": False}])
    counters = [counter("B-1", "1115"), counter("C-1", "1015"), counter("D-1", "0505")]
    state = make_state(setup, counters, Phase.SEARCHLIGHT)
    with pytest.raises(RuleError, match="inside it"):
        run(state, "SearchSearchlight", [], zone="K", hex="0505")
    with pytest.raises(RuleError, match="not an active"):
        run(state, "SearchSearchlight", [], zone="X", hex="0505")
    state, _ = run(state, "SearchSearchlight", [[1, 2, 3, 4]], zone="K", hex="1115")
    with pytest.raises(RuleError, match="already searched") as info:
        run(state, "SearchSearchlight", [[1, 2, 3, 4]], zone="K", hex="1015")
    assert "S14.0" in info.value.rule


def test_s21_high_altitude_searchlights_only_test_phantoms() -> None:
    """S21.0: at high altitude searchlights force the phantom test but give no fix."""
    setup = make_setup(zones=ZONES, high_altitude=True)
    counters = [counter("B-1", "1115", "high"), counter("B-2", "0405", "high")]
    state = make_state(setup, counters, Phase.SEARCHLIGHT)
    state, events = run(state, "SearchSearchlight", [[1]], zone="K", hex="1115")
    assert named(events, "PhantomTested").result == "real"
    assert "high altitude" in named(events, "SearchlightSearched").outcome
    assert state.counters[0].searchlight == ""


@pytest.mark.parametrize(("faces", "kept"), [([6, 1, 1, 1], True), ([1, 2, 3, 4], False)])
def test_s14_handoff_between_zones(faces: list[int], kept: bool) -> None:
    """Base-game hand-off (example of play turns 8 and 10): a fixed bomber entering another
    zone keeps its fix on a 6 among that zone's dice; otherwise it reverts to low."""
    setup = make_setup(zones=[{"name": "K", "hexes": ["1010"]}, {"name": "N", "hexes": ["1013"]}])
    fixed = counter("B-1", "1010", "none", searchlight="K")
    state = make_state(setup, [fixed], Phase.BOMBER_MOVEMENT)
    state, _events = run(state, "MoveBombers", [faces])
    c = state.counters[0]
    assert c.hex == "1013"
    assert c.searchlight == ("N" if kept else "")
    assert c.level is (Uncertainty.NONE if kept else Uncertainty.LOW)


def test_s14_handoff_dice_cut_by_the_base_game() -> None:
    """The example of play cuts a zone's search to two dice "as per rule 28.3 because of
    the confusing proximity of your own aircraft" (turn 10); the hand-off (turns 8, 10)
    rolls the receiving zone's dice, so a MoveBombers may cut them the same way: with
    handoff_dice 2 the fixed bomber entering zone N (4 dice) rolls two, [1, 6], and keeps
    its fix. Without the parameter the same two faces are refused (zone N rolls four)."""
    setup = make_setup(zones=[{"name": "K", "hexes": ["1010"]}, {"name": "N", "hexes": ["1013"]}])
    fixed = counter("B-1", "1010", "none", searchlight="K")
    state = make_state(setup, [fixed], Phase.BOMBER_MOVEMENT)
    moved, events = run(state, "MoveBombers", [[1, 6]], handoff_dice=2)
    assert moved.counters[0].searchlight == "N"
    roll = named(events, "DiceRolled")
    assert roll.faces == (1, 6) and "2 dice as entered, not the zone's 4" in roll.purpose
    with pytest.raises(ManualDiceError, match="that roll takes 4 dice"):
        run(state, "MoveBombers", [[1, 6]])
    unfixed = make_state(setup, [counter("B-1", "1010", "moderate")], Phase.BOMBER_MOVEMENT)
    with pytest.raises(RuleError, match="no bomber counter holds a searchlight fix"):
        run(unfixed, "MoveBombers", [], handoff_dice=2)


def test_s14_a_zone_whose_counter_was_a_phantom_may_not_search_again() -> None:
    """README ledger S14.0: the phantom test is the zone's search for the phase ("first
    dice to see if the counter is a phantom. If it is real, roll four dice"): when the
    counter is removed as a phantom the zone has searched and may not pick another."""
    state = _after_failed_ai()
    state, _ = run(state, "SearchSearchlight", [[5]], zone="K", hex="1115")
    with pytest.raises(RuleError, match="already searched"):
        run(state, "SearchSearchlight", [[1, 2, 3, 4]], zone="K", hex=state.counters[1].hex)


def test_s14_a_zone_obscured_by_cloud_or_holding_a_fix_does_not_search() -> None:
    """S14.0: "dice ... for any one selected bomber counter in each active searchlight zone
    which is not obscured by cloud and does not already have a fixed target". Zone K
    clouded: its search is refused (nothing written) and not listed. Zone K clear but
    holding a fix on B-1 in 1114: a search of C-1 in 1115 is refused too."""
    clouded = make_setup(zones=[{**ZONES[0], "cloud": True}, ZONES[1]])
    state = make_state(clouded, [counter("C-1", "1115")], Phase.SEARCHLIGHT)
    with pytest.raises(RuleError, match="zone K is obscured by cloud"):
        run(state, "SearchSearchlight", [[6, 6, 6, 6]], zone="K", hex="1115")
    listed = legal_actions(RULESET, state, Role.PLAYER, ended=False)
    assert "SearchSearchlight" not in [a.type for a in listed]
    fixed = counter("B-1", "1114", "none", searchlight="K")
    state = make_state(make_setup(zones=ZONES), [fixed, counter("C-1", "1115")], Phase.SEARCHLIGHT)
    with pytest.raises(RuleError, match="zone K already has a fixed target"):
        run(state, "SearchSearchlight", [[6, 6, 6, 6]], zone="K", hex="1115")


def test_s14_a_location_in_another_zone_that_already_has_a_fix_fixes_nothing() -> None:
    """S14.0: a location outside the searching zone fixes the bomber only "if the hex is
    in a different active searchlight zone which does not already have a fix". Zone K
    searches C-1 (moderate, 1115): four dice [6, 1, 1, 1], location 6/3 = 1315 (the
    S14.0 example's hex) in zone M, which holds a fix on B-1 in 1316: no fix, C-1 stays
    in 1115, and zone M keeps its own fix."""
    fixed = counter("B-1", "1316", "none", searchlight="M")
    state = make_state(make_setup(zones=ZONES), [fixed, counter("C-1", "1115")], Phase.SEARCHLIGHT)
    state, events = run(state, "SearchSearchlight", [[6, 1, 1, 1], [6, 3]], zone="K", hex="1115")
    assert named(events, "LocationRolled").rolled_hex == "1315"
    assert "Localised" not in [type(e).__name__ for e in events]
    c = state.counters[1]
    assert (c.hex, c.level, c.searchlight) == ("1115", Uncertainty.MODERATE, "")
    assert state.counters[0].searchlight == "M"
