"""More cases worked by hand from the seed (004_c3eb2ad371d7bb6a.txt) with stated dice:
the opening of a game, whose choice a search is, end conditions, map edges and the limits
of what the player learns. Each docstring gives the rule, the dice and the result read
from the seed's text (not from the code).

Counters are named <bomber>-<n>; the radar W has search value 1; bombers fly south.
"""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.nightfighter.setups import (
    counter,
    make_setup,
    make_state,
    named,
    run,
)
from umpire.engine.actions import legal_actions
from umpire.engine.roles import Role
from umpire.engine.rulesets.nightfighter import RULESET
from umpire.engine.rulesets.nightfighter.evolve import initial_state, opened_under
from umpire.engine.rulesets.nightfighter.labels import LABELS
from umpire.engine.rulesets.nightfighter.terms import Phase, Status, Uncertainty
from umpire.events.types import DiceRolled, GameEnded

ZONES = [{"name": "K", "hexes": ["1114", "1115", "1116", "1015", "1215"]}]


# The opening (EXAMPLE OF PLAY, turn 1) ------------------------------------------------------


def test_the_first_command_is_turn_1s_bomber_movement() -> None:
    """EXAMPLE OF PLAY, turn 1: 'Three high uncertainty counters enter for the first
    Lancaster, and are moved to hexes 0403, 1003 and 1603' — the sequence of play begins
    with the bombers. A new game (v9) opens in turn 1's Bomber Movement Phase: the state
    says 'Turn 1', 'Bomber Movement' (v8 said 'Phase: Combat, Turn 0 (before turn 1)'),
    MoveBombers is listed as every turn lists it, and sending it enters B1's counters in
    columns 04, 10 and 16 (S8.0, odd turn) with no turn to begin first."""
    setup = make_setup(bombers=[{"id": "B1", "turn": 1}])
    state = initial_state(setup)
    assert (state.turn, state.phase) == (1, Phase.BOMBER_MOVEMENT)
    assert LABELS.words("phase", state.phase) == "Bomber Movement"
    listed = legal_actions(RULESET, state, Role.PLAYER, ended=False)
    assert [a.type for a in listed][:1] == ["MoveBombers"]
    assert "EndPhase" not in [a.type for a in listed]  # the bombers move to end the phase
    assert listed[0].description.startswith("Move and enter the bomber counters")
    state, events = run(state, "MoveBombers", [])
    assert "TurnStarted" not in [type(e).__name__ for e in events]
    on_map = sorted(c.hex for c in state.counters if c.status is Status.ON_MAP)
    assert on_map == ["0403", "1003", "1603"]
    assert (state.turn, state.phase) == (1, Phase.FIGHTER_MOVEMENT)


def test_a_game_recorded_before_v9_still_opens_before_turn_1() -> None:
    """A log recorded under v8 folds from the opening it was recorded from (so its receipts'
    views at seq 1 still hash the same): turn 0, said 'before turn 1', where MoveBombers
    begins turn 1 (TurnStarted) and moves the bombers in one batch, as in v8."""
    setup = make_setup(bombers=[{"id": "B1", "turn": 1}])
    state = opened_under("8", initial_state(setup))
    assert (state.turn, state.phase) == (0, Phase.COMBAT)
    assert LABELS.words("turn", state.turn) == "0 (before turn 1)"
    assert opened_under("9", initial_state(setup)) == initial_state(setup)
    first = legal_actions(RULESET, state, Role.PLAYER, ended=False)[0]
    assert first.type == "MoveBombers" and first.description.startswith("Turn 1 begins")
    state, events = run(state, "MoveBombers", [])
    assert type(events[0]).__name__ == "TurnStarted" and events[0].turn == 1  # type: ignore[attr-defined]
    assert (state.turn, state.phase) == (1, Phase.FIGHTER_MOVEMENT)
    assert state == run(initial_state(setup), "MoveBombers", [])[0]


def test_turn_0_is_said_as_before_turn_1() -> None:
    """A game recorded before v9 holds turn 0 until its first command: the player reads it
    as what it is, 'before turn 1', not as a turn of its own."""
    assert LABELS.words("turn", 0) == "0 (before turn 1)"
    assert LABELS.words("turn", 3) == "3"


# S14.0: whose choice a searchlight search is ------------------------------------------------


def test_s14_a_searchlight_search_says_the_player_chose_it() -> None:
    """S14.0: 'dice in any order for any one selected bomber counter in each active
    searchlight zone' — the player selects. Zone K searches moderate C-1 in 1115 with four
    dice 1, 2, 3, 5: no 6, no fix. The decision says the player chose it (it was headed as
    the opponent's, 'zone K searches C-1 with 4 dice'); the dice are the umpire's."""
    state = make_state(make_setup(zones=ZONES), [counter("C-1", "1115")], Phase.SEARCHLIGHT)
    _, events = run(state, "SearchSearchlight", [[1, 2, 3, 5]], zone="K", hex="1115")
    searched = named(events, "SearchlightSearched")
    assert searched.explanation == "the player chose zone K to search C-1 with 4 dice: no 6: no fix"
    assert [c.reason for c in searched.candidates] == [
        "the player's choice: zone K searches this counter"
    ]
    rolled = [e for e in events if isinstance(e, DiceRolled)]
    assert [r.owner for r in rolled] == ["opponent"]


def test_s14_a_phantom_found_by_searchlights_rolls_no_searchlight_dice() -> None:
    """S14.0 with S5.4: 'If the counter represents high uncertainty, it will automatically
    test'; H-1 in 1115 has one other counter (H-2): a phantom test roll of 4 (only 1-3
    removes the other) removes H-1, and no searchlight dice are rolled: said so, where it
    read 'with 0 dice'."""
    counters = [counter("H-1", "1115", "high"), counter("H-2", "0405", "high")]
    state = make_state(make_setup(zones=ZONES), counters, Phase.SEARCHLIGHT)
    state, events = run(state, "SearchSearchlight", [[4]], zone="K", hex="1115")
    searched = named(events, "SearchlightSearched")
    assert searched.explanation == (
        "the player chose zone K to search H-1, no searchlight dice rolled: phantom removed"
    )
    assert {c.id: c.status for c in state.counters}["H-1"] is Status.REMOVED


# S13.0 boundaries ---------------------------------------------------------------------------


def test_s13_a_search_value_three_radar_never_narrows_a_crowded_moderate_counter() -> None:
    """S13.0: roll a die, 'deduct the radar's search value, and deduct an extra one if there
    is another bomber counter other than a high uncertainty counter within four hexes'; 3
    or more narrows. With search value three and a moderate counter two hexes away, even
    a 6 makes 6 - 3 - 1 = 2: no effect."""
    setup = make_setup(radars=[{"name": "F", "search_value": 3}])
    counters = [counter("B-1", "1010"), counter("C-1", "1012")]
    state = make_state(setup, counters, Phase.RADAR_SEARCH)
    state, events = run(
        state, "PlaceRadarSearches", [[6]], searches=[{"radar": "F", "hex": "1010"}]
    )
    resolved = named(events, "RadarSearchResolved")
    assert resolved.modified == 2
    got = {c.id: c for c in state.counters}["B-1"]
    assert (got.hex, got.level) == ("1010", Uncertainty.MODERATE)


# End conditions (EXAMPLE OF PLAY, turn 13) --------------------------------------------------


def test_the_game_ends_only_when_the_last_nightfighter_leaves_the_map() -> None:
    """EXAMPLE OF PLAY, turn 13: 'you are forced to exit the map from hex 0827, bringing
    the game to an end' — with one fighter. With two, F1 leaving from 0127 ends nothing
    (F2 still flies); F2 leaving next ends the game."""
    fighters = [
        {"id": "F1", "hex": "0127", "facing": 3},
        {"id": "F2", "hex": "1027", "facing": 3},
    ]
    setup = make_setup(fighters=fighters)
    state = make_state(setup, [], Phase.FIGHTER_MOVEMENT)
    state, events = run(state, "MoveFighter", [], fighter="F1", path=["0128"], facing=3, exit=True)
    assert not [e for e in events if isinstance(e, GameEnded)]
    assert {f.id: f.hex for f in state.fighters} == {"F1": "", "F2": "1027"}
    _, events = run(state, "MoveFighter", [], fighter="F2", path=["1028"], facing=3, exit=True)
    assert named(events, "GameEnded").result.startswith("every nightfighter has left the map")


def test_a_fighter_that_has_left_the_map_may_not_move_again() -> None:
    """S3.0 with the example's turn 13: a fighter off the map is out of play; F1, gone,
    is not listed to move and F2 is."""
    fighters = [
        {"id": "F1", "hex": "0127", "facing": 3},
        {"id": "F2", "hex": "1020", "facing": 3},
    ]
    state = make_state(make_setup(fighters=fighters), [], Phase.FIGHTER_MOVEMENT)
    state, _ = run(state, "MoveFighter", [], fighter="F1", path=["0128"], facing=3, exit=True)
    listed = next(
        a
        for a in legal_actions(RULESET, state, Role.PLAYER, ended=False)
        if a.type == "MoveFighter"
    )
    assert "F1" not in str(listed.schema) and "F2" in str(listed.schema)


# S17.0: a corkscrew's firepower lasts the turn ----------------------------------------------


def test_s17_a_corkscrews_zero_firepower_lasts_only_that_turn() -> None:
    """S17.0: 'Its printed firepower is treated as 0 this turn' — this turn only. B-1,
    tallied by F1 in combat, corkscrews: it is marked so (and reverts to low uncertainty,
    not displaced); at the next turn's start the mark is gone."""
    state = make_state(
        make_setup(),
        [counter("B-1", "0119", "none", tallied_by=("F1",))],
        Phase.COMBAT,
        ("0120", 0),
    )
    state, _ = run(state, "Corkscrew", [], fighter="F1", hex="0119")
    got = {c.id: c for c in state.counters}["B-1"]
    assert (got.corkscrewed, got.level, got.hex) == (True, Uncertainty.LOW, "0119")
    state, _ = run(state, "EndPhase", [])
    assert state.turn == 2 and not {c.id: c for c in state.counters}["B-1"].corkscrewed


# What the player learns: S5.4 odds stay the umpire's until rolled ------------------------


@pytest.mark.parametrize(("roll", "real"), [(3, True), (4, False)])
def test_s5_4_one_other_counter_the_survivor_becomes_moderate(roll: int, real: bool) -> None:
    """S5.4: 'If there is only one other high uncertainty counter for that bomber, that
    other counter is removed on a roll of 1, 2 or 3'; otherwise the tested one is a
    phantom. Either way one counter is left, and 'the one remaining counter automatically
    becomes a moderate uncertainty counter'. Würzburg on H-1 (1010), H-2 at 0410: 3 ->
    H-2 removed, H-1 moderate (and no further search effect this turn); 4 -> H-1 removed,
    H-2 moderate."""
    counters = [counter("H-1", "1010", "high"), counter("H-2", "0410", "high")]
    state = make_state(make_setup(), counters, Phase.RADAR_SEARCH)
    state, _ = run(state, "PlaceRadarSearches", [[roll]], searches=[{"radar": "W", "hex": "1010"}])
    got = {c.id: c for c in state.counters}
    kept, gone = ("H-1", "H-2") if real else ("H-2", "H-1")
    assert got[gone].status is Status.REMOVED
    assert (got[kept].status, got[kept].level) == (Status.ON_MAP, Uncertainty.MODERATE)
    assert got[kept].hex == ("1010" if real else "0410")  # no shift: the search ends there


def test_the_player_sees_how_many_counters_are_due_never_which() -> None:
    """S8.0 with S5.4: the three counters due next turn count for the phantom test, so
    the player must know they exist; which columns they enter in next is public too (S8.0
    fixes them), but they are not on the map: the player's view lists only counters on
    the map or gone, and 'Bomber counters due: 3'."""
    setup = make_setup(bombers=[{"id": "B1", "turn": 1}])
    state, _ = run(initial_state(setup), "MoveBombers", [])
    seen = RULESET.view(state, Role.PLAYER)
    assert seen["counters_due"] == 3
    assert all(c["status"] != Status.PENDING.value for c in seen["counters"])
    referee = RULESET.view(state, Role.REFEREE)
    assert sum(c["status"] == Status.PENDING.value for c in referee["counters"]) == 3
    assert msgspec.json.encode(seen).count(b"B1-4") == 0


# Map edges and counts said as a player reads them --------------------------------------------


def test_s7_a_counter_leaving_the_map_is_said_with_the_hexes_it_flew() -> None:
    """S7.0: 'Bomber counters which move off the map ... may no longer be located'. B-1 in
    1026 (the last row is 27) with its 3 MPs flies one hex to 1027 and off the edge with
    its second: said 'flies off the map edge on its 2nd hex of 3' (it read 'flies 3 hexes
    off the map edge after 2 hexes'); B-2 in 1010 'flies 3 hexes to 1013'."""
    counters = [counter("B-1", "1026"), counter("B-2", "1010")]
    state = make_state(make_setup(), counters, Phase.BOMBER_MOVEMENT)
    state, events = run(state, "MoveBombers", [])
    said = [e.explanation for e in events if type(e).__name__ == "CounterMoved"]  # type: ignore[attr-defined]
    assert said == ["B-1 flies off the map edge on its 2nd hex of 3", "B-2 flies 3 hexes to 1013"]
    assert {c.id: c.status for c in state.counters}["B-1"] is Status.OFF_MAP


def test_s5_4_the_real_bomber_found_says_one_other_counter_in_the_singular() -> None:
    """S5.4: one other counter, roll 2 (1-3 removes the other): 'H-1 is the real H (roll 2
    <= 3): 1 other counter removed' — it read '1 other counters'."""
    counters = [counter("H-1", "1010", "high"), counter("H-2", "0410", "high")]
    state = make_state(make_setup(), counters, Phase.RADAR_SEARCH)
    _, events = run(state, "PlaceRadarSearches", [[2]], searches=[{"radar": "W", "hex": "1010"}])
    tested = named(events, "PhantomTested")
    assert "1 other counter removed; it becomes moderate uncertainty" in tested.explanation
