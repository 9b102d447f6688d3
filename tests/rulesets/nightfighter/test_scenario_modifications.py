"""SCENARIO MODIFICATIONS 2C, 4G, 4H, 6C, 6H and 8F."""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.nightfighter.setups import make_setup, named, run
from umpire.engine.errors import InvalidSetup
from umpire.engine.rulesets.nightfighter.evolve import initial_state
from umpire.engine.rulesets.nightfighter.terms import Jamming, Phase, Status, Uncertainty


def _entering(setup, turn=1, rolls=None):  # type: ignore[no-untyped-def]
    state = msgspec.structs.replace(initial_state(setup), turn=turn, phase=Phase.BOMBER_MOVEMENT)
    return run(state, "MoveBombers", rolls or [])


def test_2c_only_one_emily() -> None:
    """SCENARIO 2C: only one H8K1 'Emily' bomber is used, not two."""
    with pytest.raises(InvalidSetup, match="2C"):
        initial_state(make_setup(scenario="2C", bombers=[{"id": "E1", "turn": 1},
                                                         {"id": "E2", "turn": 2}]))  # fmt: skip


def test_4g_y_guided_fighters_lightly_jammed_and_4h_scr270() -> None:
    """SCENARIO 4G: 'Y'-guided fighters' AI radars lightly jammed; 4H: SCR-270 lightly
    jammed."""
    state = initial_state(make_setup(
        scenario="4G", fighters=[{"id": "Y1", "hex": "0101", "y_guided": True},
                                 {"id": "F2", "hex": "0102"}]))  # fmt: skip
    assert [f.ai_jamming for f in state.setup.fighters] == [Jamming.LIGHT, Jamming.NONE]
    state = initial_state(make_setup(scenario="4H", radars=[{"name": "SCR-270"}]))
    assert state.setup.radars[0].jamming is Jamming.LIGHT


@pytest.mark.parametrize(("roll", "columns"), [(1, [10, 16]), (4, [4, 16]), (6, [4, 10])])
def test_6c_column_without_a_bomber(roll: int, columns: list[int]) -> None:
    """SCENARIO 6C: 1-2 no counter in column 03/04, 3-4 in 09/10, 5-6 in 15/16."""
    setup = make_setup(scenario="6C", bombers=[{"id": "A", "turn": 1}, {"id": "B", "turn": 1}])
    state, _ = _entering(setup, rolls=[[roll]])
    assert sorted(c.enter_col for c in state.counters) == columns
    assert {c.level for c in state.counters} == {Uncertainty.MODERATE}


def test_6h_h2s_bomber_on_odd_waves() -> None:
    """SCENARIO 6H: one H2S bomber with every odd-numbered wave, its column at random."""
    bombers = [{"id": f"{w}{i}", "turn": w} for w in (1, 2, 3) for i in "abc"]
    setup = make_setup(scenario="6H", bombers=bombers)
    state, _ = _entering(setup, 1, [[2]])
    assert [c.id for c in state.counters if c.h2s] == ["1b-1"]
    state, _events = _entering(setup, 2, [])
    assert not any(c.h2s for c in state.counters)


def test_8f_v1_enters_in_the_rolled_column_never_uncertain() -> None:
    """SCENARIO 8F: two dice give the V-1's entry column; its position is never uncertain."""
    setup = make_setup(scenario="8F", bombers=[{"id": "V", "turn": 1, "kind": "V-1"}])
    state, events = _entering(setup, 1, [[3, 4]])
    v1 = state.counters[0]
    assert (v1.enter_col, v1.hex, v1.level, v1.status) == (7, "0703", Uncertainty.NONE,
                                                           Status.ON_MAP)  # fmt: skip
    assert named(events, "CountersDue").certain is True


def _scenario_7(counters, fighter=("1020", 0)):  # type: ignore[no-untyped-def]
    from tests.rulesets.nightfighter.setups import make_state

    setup = make_setup(
        scenario="7",
        radars=[{"name": "Serrate", "kind": "serrate", "search_value": 1}],
        fighters=[{"id": "M1", "hex": fighter[0], "facing": fighter[1]}],
    )
    return make_state(setup, counters, Phase.RADAR_SEARCH, fighter)


def test_7_serrate_reveals_on_5_or_6_and_draws_from_the_cup() -> None:
    """SCENARIO 7: every counter in the wide arc (any range) is diced; 5-6 reveals it and
    draws from the cup of 2 Ju88 among 30: a Ju88 replaces it, anything else removes both."""
    from tests.rulesets.nightfighter.setups import counter

    counters = [counter("A-1", "1001"), counter("B-1", "1005"), counter("C-1", "1025")]
    state = _scenario_7(counters)
    assert len(state.cup) == 30 and state.cup.count("Ju88") == 2
    state, events = run(state, "SerrateSearch", [[5], [1], [2]], fighter="M1")
    assert named(events, "SerrateSearched").revealed == ("A-1",)
    by_id = {c.id: c for c in state.counters}
    assert by_id["A-1"].ju88 and by_id["B-1"].status is Status.ON_MAP
    assert by_id["C-1"].status is Status.ON_MAP  # behind the fighter: not in the wide arc
    assert state.cup.count("Ju88") == 1 and len(state.cup) == 29
    from umpire.engine.errors import RuleError

    with pytest.raises(RuleError, match="already searched"):
        run(state, "FocusedSerrate", [], fighter="M1", hex="1001")
    state, events = run(state, "EndPhase", [])
    assert state.counters[0].ju88


def test_7_cup_draw_not_a_ju88_removes_both() -> None:
    from tests.rulesets.nightfighter.setups import counter

    state = _scenario_7([counter("A-1", "1001")])
    state, events = run(state, "SerrateSearch", [[6], [30]], fighter="M1")
    assert named(events, "CounterRevealed").drawn == "NF28"
    assert state.counters[0].status is Status.REMOVED


def test_7_focused_serrate_narrows_a_revealed_ju88_with_crowding() -> None:
    """SCENARIO 7: focused search of a revealed Ju88 in the wide arc; -1 when another
    revealed Ju88 or any unrevealed bomber counter is within four hexes."""
    from tests.rulesets.nightfighter.setups import counter

    counters = [counter("A-1", "1010", ju88=True), counter("B-1", "1012")]
    state = _scenario_7(counters, ("1015", 0))
    state, events = run(state, "FocusedSerrate", [[5], [2]], fighter="M1", hex="1010")
    assert named(events, "RadarSearchResolved").modified == 3
    assert state.counters[0].level is Uncertainty.LOW
