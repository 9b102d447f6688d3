"""S7.0 MOVING BOMBERS and S8.0 ENTERING BOMBERS."""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.nightfighter.setups import counter, make_setup, make_state, named, run
from umpire.engine.errors import InvalidSetup
from umpire.engine.rulesets.nightfighter.evolve import initial_state
from umpire.engine.rulesets.nightfighter.terms import Phase, Status, Uncertainty


def _turn(state, turn):  # type: ignore[no-untyped-def]
    return msgspec.structs.replace(state, turn=turn, phase=Phase.BOMBER_MOVEMENT)


def test_s8_one_bomber_three_high_now_three_next_turn() -> None:
    """S8.0: a lone bomber is three high counters in columns 04, 10, 16 (odd turn) and
    three more next turn in 03, 09, 15, all using their full MPs."""
    state = _turn(initial_state(make_setup(bombers=[{"id": "B", "turn": 1}])), 1)
    state, events = run(state, "MoveBombers", [])
    due = named(events, "CountersDue")
    assert [(n.enter_turn, n.enter_col) for n in due.counters] == [
        (1, 4), (1, 10), (1, 16), (2, 3), (2, 9), (2, 15)]  # fmt: skip
    assert sorted(c.hex for c in state.counters if c.status is Status.ON_MAP) == [
        "0403", "1003", "1603"]  # fmt: skip
    assert sum(c.status is Status.PENDING for c in state.counters) == 3
    for _ in range(6):
        state, _ = run(state, "EndPhase", [])
    state, _ = run(state, "MoveBombers", [])
    assert sorted(c.hex for c in state.counters if c.status is Status.ON_MAP) == [
        "0303", "0406", "0903", "1006", "1503", "1606"]  # fmt: skip


def test_s8_only_three_when_another_bomber_is_due_next_turn() -> None:
    """S8.0: no follow-on counters when another bomber is due the next turn."""
    setup = make_setup(bombers=[{"id": "B", "turn": 1}, {"id": "C", "turn": 2}])
    state = _turn(initial_state(setup), 1)
    _, events = run(state, "MoveBombers", [])
    assert len(named(events, "CountersDue").counters) == 3


def test_s8_three_bombers_are_three_moderate_counters() -> None:
    """S8.0: three bombers due: three moderate counters (low under contrails, S21.0)."""
    setup = make_setup(bombers=[{"id": i, "turn": 2} for i in ("A", "B", "C")])
    state, _ = run(_turn(initial_state(setup), 2), "MoveBombers", [])
    assert sorted((c.hex, c.level) for c in state.counters) == [
        ("0303", Uncertainty.MODERATE), ("0903", Uncertainty.MODERATE),
        ("1503", Uncertainty.MODERATE)]  # fmt: skip
    contrails = make_setup(bombers=[{"id": i, "turn": 2} for i in ("A", "B", "C")],
                           contrails=True)  # fmt: skip
    state, _ = run(_turn(initial_state(contrails), 2), "MoveBombers", [])
    assert {c.level for c in state.counters} == {Uncertainty.LOW}


def test_s8_more_than_three_due_is_refused() -> None:
    with pytest.raises(InvalidSetup, match="at most three"):
        initial_state(make_setup(bombers=[{"id": str(i), "turn": 1} for i in range(4)]))


def test_s7_exit_and_no_two_counters_in_a_hex() -> None:
    """S7.0: counters leave the map at its edge; a counter never moves into a hex holding
    another bomber counter (it stops short)."""
    setup = make_setup()
    counters = [counter("A-1", "0526"), counter("B-1", "0905", speed=3),
                counter("C-1", "0907", speed=1)]  # fmt: skip
    state = make_state(setup, counters, Phase.BOMBER_MOVEMENT)
    state, _events = run(state, "MoveBombers", [])
    by_id = {c.id: c for c in state.counters}
    assert by_id["A-1"].status is Status.OFF_MAP
    assert by_id["C-1"].hex == "0908" and by_id["B-1"].hex == "0907"
    assert state.phase is Phase.FIGHTER_MOVEMENT


def test_s7_off_map_high_counters_still_count() -> None:
    """S7.0/S5.4: high counters off the map (or not yet entered) still count."""
    setup = make_setup()
    counters = [counter("B-1", "1010", "high"),
                counter("B-2", "0101", "high", status=Status.OFF_MAP),
                counter("B-3", "0101", "high", status=Status.PENDING)]  # fmt: skip
    state = make_state(setup, counters, Phase.RADAR_SEARCH)
    _, events = run(state, "PlaceRadarSearches", [[2]],
                    searches=[{"radar": "W", "hex": "1010"}])  # fmt: skip
    test = named(events, "PhantomTested")
    assert test.others == 2 and test.result == "real"
