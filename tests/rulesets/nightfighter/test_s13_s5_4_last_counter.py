"""README ledger "S13.0 against S5.4": one search counter's phantom test leaves another
search counter's counter as the bomber's last; that counter's own search still narrows
(004_c3eb2ad371d7bb6a.txt S13.0 "was not just refined from high uncertainty by this
search counter"; S5.4 "the one remaining counter automatically becomes a moderate
uncertainty counter")."""

from __future__ import annotations

from tests.rulesets.nightfighter.setups import counter, make_setup, make_state, named, run
from umpire.engine.rulesets.nightfighter.state import counter_by_id
from umpire.engine.rulesets.nightfighter.terms import Phase, Uncertainty


def test_the_last_counter_left_by_another_search_still_narrows() -> None:
    """Bomber B has two high counters, B-1 (0505) and B-2 (1010), each under a search
    counter (W, then F, both search value 1). W's phantom test of B-1 rolls 4 (one other
    counter: real on 1-3): B-1 is a phantom, removed, and B-2, the last, becomes moderate.
    F's search of B-2 then rolls as a moderate counter: 5 - 1 = 4, 3 or more, narrowed to
    low; the scatter die rolls 3 (straight back one hex)."""
    setup = make_setup(radars=[{"name": "W"}, {"name": "F"}])
    state = make_state(
        setup,
        [counter("B-1", "0505", "high", "B"), counter("B-2", "1010", "high", "B")],
        Phase.RADAR_SEARCH,
    )
    state, events = run(
        state,
        "PlaceRadarSearches",
        [[4], [5], [3]],
        searches=[{"radar": "W", "hex": "0505"}, {"radar": "F", "hex": "1010"}],
    )
    tested = named(events, "PhantomTested")
    assert tested.counter == "B-1"
    last = counter_by_id(state, "B-2")
    assert last is not None and last.level is Uncertainty.LOW
    resolved = [e for e in events if type(e).__name__ == "RadarSearchResolved"]
    assert [(r.radar, r.counter, r.outcome != "phantom test") for r in resolved] == [
        ("W", "B-1", False),
        ("F", "B-2", True),
    ]
