"""Edge rows and boundaries of the seed's rules (004_c3eb2ad371d7bb6a.txt), worked by hand
with stated dice, as an outside reviewer replays them: each docstring gives the rule, the
dice and the result read from the seed's text (not from the code), and each test checks
what the player is told (the rule cited and the words of the explanation).

Counters are named <bomber>-<n>; the radar W has search value 1; bombers fly south.
"""

from __future__ import annotations

import json

import msgspec
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
from umpire.engine.actions import legal_actions
from umpire.engine.errors import RuleError
from umpire.engine.roles import Role
from umpire.engine.rulesets.nightfighter import RULESET
from umpire.engine.rulesets.nightfighter.state import State
from umpire.engine.rulesets.nightfighter.terms import Phase, Status, Track, Uncertainty


def _search(state: State, hex_label: str, rolls: list[list[int]], radar: str = "W") -> tuple:  # type: ignore[type-arg]
    return run(state, "PlaceRadarSearches", rolls, searches=[{"radar": radar, "hex": hex_label}])


def _by_id(state: State) -> dict[str, object]:
    return {c.id: c for c in state.counters}


# S5.4 -------------------------------------------------------------------------------------


def test_s5_4_a_roll_equal_to_the_counters_in_play_stands() -> None:
    """S5.4: with three others, the die is re-rolled only 'if the score exceeds the total
    number of high uncertainty counters in play' (four): a 4 does not exceed it, so it
    stands at once and shows the tested counter a phantom (real only on 1)."""
    counters = [counter(f"H-{i}", h, "high") for i, h in
                enumerate(["1010", "0410", "1610", "1020"], 1)]  # fmt: skip
    state = make_state(make_setup(), counters, Phase.RADAR_SEARCH)
    state, events = _search(state, "1010", [[4]])
    tested = named(events, "PhantomTested")
    assert (len(tested.dice), tested.value, tested.result) == (1, 4, "phantom")
    assert tested.rule.endswith("S5.4 (three or more others: re-roll above 4)")
    assert "H-1 is a phantom (roll 4 > 1)" in tested.explanation
    assert _by_id(state)["H-1"].status is Status.REMOVED  # type: ignore[attr-defined]


@pytest.mark.parametrize(("roll", "real"), [(6, False), (1, True)])
def test_s5_4_six_counters_never_reroll_and_a_1_removes_all_five_others(
    roll: int, real: bool
) -> None:
    """S5.4: six counters in play (three on the map, three due next turn): a 6 never
    exceeds six, so no die is re-rolled; 6 shows a phantom; 1 shows the real bomber and
    'those other counters are all removed', the three not yet entered included (they
    count as others, S5.4/S7.0)."""
    counters = [counter("H-1", "1010", "high"), counter("H-2", "0410", "high"),
                counter("H-3", "1610", "high")] + [
        counter(f"H-{i}", "", "high", status=Status.PENDING) for i in (4, 5, 6)]  # fmt: skip
    state = make_state(make_setup(), counters, Phase.RADAR_SEARCH)
    state, events = _search(state, "1010", [[roll]])
    tested = named(events, "PhantomTested")
    assert (tested.others, len(tested.dice)) == (5, 1)
    got = _by_id(state)
    if real:
        assert tested.removed == ("H-2", "H-3", "H-4", "H-5", "H-6")
        assert got["H-1"].level is Uncertainty.MODERATE  # type: ignore[attr-defined]
        assert "5 other counters removed" in tested.explanation
    else:
        assert tested.removed == ("H-1",)
        assert all(got[f"H-{i}"].level is Uncertainty.HIGH for i in range(2, 7))  # type: ignore[attr-defined]


def test_s5_4_a_tally_on_a_high_counter_rolls_the_location_then_the_phantom_test() -> None:
    """S5.4: a nightfighter obtaining a tally on a high counter treats it as moderate: the
    tally dice (a 6), the blue/purple location (3/5-6: the counter's own hex, in range of a
    fighter in that hex), then the phantom test with one other counter: a 3 shows it real,
    it is tallied in its hex and the other counter is removed."""
    setup = make_setup(visibility="good")
    assert moderate_hex(setup, "1010", "3/5-6") == "1010"
    counters = [counter("H-1", "1010", "high"), counter("H-2", "0410", "high")]
    state = make_state(setup, counters, Phase.TALLY, ("1010", 3))
    state, events = run(state, "AttemptTally", [[6], [3, 5], [3]], fighter="F1", hex="1010",
                        dice=1)  # fmt: skip
    names = [type(e).__name__ for e in events]
    assert names.index("PhantomTested") > names.index("DiceRolled")
    assert named(events, "PhantomTested").result == "real"
    got = _by_id(state)
    assert got["H-1"].tallied_by == ("F1",) and got["H-1"].level is Uncertainty.NONE  # type: ignore[attr-defined]
    assert got["H-2"].status is Status.REMOVED  # type: ignore[attr-defined]


# S13.0 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("other", "level", "status", "modified"),
    [("1014", "low", Status.ON_MAP, 2), ("1015", "low", Status.ON_MAP, 3),
     ("1014", "none", Status.ON_MAP, 2), ("1014", "low", Status.OFF_MAP, 3)],
)  # fmt: skip
def test_s13_crowding_reaches_exactly_four_hexes(
    other: str, level: str, status: Status, modified: int
) -> None:
    """S13.0: 'deduct an extra one if there is another bomber counter other than a high
    uncertainty counter within four hexes'. A moderate counter in 1010, search value one,
    die 4: a low (or tallied, no-uncertainty) counter four hexes away (1014) crowds it:
    4 - 1 - 1 = 2, no effect; five hexes away (1015), or gone off the map, it does not:
    4 - 1 = 3, narrowed to low (scatter die 4)."""
    counters = [counter("B-1", "1010"), counter("C-1", other, level, status=status)]
    state = make_state(make_setup(), counters, Phase.RADAR_SEARCH)
    narrowed = modified >= 3
    state, events = _search(state, "1010", [[4], [4]] if narrowed else [[4]])
    resolved = named(events, "RadarSearchResolved")
    assert resolved.modified == modified
    assert resolved.rule.endswith("S13.0")
    crowd_words = "- 1 (another bomber within four hexes)"
    assert (crowd_words in resolved.explanation) is (modified == 2)
    assert (_by_id(state)["B-1"].level is Uncertainty.LOW) is narrowed  # type: ignore[attr-defined]


def test_s13_a_track_contact_is_not_kept_by_a_search_value_two_radar() -> None:
    """S13.0/S5.2: a track contact on top stays only while 'a radar with a search value of
    one' searches the bomber each turn; searched by a search value two radar instead, it
    has no effect, and at the end of the phase the marker goes beneath (S5.1): low
    uncertainty, not displaced."""
    setup = make_setup(radars=[{"name": "F", "search_value": 2}])
    state = make_state(setup, [counter("B-1", "1010", "none", track="on_top")],
                       Phase.RADAR_SEARCH)  # fmt: skip
    state, events = _search(state, "1010", [], radar="F")
    assert named(events, "RadarSearchResolved").outcome == "no effect"
    state, events = run(state, "EndPhase", [])
    lost = named(events, "MarkersLost")
    assert lost.rule.endswith("S5.1") and lost.lost == ("track_contact",)
    c = state.counters[0]
    assert (c.hex, c.level, c.track) == ("1010", Uncertainty.LOW, Track.BENEATH)


def test_s7_a_counter_shifted_off_the_map_can_no_longer_be_located() -> None:
    """S7.0: counters 'shifted off it when localised by ground radar may no longer be
    located'. A moderate counter in row 01 flying south, search value one, die 6 (6 - 1 =
    5, narrowed), scatter die 3: directly back one hex (S5.3), off the top edge. It leaves
    the map and no search may be placed on it."""
    state = make_state(make_setup(), [counter("B-1", "1001")], Phase.RADAR_SEARCH)
    state, events = _search(state, "1001", [[6], [3]])
    shifted = named(events, "CounterShifted")
    assert (shifted.to_hex, shifted.cell) == ("", "3")
    assert "off the map" in shifted.explanation
    assert state.counters[0].status is Status.OFF_MAP
    state, _ = run(state, "EndPhase", [])
    listed = {a.type for a in legal_actions(RULESET, state, Role.PLAYER, ended=False)}
    assert "SearchAI" not in listed
    with pytest.raises(RuleError, match="no bomber counter in 1001"):
        run(state, "SearchAI", [], fighter="F1", hex="1001")


@pytest.mark.parametrize(("faces", "localised"), [([2, 5], False), ([6, 1], True)])
def test_s25_gci_keeps_the_higher_die_against_a_low_counter(
    faces: list[int], localised: bool
) -> None:
    """S25.0: unjammed GCI 'roll two dice when searching moderate, low or no uncertainty
    bomber counters, and use the higher roll'; S13.0 against low: -1 with a low counter
    three hexes away, localised on 5+. Dice 2 and 5: 5 - 1 = 4, no effect; 6 and 1:
    6 - 1 = 5, localised (location die 3: its own hex), track contact on top."""
    setup = make_setup(radars=[{"name": "G", "kind": "gci", "search_value": 1}])
    counters = [counter("B-1", "1010", "low"), counter("C-1", "1013", "low")]
    state = make_state(setup, counters, Phase.RADAR_SEARCH)
    rolls = [faces, [3]] if localised else [faces]
    state, events = _search(state, "1010", rolls, radar="G")
    resolved = named(events, "RadarSearchResolved")
    assert (resolved.value, resolved.modified) == (max(faces), max(faces) - 1)
    assert resolved.rule.endswith("S25.0")
    b = state.counters[0]
    assert (b.track is Track.ON_TOP) is localised and b.hex == "1010"


def test_s21_contrails_a_real_high_counter_becomes_low() -> None:
    """S21.0: under contrails 'there is no moderate uncertainty': a high counter shown real
    by the phantom test (one other counter, roll 2) becomes a low uncertainty counter,
    with its track contact beneath."""
    setup = make_setup(contrails=True)
    counters = [counter("H-1", "1010", "high"), counter("H-2", "0410", "high")]
    state = make_state(setup, counters, Phase.RADAR_SEARCH)
    state, events = _search(state, "1010", [[2]])
    tested = named(events, "PhantomTested")
    assert tested.result == "real" and "becomes low uncertainty" in tested.explanation
    c = state.counters[0]
    assert (c.level, c.track) == (Uncertainty.LOW, Track.BENEATH)


# S14.0 ------------------------------------------------------------------------------------

ZONES = [
    {"name": "K", "hexes": ["1114", "1115", "1116", "1015", "1215"]},
    {"name": "M", "hexes": ["1315", "1316"]},
]


def test_s14_a_fix_in_another_zone_that_searched_without_a_fix() -> None:
    """S14.0: a hex outside the searching zone fixes the bomber if it 'is in a different
    active searchlight zone which does not already have a fix'. Zone M has searched this
    phase (C-1 in 1316, four dice, no 6) and holds no fix; zone K then searches B-1
    (moderate, 1115): four dice with a 6, location 6/3 points to 1315 in zone M: the
    bomber is fixed there by zone M."""
    setup = make_setup(zones=ZONES)
    assert moderate_hex(setup, "1115", "6/3-4") == "1315"
    counters = [counter("B-1", "1115"), counter("C-1", "1316")]
    state = make_state(setup, counters, Phase.SEARCHLIGHT)
    state, _ = run(state, "SearchSearchlight", [[1, 2, 3, 4]], zone="M", hex="1316")
    state, events = run(state, "SearchSearchlight", [[6, 1, 1, 1], [6, 3]], zone="K",
                        hex="1115")  # fmt: skip
    loc = named(events, "Localised")
    assert (loc.to_hex, loc.by) == ("1315", "M")
    assert named(events, "SearchlightSearched").also_zone == "M"
    b = _by_id(state)["B-1"]
    assert (b.hex, b.searchlight, b.level) == ("1315", "M", Uncertainty.NONE)  # type: ignore[attr-defined]


def test_s14_a_location_on_another_bomber_counter_is_rerolled() -> None:
    """S14.0: 'If the localisation check identifies a hex which contains another bomber
    counter ... the die or dice must be re-rolled'. B-1 moderate in 1115, C-1 in 1315:
    zone K rolls a 6, location 6/3 (1315, C-1's hex) is re-rolled, then 3/5 (the counter's
    own hex, 1115): fixed by zone K in 1115."""
    setup = make_setup(zones=ZONES)
    counters = [counter("B-1", "1115"), counter("C-1", "1315")]
    state = make_state(setup, counters, Phase.SEARCHLIGHT)
    state, events = run(state, "SearchSearchlight", [[6, 2, 2, 2], [6, 3], [3, 5]], zone="K",
                        hex="1115")  # fmt: skip
    loc = named(events, "Localised")
    assert (loc.to_hex, loc.by, len(loc.dice)) == ("1115", "K", 2)
    assert loc.candidates[0].option == "6/3-4"
    assert "holds another bomber counter C-1 (S7.0)" in loc.candidates[0].reason


def test_s5_5_a_failed_searchlight_location_bars_its_zone_for_the_tally() -> None:
    """S5.5: a searchlight search that succeeds (a 6) but locates the bomber outside the
    search area bars that area for later location rolls that turn. B-1 low in 1010, zone K
    is 1010 alone: the location die 4 (1011) is outside: no fix, 1010 barred. The tally
    from 1010 facing south in good visibility (range 1010 and 1011): a 6, location die 3
    (1010) is re-rolled though it is inside the tally's range, then 4: tallied in 1011."""
    setup = make_setup(zones=[{"name": "K", "hexes": ["1010"]}])
    assert low_hex(setup, "1010", "4") == "1011"
    state = make_state(setup, [counter("B-1", "1010", "low")], Phase.SEARCHLIGHT, ("1010", 3))
    state, events = run(state, "SearchSearchlight", [[6, 1, 1, 1], [4]], zone="K", hex="1010")
    failed = named(events, "LocalisationFailed")
    assert failed.excluded == ("1010",) and failed.rule.endswith("S5.5")
    state, _ = run(state, "EndPhase", [])
    state, events = run(state, "AttemptTally", [[6], [3], [4]], fighter="F1", hex="1010",
                        dice=1)  # fmt: skip
    loc = named(events, "Localised")
    assert loc.to_hex == "1011" and len(loc.dice) == 2
    assert "earlier fruitless search this turn (S5.5)" in loc.candidates[0].reason
    assert state.counters[0].tallied_by == ("F1",)


# S10.0, S15.0, S17.0 ----------------------------------------------------------------------


@pytest.mark.parametrize(("blue", "purple", "tallied"),
                         [(3, 5, True), (3, 6, True), (4, 1, False), (3, 3, False)])  # fmt: skip
def test_s10_moderate_visibility_tallies_only_in_the_fighters_own_hex(
    blue: int, purple: int, tallied: bool
) -> None:
    """S10.0 (its example: in moderate visibility only the nightfighter's own hex is in
    range): a fighter in the hex of a moderate counter rolls a 6, then blue/purple: 3/5-6
    is the counter's own hex, tallied; 4/1-2 (one ahead) and 3/3-4 (one behind) are outside
    the range: the tally fails and the counter stays where it is."""
    setup = make_setup(visibility="moderate")
    state = make_state(setup, [counter("B-1", "1010")], Phase.TALLY, ("1010", 3))
    state, events = run(state, "AttemptTally", [[6], [blue, purple]], fighter="F1",
                        hex="1010", dice=1)  # fmt: skip
    attempted = named(events, "TallyAttempted")
    assert attempted.succeeded is tallied and attempted.rule.endswith("S10.0")
    c = state.counters[0]
    assert c.hex == "1010" and (c.tallied_by == ("F1",)) is tallied


def _two_fighters(**fields: object) -> dict[str, object]:
    return {"fighters": [{"id": "F1", "hex": "1010", "facing": 3},
                         {"id": "F2", "hex": "1013", "facing": 3}], **fields}  # fmt: skip


def test_s15_a_fix_by_another_fighters_ai_does_not_count() -> None:
    """S15.0: the advanced tally is allowed on a counter 'fixed by its own AI radar, or by
    searchlights': C-1 is fixed by F2's AI only, so F1 (after a failed basic attempt) may
    not roll for it, and the listed actions do not offer it."""
    setup = make_setup(visibility="moderate", **_two_fighters())
    counters = [counter("B-1", "1010", "low"), counter("C-1", "1014", "none", ai_fixed_by=("F2",))]
    state = make_state(setup, counters, Phase.TALLY)
    state, _ = run(state, "AttemptTally", [[1]], fighter="F1", hex="1010", dice=1)
    listed = legal_actions(RULESET, state, Role.PLAYER, ended=False)
    # F2 may still try C-1 (lit, adjacent); nothing is offered to F1.
    assert all('"F1"' not in json.dumps(a.schema) for a in listed if a.type == "AttemptTally")
    with pytest.raises(RuleError, match="not fixed by F1's AI radar") as info:
        run(state, "AttemptTally", [[6]], fighter="F1", hex="1014", dice=1, kind="fixed")
    assert info.value.rule.endswith("S15.0")


def test_s17_a_corkscrew_loses_every_fighters_tally() -> None:
    """S17.0: a corkscrewing bomber 'automatically loses all tallies': tallied by F1 and
    F2, it corkscrews against F1 (no follow dice) and F2's tally goes too; low
    uncertainty, not displaced."""
    setup = make_setup(**_two_fighters())
    c = counter("B-1", "1011", "none", tallied_by=("F1", "F2"))
    state = make_state(setup, [c], Phase.COMBAT)
    state, events = run(state, "Corkscrew", [], fighter="F1", hex="1011")
    assert named(events, "Corkscrewed").rule.endswith("S17.0")
    b = state.counters[0]
    assert (b.hex, b.tallied_by, b.level) == ("1011", (), Uncertainty.LOW)


# S13.0 order, S24.0, S5.1, S28.0, SCENARIO 6C/6H ------------------------------------------


def test_s13_a_search_whose_counter_an_earlier_search_removed_says_so() -> None:
    """S13.0/S5.4: searches resolve in the order placed. W on H-1 (1010) and F on H-2
    (0410), the bomber's only two counters: W's phantom test rolls 2 (1-3 with one other):
    H-1 is real and H-2 is removed, so F's search counter has nothing left to search, and
    the player is told so rather than hearing nothing of it."""
    setup = make_setup(radars=[{"name": "W"}, {"name": "F", "search_value": 3}])
    counters = [counter("H-1", "1010", "high"), counter("H-2", "0410", "high")]
    state = make_state(setup, counters, Phase.RADAR_SEARCH)
    both = [{"radar": "W", "hex": "1010"}, {"radar": "F", "hex": "0410"}]
    state, events = run(state, "PlaceRadarSearches", [[2]], searches=both)
    resolved = [e for e in events if type(e).__name__ == "RadarSearchResolved"]
    assert [(r.radar, r.counter, r.outcome) for r in resolved] == [
        ("W", "H-1", "phantom test"), ("F", "H-2", "nothing to search")]  # fmt: skip
    assert "H-2 was removed as a phantom by an earlier search" in resolved[1].explanation
    assert resolved[1].rule.endswith("S13.0")
    assert _by_id(state)["H-1"].level is Uncertainty.MODERATE  # type: ignore[attr-defined]


def test_s24_every_jamming_die_comes_before_any_search_is_resolved() -> None:
    """S24.0: jammed search radars 'roll a die for each counter after they have all been
    placed but before any effects are resolved'. W (light, value one) on B-1 and F (light,
    value three) on C-1: jamming dice 3 and 4 (both stand, removed only on 1-2), then W's
    search 6 (6 - 1 = 5, narrowed; scatter 3), then F's 6 (6 - 3 = 3, narrowed; scatter
    3)."""
    setup = make_setup(radars=[{"name": "W", "jamming": "light"},
                               {"name": "F", "search_value": 3, "jamming": "light"}])  # fmt: skip
    state = make_state(setup, [counter("B-1", "1010"), counter("C-1", "0410")],
                       Phase.RADAR_SEARCH)  # fmt: skip
    both = [{"radar": "W", "hex": "1010"}, {"radar": "F", "hex": "0410"}]
    rolls = [[3], [4], [6], [3], [6], [3]]
    state, events = run(state, "PlaceRadarSearches", rolls, searches=both)
    purposes = [e.purpose for e in events if type(e).__name__ == "DiceRolled"]
    assert [p.split(" ")[0] for p in purposes] == [
        "jamming", "jamming", "W", "shift", "F", "shift"]  # fmt: skip
    assert {c.level for c in state.counters} == {Uncertainty.LOW}


def test_s24_flensburg_localises_outside_its_arc() -> None:
    """S24.0: Flensburg may search only a counter within its fighter's wide arc, 'However,
    localisation attempts succeed even if the counter is shifted outside this arc'. F1 in
    1010 facing south; B-1 (moderate) in 0911 is in the arc; die 6 (6 - 1 = 5, narrowed),
    scatter die 1 shifts it to 0810, outside the arc: it is shifted there, low."""
    setup = make_setup(radars=[{"name": "FL", "kind": "flensburg", "fighter": "F1"}])
    state = make_state(setup, [counter("B-1", "0911")], Phase.RADAR_SEARCH, ("1010", 3))
    state, events = _search(state, "0911", [[6], [1]], radar="FL")
    assert named(events, "RadarSearchResolved").rule.endswith("S24.0")
    b = state.counters[0]
    assert (b.hex, b.level) == ("0810", Uncertainty.LOW)


def test_s5_1_an_untracked_bomber_still_fixed_by_ai_keeps_no_uncertainty() -> None:
    """S5.1: bombers not tracked by a search value one radar revert to low 'unless tallied
    or fixed by searchlights or AI': B-1 has a track contact on top and F1's AI fix, no
    radar searches it: the track contact is lost, the AI fix keeps it at no uncertainty."""
    c = counter("B-1", "1010", "none", track="on_top", ai_fixed_by=("F1",))
    state = make_state(make_setup(), [c], Phase.RADAR_SEARCH, ("1009", 3))
    state, events = run(state, "EndPhase", [])
    assert named(events, "MarkersLost").lost == ("track_contact",)
    b = state.counters[0]
    assert (b.level, b.ai_fixed_by, b.track) == (Uncertainty.NONE, ("F1",), Track.BENEATH)


def test_s28_a_followed_corkscrew_still_loses_the_track_contact() -> None:
    """S28.0: following the corkscrew (rule 28.1, follow dice 6 and 2) keeps 'any tally or
    AI fix ... though searchlight fixes and track contacts are still lost'."""
    setup = make_setup(zones=[{"name": "K", "hexes": ["1010"]}])
    c = counter("B-1", "1010", "none", tallied_by=("F1",), ai_fixed_by=("F1",),
                searchlight="K", track="on_top")  # fmt: skip
    state = make_state(setup, [c], Phase.COMBAT, ("1009", 3))
    state, events = run(state, "Corkscrew", [[6, 2]], fighter="F1", hex="1010", follow_dice=2)
    done = named(events, "Corkscrewed")
    assert done.rule.endswith("S28.0") and set(done.lost) == {"searchlight_fix", "track_contact"}
    b = state.counters[0]
    assert (b.tallied_by, b.ai_fixed_by, b.searchlight) == (("F1",), ("F1",), "")
    assert (b.track, b.level) == (Track.BENEATH, Uncertainty.NONE)


@pytest.mark.parametrize(("turn", "h2s"), [(1, True), (2, False), (3, False), (4, True)])
def test_6h_with_6c_has_h2s_on_waves_1_4_7(turn: int, h2s: bool) -> None:
    """SCENARIO 6H: with variant 6C the H2S bomber comes with 'the 1st, 4th, 7th, 10th, 13th
    and 16th waves'. Two bombers a turn (6C); wave 4: the H2S die (one of two) 1 picks the
    first, then the 6C die 3 leaves column 09/10 empty."""
    bombers = [{"id": f"W{t}{i}", "turn": t} for t in (1, 2, 3, 4) for i in "ab"]
    setup = make_setup(scenario="6C", modifications=["6H"], bombers=bombers)
    state = make_state(setup, [], Phase.BOMBER_MOVEMENT)
    state = msgspec.structs.replace(state, turn=turn)
    state, _ = run(state, "MoveBombers", [[1], [3]] if h2s else [[3]])
    carriers = [c.id for c in state.counters if c.h2s]
    assert carriers == ([f"W{turn}a-1"] if h2s else [])
    assert sorted(c.enter_col for c in state.counters) == ([3, 15] if turn % 2 == 0 else [4, 16])


def test_s13_a_search_never_passes_to_a_counter_shifted_into_its_hex() -> None:
    """S13.0: a search counter searches the bomber counter it was placed on. W on H-1 (1010),
    F on M-1 (moderate, 0409) and G on H-2 (0410): W's phantom roll 2 shows H-1 real and
    removes H-2; F's die 6 narrows M-1 and its scatter die 4 shifts it directly ahead into
    0410, the hex H-2 left; G's counter was placed on H-2, so it searches nothing (it does
    not search M-1 a second time)."""
    setup = make_setup(radars=[{"name": "W"}, {"name": "F"}, {"name": "G"}])
    counters = [counter("H-1", "1010", "high"), counter("H-2", "0410", "high"),
                counter("M-1", "0409")]  # fmt: skip
    state = make_state(setup, counters, Phase.RADAR_SEARCH)
    searches = [{"radar": "W", "hex": "1010"}, {"radar": "F", "hex": "0409"},
                {"radar": "G", "hex": "0410"}]  # fmt: skip
    state, events = run(state, "PlaceRadarSearches", [[2], [6], [4]], searches=searches)
    resolved = [(e.radar, e.outcome) for e in events if type(e).__name__ == "RadarSearchResolved"]
    assert resolved == [("W", "phantom test"), ("F", "refined"), ("G", "nothing to search")]
    m = _by_id(state)["M-1"]
    assert (m.hex, m.level) == ("0410", Uncertainty.LOW)  # type: ignore[attr-defined]


def test_s10_a_fighter_maintaining_a_tally_may_not_roll_another() -> None:
    """S10.0: 'each nightfighter that is not already maintaining a tally may roll': F1
    holds a tally on B-1; a tally roll on C-1 in its own hex is refused citing S10.0,
    writing nothing, and no tally is listed for F1."""
    setup = make_setup(visibility="moderate")
    counters = [counter("B-1", "1011", "none", tallied_by=("F1",)), counter("C-1", "1010", "low")]
    state = make_state(setup, counters, Phase.TALLY, ("1010", 3))
    with pytest.raises(RuleError, match="F1 is already maintaining a tally") as info:
        run(state, "AttemptTally", [[6]], fighter="F1", hex="1010", dice=3)
    assert info.value.rule.endswith("S10.0")
    listed = {a.type for a in legal_actions(RULESET, state, Role.PLAYER, ended=False)}
    assert "AttemptTally" not in listed


def test_s8_two_bombers_due_enter_as_moderate_counters_in_the_first_two_columns() -> None:
    """README ledger S8.0 (the seed covers one and three bombers due): two bombers due on
    turn 1 without 6C are one moderate counter each, in columns 04 and 10, with their full
    MPs (row 03), and nothing follows on turn 2."""
    setup = make_setup(bombers=[{"id": "A", "turn": 1}, {"id": "B", "turn": 1}])
    state = make_state(setup, [], Phase.BOMBER_MOVEMENT)
    state, events = run(state, "MoveBombers", [])
    due = [e for e in events if type(e).__name__ == "CountersDue"]
    assert [(d.bomber, d.level, [n.enter_col for n in d.counters]) for d in due] == [
        ("A", "moderate", [4]), ("B", "moderate", [10])]  # fmt: skip
    assert sorted(c.hex for c in state.counters) == ["0403", "1003"]


def test_s15_without_a_basic_attempt_there_is_no_advanced_one() -> None:
    """README ledger S15.0: the advanced tally follows a failed basic attempt ('fails to gain
    a tally (for whatever reason) using its basic tally attempt'); F1 in moderate visibility
    has nothing within its range (its own hex), only C-1 fixed by its AI two hexes ahead:
    no basic attempt, so the advanced one is refused citing S15.0 and not listed."""
    setup = make_setup(visibility="moderate")
    fixed = counter("C-1", "1012", "none", ai_fixed_by=("F1",))
    state = make_state(setup, [fixed], Phase.TALLY, ("1010", 3))
    listed = {a.type for a in legal_actions(RULESET, state, Role.PLAYER, ended=False)}
    assert "AttemptTally" not in listed
    with pytest.raises(RuleError, match="follows only a failed basic tally attempt") as info:
        run(state, "AttemptTally", [[6]], fighter="F1", hex="1012", dice=3, kind="fixed")
    assert info.value.rule.endswith("S15.0")


def test_s5_4_the_last_counter_not_yet_entered_becomes_moderate_and_enters_so() -> None:
    """S5.4 (README ledger, "S5.4 counting"): H-1 on the map and H-2 due next turn; the
    radar's phantom test of H-1 rolls 4 (one other: real only on 1-3): H-1 is removed and
    the one remaining counter becomes moderate although it has yet to enter; on turn 2 it
    enters in its column (09 on even turns) as a moderate counter with its full MPs."""
    due = counter("H-2", "", "high", status=Status.PENDING, enter_turn=2, enter_col=9)
    counters = [counter("H-1", "1010", "high"), due]
    state = make_state(make_setup(), counters, Phase.RADAR_SEARCH)
    state, events = _search(state, "1010", [[4]])
    assert named(events, "PhantomTested").now_moderate == ("H-2",)
    for _ in range(5):
        state, _ = run(state, "EndPhase", [])
    assert (state.turn, state.phase) == (2, Phase.BOMBER_MOVEMENT)
    state, _ = run(state, "MoveBombers", [])
    h2 = _by_id(state)["H-2"]
    assert (h2.status, h2.level, h2.hex) == (Status.ON_MAP, Uncertainty.MODERATE, "0903")  # type: ignore[attr-defined]
