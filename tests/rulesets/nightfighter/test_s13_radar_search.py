"""S13.0 RADAR SEARCH, with S24.0 jamming, Flensburg and Naxos and S25.0 GCI and MEW."""

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
from umpire.engine.rulesets.nightfighter.terms import Phase, Status, Track, Uncertainty


def _search(state, hex_label, rolls, radar="W"):  # type: ignore[no-untyped-def]
    return run(state, "PlaceRadarSearches", rolls, searches=[{"radar": radar, "hex": hex_label}])


def test_placement_only_on_counters_one_per_hex_all_at_once() -> None:
    """S13.0: search counters only in hexes with bomber counters, one per hex, all placed
    before any is resolved."""
    setup = make_setup(radars=[{"name": "W"}, {"name": "F", "search_value": 3}])
    state = make_state(setup, [counter("B-1", "1010")], Phase.RADAR_SEARCH)
    with pytest.raises(RuleError, match="only in hexes containing bomber counters") as info:
        _search(state, "0505", [])
    assert "S13.0" in info.value.rule
    with pytest.raises(RuleError, match="one radar search counter is allowed per hex"):
        run(state, "PlaceRadarSearches", [],
            searches=[{"radar": "W", "hex": "1010"}, {"radar": "F", "hex": "1010"}])  # fmt: skip
    state, _ = _search(state, "1010", [[1]])
    with pytest.raises(RuleError, match="placed at once"):
        _search(state, "1010", [[1]])


@pytest.mark.parametrize(
    ("roll", "sv", "crowded", "narrowed"),
    [(4, 1, False, True), (3, 1, False, False), (5, 1, True, True), (4, 1, True, False),
     (6, 3, False, True), (5, 3, False, False), (6, 2, True, True)],
)  # fmt: skip
def test_moderate_roll_minus_search_value_and_crowding(
    roll: int, sv: int, crowded: bool, narrowed: bool
) -> None:
    """S13.0: die - search value - 1 if another non-high counter is within four hexes;
    3+ shifts the counter to a random adjacent hex at low uncertainty."""
    setup = make_setup(radars=[{"name": "W", "search_value": sv}])
    counters = [counter("B-1", "1010"), counter("H-1", "1209", "high")]
    if crowded:
        counters.append(counter("C-1", "1014", "low"))
    state = make_state(setup, counters, Phase.RADAR_SEARCH)
    rolls = [[roll], [4]] if narrowed else [[roll]]
    state, events = _search(state, "1010", rolls)
    r = named(events, "RadarSearchResolved")
    assert r.modified == roll - sv - int(crowded)
    b = state.counters[0]
    assert (b.level is Uncertainty.LOW) is narrowed
    if narrowed:
        assert b.hex == low_hex(setup, "1010", "4") and b.track is Track.BENEATH


def test_scatter_reroll_into_an_occupied_hex() -> None:
    """S7.0: a counter may never be shifted into a hex holding another bomber counter."""
    setup = make_setup()
    blocker = low_hex(setup, "1010", "4")
    state = make_state(
        setup, [counter("B-1", "1010"), counter("C-1", blocker, "high")], Phase.RADAR_SEARCH
    )
    state, events = _search(state, "1010", [[6], [4], [5]])
    assert state.counters[0].hex == low_hex(setup, "1010", "5")
    assert len(named(events, "CounterShifted").dice) == 2


@pytest.mark.parametrize(("roll", "localised"), [(5, True), (4, False)])
def test_search_value_one_localises_low_counters(roll: int, localised: bool) -> None:
    """S13.0: against low uncertainty only search value one radars act; 5-6 localises to a
    hex of the area and places a track contact on top."""
    setup = make_setup()
    state = make_state(setup, [counter("B-1", "1010", "low")], Phase.RADAR_SEARCH)
    rolls = [[roll], [2]] if localised else [[roll]]
    state, _ = _search(state, "1010", rolls)
    b = state.counters[0]
    if localised:
        assert b.hex == low_hex(setup, "1010", "2")
        assert (b.level, b.track) == (Uncertainty.NONE, Track.ON_TOP)
    else:
        assert (b.hex, b.level) == ("1010", Uncertainty.LOW)


def test_search_value_two_cannot_refine_low() -> None:
    """S5.2/S13.0: search value two or three radars do nothing to low counters."""
    setup = make_setup(radars=[{"name": "F", "search_value": 2}])
    state = make_state(setup, [counter("B-1", "1010", "low")], Phase.RADAR_SEARCH)
    state, events = _search(state, "1010", [], radar="F")
    assert named(events, "RadarSearchResolved").outcome == "no effect"


def test_track_contact_kept_while_searched_every_turn() -> None:
    """S13.0: a track contact on top stays while a search value one radar searches the
    bomber each turn (no roll); unsearched, it goes beneath at the end of the phase."""
    setup = make_setup()
    tracked = counter("B-1", "1010", "none", track="on_top")
    state = make_state(setup, [tracked, counter("C-1", "0505", "none", track="on_top")],
                       Phase.RADAR_SEARCH)  # fmt: skip
    state, events = _search(state, "1010", [])
    assert named(events, "TrackContactKept").counter == "B-1"
    state, events = run(state, "EndPhase", [])
    assert [e.counter for e in events if type(e).__name__ == "MarkersLost"] == ["C-1"]
    assert state.counters[0].track is Track.ON_TOP
    assert state.counters[1].level is Uncertainty.LOW


def test_high_counter_phantom_test_and_no_further_effect() -> None:
    """S13.0/S5.4: a high counter is tested; a real one becomes moderate with no further
    effect of search radar that turn."""
    setup = make_setup()
    counters = [counter("B-1", "1010", "high"), counter("B-2", "0410", "high")]
    state = make_state(setup, counters, Phase.RADAR_SEARCH)
    state, events = _search(state, "1010", [[3]])
    assert named(events, "PhantomTested").result == "real"
    assert state.counters[0].level is Uncertainty.MODERATE and state.counters[0].hex == "1010"
    assert state.counters[1].status is Status.REMOVED


@pytest.mark.parametrize(("jamming", "roll", "removed"),
                         [("light", 2, True), ("light", 3, False), ("heavy", 4, True),
                          ("heavy", 5, False)])  # fmt: skip
def test_s24_jammed_search_radar(jamming: str, roll: int, removed: bool) -> None:
    """S24.0: jammed search radars roll per counter after placement: removed on 1-2 light,
    1-4 heavy."""
    setup = make_setup(radars=[{"name": "W", "jamming": jamming}])
    state = make_state(setup, [counter("B-1", "1010")], Phase.RADAR_SEARCH)
    rolls = [[roll]] if removed else [[roll], [1]]
    _, events = _search(state, "1010", rolls)
    assert named(events, "JammingTested").removed is removed


def test_s24_naxos_only_h2s_and_never_crowded() -> None:
    """S24.0: Naxos only against H2S bombers, without the -1 for nearby bombers."""
    setup = make_setup(radars=[{"name": "N", "kind": "naxos", "search_value": 1}])
    counters = [counter("B-1", "1010", h2s=True), counter("C-1", "1012", "low")]
    state = make_state(setup, counters, Phase.RADAR_SEARCH)
    with pytest.raises(RuleError, match="H2S"):
        _search(state, "1012", [], radar="N")
    _, events = _search(state, "1010", [[4], [3]], radar="N")
    assert named(events, "RadarSearchResolved").modified == 3


def test_s24_flensburg_within_wide_arc_any_range() -> None:
    """S24.0: Flensburg only against counters within the fighter's wide arc."""
    setup = make_setup(radars=[{"name": "Fl", "kind": "flensburg", "fighter": "F1"}])
    counters = [counter("B-1", "1001"), counter("C-1", "1020")]
    state = make_state(setup, counters, Phase.RADAR_SEARCH, ("1012", 0))
    with pytest.raises(RuleError, match="wide arc"):
        _search(state, "1020", [], radar="Fl")
    _search(state, "1001", [[1]], radar="Fl")


def test_s25_gci_two_dice_higher_and_all_high_counters() -> None:
    """S25.0: unjammed GCI rolls two dice and keeps the higher; against high uncertainty
    it tests every counter of that bomber on the map until one is real."""
    setup = make_setup(radars=[{"name": "G", "kind": "gci", "search_value": 2}])
    state = make_state(setup, [counter("B-1", "1010")], Phase.RADAR_SEARCH)
    _, events = _search(state, "1010", [[1, 5], [4]], radar="G")
    assert named(events, "RadarSearchResolved").value == 5
    highs = [counter(f"H-{i}", h, "high") for i, h in enumerate(["0505", "1010", "1515"], 1)]
    state = make_state(setup, highs, Phase.RADAR_SEARCH)
    state, events = _search(state, "1010", [[6], [1]], radar="G")
    tests = [e for e in events if type(e).__name__ == "PhantomTested"]
    assert [t.counter for t in tests] == ["H-2", "H-1"]
    assert [c.status for c in state.counters] == [Status.ON_MAP, Status.REMOVED, Status.REMOVED]


def test_s25_mew_automatic_and_tests_every_high_counter() -> None:
    """S25.0: MEW localises without dice; against high counters all high counters on the
    map (any bomber) test."""
    setup = make_setup(radars=[{"name": "M", "kind": "mew", "search_value": 3}])
    state = make_state(setup, [counter("B-1", "1010", "low")], Phase.RADAR_SEARCH)
    state, _ = _search(state, "1010", [[3]], radar="M")
    assert state.counters[0].track is Track.ON_TOP
    state, _ = run(state, "EndPhase", [])
    assert state.counters[0].track is Track.ON_TOP  # MEW tracked it this turn
    highs = [counter("H-1", "0505", "high"), counter("H-2", "1010", "high"),
             counter("K-1", "1515", "high"), counter("K-2", "1520", "high")]  # fmt: skip
    state = make_state(setup, highs, Phase.RADAR_SEARCH)
    state, events = _search(state, "1010", [[5], [5]], radar="M")
    assert len([e for e in events if type(e).__name__ == "PhantomTested"]) == 2


def test_s25_jammed_gci_is_a_plain_search_radar() -> None:
    """S25.0: lightly jammed GCI is an unjammed search radar (one die)."""
    setup = make_setup(radars=[{"name": "G", "kind": "gci", "jamming": "light"}])
    state = make_state(setup, [counter("B-1", "1010")], Phase.RADAR_SEARCH)
    _, events = _search(state, "1010", [[2]], radar="G")
    assert named(events, "RadarSearchResolved").value == 2


def test_s25_mew_takes_a_moderate_counter_to_low_only() -> None:
    """README ledger S25.0: "MEW radars automatically succeed in localising moderate, low or no
    uncertainty bomber counters without even needing to dice": a success is what a search
    roll would have given, one step: moderate becomes low (its scatter die, here 3: directly
    back one hex), not localised with a track contact."""
    setup = make_setup(radars=[{"name": "M", "kind": "mew", "search_value": 3}])
    state = make_state(setup, [counter("B-1", "1010")], Phase.RADAR_SEARCH)
    state, events = _search(state, "1010", [[3]], radar="M")
    assert named(events, "RadarSearchResolved").outcome == "refined"
    assert state.counters[0].level is Uncertainty.LOW
    assert state.counters[0].track is not Track.ON_TOP
