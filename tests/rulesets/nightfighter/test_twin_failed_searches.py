"""Twin games that differ only in where a failed search's hidden location roll pointed
(S5.2/S5.3; the Nightfighter solitaire rules, 004_c3eb2ad371d7bb6a.txt, leave the pilot
knowing only that the search failed): the player and a spectator must see the same events,
the same view (the S5.5 barred hexes are the search area, not the rolled cell) and the
same listed actions with their texts, whatever the hidden dice said."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from tests.rulesets.nightfighter.setups import counter, make_setup, make_state, run
from umpire.engine.actions import legal_actions
from umpire.engine.redaction import redact
from umpire.engine.roles import Role
from umpire.engine.rulesets.nightfighter import RULESET
from umpire.engine.rulesets.nightfighter.state import State
from umpire.engine.rulesets.nightfighter.terms import Phase

SEEN_BY = (Role.PLAYER, Role.SPECTATOR)


def _seen(state: State, events: list[Any], role: Role) -> dict[str, Any]:
    shown = [redact(RULESET, e, role, revealed=False) for e in events]
    listed = legal_actions(RULESET, state, role, ended=False)
    return {
        "events": [msgspec.to_builtins(e) for e in shown if e is not None],
        "view": RULESET.view(state, role),
        "actions": [(a.type, a.rule, a.description, a.schema) for a in listed],
    }


def _twins(state: State, tag: str, twins: tuple[list[list[int]], ...], **fields: Any) -> None:
    seen = []
    for rolls in twins:
        after, events = run(state, tag, rolls, **fields)
        assert "Localised" not in [type(e).__name__ for e in events]  # both searches failed
        seen.append({role: _seen(after, events, role) for role in SEEN_BY})
    first, *others = seen
    for other in others:
        for role in SEEN_BY:
            assert other[role] == first[role], role


@pytest.mark.parametrize(
    "dice",
    [
        # 1/1-2 and 6/5-6: two on-map cells on either side, outside the narrow arc.
        ([[1, 1]], [[6, 6]]),
        # 5/3-4 beside the arc; 2/5-6 on the other side.
        ([[5, 3]], [[2, 5]]),
    ],
)
def test_a_failed_ai_search_looks_the_same_wherever_it_pointed(
    dice: tuple[list[list[int]], ...],
) -> None:
    """S19.0: a narrow-arc AI search from directly behind a moderate counter in 1010; the
    hidden blue/purple location falls outside the three searched hexes in both twins."""
    state = make_state(make_setup(), [counter("B-1", "1010")], Phase.AI_RADAR, ("1009", 3))
    _twins(state, "SearchAI", dice, fighter="F1", hex="1010")


def test_a_failed_ai_search_off_the_map_looks_like_one_on_it() -> None:
    """S7.0: a location cell off the map edge is not re-rolled and the search fails; the
    counter in row 01 flies south and the fighter is in its hex: 1/1-2 lies off the top
    edge, 6/5-6 on the map outside the arc."""
    state = make_state(make_setup(), [counter("B-1", "1001")], Phase.AI_RADAR, ("1001", 3))
    _twins(state, "SearchAI", ([[1, 1]], [[6, 6]]), fighter="F1", hex="1001")


def test_a_failed_tally_location_looks_the_same_wherever_it_pointed() -> None:
    """S10.0: the tally dice show a 6 (the player's own roll, public), then the hidden
    location die of a low counter falls outside the fighter's range (its hex and the one
    in front, S3.0) in both twins: 1 (NW) or 6 (SE)."""
    state = make_state(make_setup(), [counter("B-1", "1010", "low")], Phase.TALLY, ("1010", 3))
    _twins(state, "AttemptTally", ([[6], [1]], [[6], [6]]), fighter="F1", hex="1010", dice=1)


def test_a_high_counter_found_then_shown_a_phantom_does_not_say_where() -> None:
    """S5.4: an AI search on a high counter locates it first (hidden), then tests it; when
    the test shows a phantom the bomber was never fixed, so where the location roll pointed
    stays the umpire's. The S5.4 example's Ju88G-1 (range 3, wide arc) directly behind one
    of four counters: location 3/2 (3/1-2) or 3/5 (the counter's own hex), both in the arc,
    then the phantom die 2: the twins must look the same. (The phantom test's roll once
    named the hex in its purpose: found by the twin-game differential.)"""
    setup = make_setup(fighters=[{"id": "F1", "hex": "0101", "ai_range": 3, "ai_arc": "wide"}])
    counters = [counter("B-1", "1010", "high"), counter("B-2", "0410", "high"),
                counter("B-3", "1610", "high"), counter("B-4", "0404", "high")]  # fmt: skip
    state = make_state(setup, counters, Phase.AI_RADAR, ("1009", 3))
    _twins(state, "SearchAI", ([[3, 2], [2]], [[3, 5], [2]]), fighter="F1", hex="1010")


def test_a_cut_hand_off_after_a_failed_search_looks_the_same_wherever_it_pointed() -> None:
    """MoveBombers.handoff_dice (base-game 28.3, README ledger): a fixed bomber B-1 in zone
    K (1007) is handed off to zone N (1010) on two dice [1, 6] the turn after a failed AI
    search of B-2 (1013), whose hidden location pointed 1/1-2 or 6/5-6. The hand-off's
    words, the view and the listed actions (handoff_dice offered while a bomber holds a
    fix) are the same in both twins."""
    setup = make_setup(zones=[{"name": "K", "hexes": ["1007"]}, {"name": "N", "hexes": ["1010"]}])
    fixed = counter("B-1", "1007", "none", searchlight="K")
    state = make_state(setup, [fixed, counter("B-2", "1013")], Phase.AI_RADAR, ("1012", 3))
    seen = []
    for hidden in ([[1, 1]], [[6, 6]]):
        after, events = run(state, "SearchAI", hidden, fighter="F1", hex="1013")
        assert "Localised" not in [type(e).__name__ for e in events]
        while after.phase is not Phase.BOMBER_MOVEMENT:
            after, _ = run(after, "EndPhase", [])
        listed = legal_actions(RULESET, after, Role.PLAYER, ended=False)
        (move,) = [a for a in listed if a.type == "MoveBombers"]
        assert move.schema["properties"]["handoff_dice"] == {
            "type": "integer",
            "minimum": 0,
            "maximum": 12,
        }
        after, events = run(after, "MoveBombers", [[1, 6]], handoff_dice=2)
        assert after.counters[0].searchlight == "N"
        seen.append({role: _seen(after, events, role) for role in SEEN_BY})
    assert seen[0] == seen[1]
