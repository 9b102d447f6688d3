"""2: altitude levels, dives, climbs, starting altitude and VERTICAL ROLL responses."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.down_in_flames.setups import (
    duel,
    engaged,
    entry,
    make_state,
    next_turn,
    of_type,
    run,
    says,
)
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.down_in_flames.events import AltitudeChanged, StartingAltitudeSet
from umpire.engine.rulesets.down_in_flames.state import State


def _card(name: str, ceiling: int, *traits: str) -> dict[str, Any]:
    return {
        "name": name, "aircraft_class": "fighter", "ceiling_level": ceiling, "defense": 6,
        "hit_value": 8, "characteristics": list(traits),
        "performance": [{"low": 1, "high": ceiling, "agility": 6, "speed": 6, "hp": 3}],
    }  # fmt: skip


def _fight(a: str = "Spitfire", b: str = "Bf 109", altitude: int | None = 5, **kw: Any) -> State:
    options: dict[str, Any] = dict(kw)
    if altitude is not None:
        options["starting_altitude"] = altitude
    state = make_state(
        [entry("a1", a, "A", "A", "leader", hand=6), entry("b1", b, "B", "B", "leader", hand=6)],
        **options,
    )
    return state


class TestS2_1_Dive:
    def test_leader_gains_one_card_per_level(self) -> None:
        state = next_turn(_fight(), "A")
        state, events = run(state, {"type": "Dive", "element": "A", "levels": 2})
        change = of_type(events, AltitudeChanged)[0]
        assert (change.from_level, change.to_level, change.hand_change) == (5, 3, 2)
        assert state.aircraft["a1"].hand == 8
        # Provenance last: it skips on a clone without the rule documents.
        assert says("Aircraft may dive either 1 or 2 levels. Leaders gain 1 card per level dived")

    def test_cannot_dive_below_level_one(self) -> None:
        state = next_turn(_fight(altitude=1), "A")
        with pytest.raises(RuleError) as info:
            run(state, {"type": "Dive", "element": "A", "levels": 1})
        assert info.value.rule.endswith("2.1")

    @pytest.mark.parametrize(
        ("traits", "gain"),
        [(("quick_dive",), 4), (("dive_limit",), 1), (("quick_dive", "dive_limit"), 1)],
    )
    def test_s10_2_quick_dive_and_s10_4_dive_limit(
        self, traits: tuple[str, ...], gain: int
    ) -> None:
        custom = {"X": _card("X", 18, *traits)}
        state = next_turn(_fight(a="X", custom_aircraft=custom), "A")
        state, events = run(state, {"type": "Dive", "element": "A", "levels": 2})
        assert of_type(events, AltitudeChanged)[0].hand_change == gain


class TestS2_2_Climb:
    def test_leader_discards_two_cards(self) -> None:
        state = next_turn(_fight(), "A")
        state, _ = run(state, {"type": "Climb", "element": "A"})
        assert (state.elements["A"].altitude, state.aircraft["a1"].hand) == (6, 4)
        # Provenance last: it skips on a clone without the rule documents.
        assert says("Leaders must discard 2 cards when climbing 1 level")

    def test_climb_above_the_ceiling_is_refused(self) -> None:
        """Spitfire sample ceiling: level 18."""
        state = next_turn(_fight(altitude=18), "A")
        with pytest.raises(RuleError) as info:
            run(state, {"type": "Climb", "element": "A"})
        assert info.value.rule.endswith("2.2") and "ceiling" in str(info.value)

    @pytest.mark.parametrize(("trait", "cost"), [("quick_climb", 1), ("slow_climb", 3)])
    def test_s10_1_quick_climb_and_s10_5_slow_climb(self, trait: str, cost: int) -> None:
        state = next_turn(_fight(a="X", custom_aircraft={"X": _card("X", 18, trait)}), "A")
        state, events = run(state, {"type": "Climb", "element": "A"})
        assert of_type(events, AltitudeChanged)[0].hand_change == -cost

    def test_climb_needs_the_cards(self) -> None:
        state = next_turn(_fight(), "A")
        state, _ = run(state, {"type": "ReportHand", "aircraft": "a1", "cards": 1})
        with pytest.raises(RuleError):
            run(state, {"type": "Climb", "element": "A"})


class TestS2_5_StartingAltitude:
    def test_d20_roll(self) -> None:
        state, events = run(_fight(altitude=None), {"type": "RollStartingAltitude"}, [[12]])
        assert of_type(events, StartingAltitudeSet)[0].altitude == 12
        assert {e.altitude for e in state.elements.values()} == {12}

    def test_s2_5_1_roll_above_a_leader_ceiling_is_rolled_again(self) -> None:
        """The A6M2 sample's ceiling is level 16: a 19 is rolled again."""
        state = _fight(a="A6M2", altitude=None)
        state, events = run(state, {"type": "RollStartingAltitude"}, [[19], [7]])
        decided = of_type(events, StartingAltitudeSet)[0]
        assert decided.altitude == 7 and len(decided.dice) == 2
        assert [c.chosen for c in decided.candidates] == [False, True]

    def test_s2_5_2_never_above_twenty(self) -> None:
        custom = {"X": _card("X", 25), "Y": _card("Y", 25)}
        state = _fight(a="X", b="Y", altitude=None, custom_aircraft=custom)
        state, _ = run(state, {"type": "RollStartingAltitude"}, [[20]])
        assert state.elements["A"].altitude == 20
        with pytest.raises(RuleError) as info:
            run(_fight(a="X", b="Y", altitude=None, custom_aircraft=custom),
                {"type": "BidStartingAltitude", "bids": [
                    {"side": "A", "altitude": 22, "victory_points": 1},
                    {"side": "B", "altitude": 5, "victory_points": 0}]})  # fmt: skip
        assert info.value.rule.endswith("2.5.2")

    def test_higher_bid_prevails_and_concedes(self) -> None:
        bids = [{"side": "A", "altitude": 10, "victory_points": 3},
                {"side": "B", "altitude": 4, "victory_points": 5}]  # fmt: skip
        state, _events = run(_fight(altitude=None), {"type": "BidStartingAltitude", "bids": bids})
        assert state.elements["A"].altitude == 4
        assert state.victory_points_conceded == {"B": 5}

    def test_tied_bids_dice(self) -> None:
        bids = [{"side": "A", "altitude": 10, "victory_points": 3},
                {"side": "B", "altitude": 4, "victory_points": 3}]  # fmt: skip
        state, events = run(_fight(altitude=None), {"type": "BidStartingAltitude", "bids": bids},
                            [[2], [2], [5], [3]])  # fmt: skip
        assert state.elements["A"].altitude == 10
        assert of_type(events, StartingAltitudeSet)[0].winning_side == "A"


class TestS2_6_VerticalRoll:
    def test_s2_6_1_unnegated_response_changes_altitude(self) -> None:
        state = next_turn(_fight(), "B")
        state, _events = run(
            state, {"type": "PlayVerticalRoll", "aircraft": "a1", "direction": "dive"}
        )
        assert state.elements["A"].altitude == 4
        assert state.aircraft["a1"].hand == 6  # the card played, 1 card gained for diving

    def test_negated_vertical_roll_changes_nothing(self) -> None:
        state = next_turn(_fight(), "B")
        state, _ = run(state, {"type": "PlayVerticalRoll", "aircraft": "a1", "direction": "climb",
                               "negated": True})  # fmt: skip
        assert state.elements["A"].altitude == 5

    def test_s2_6_4_engaged_enemy_may_follow(self) -> None:
        state = engaged(_fight(), "b1", "a1", "tailing")
        state, _events = run(state, {"type": "PlayVerticalRoll", "aircraft": "a1",
                                    "direction": "climb", "followers": ["B"]})  # fmt: skip
        assert state.elements["A"].altitude == 6 and state.elements["B"].altitude == 6
        assert state.aircraft["a1"].hand == 3 and state.aircraft["b1"].hand == 4

    def test_s2_6_5_neutral_enemy_follows_only_after_firing_last(self) -> None:
        state = engaged(_fight(), "b1", "a1", "neutral")
        with pytest.raises(RuleError) as info:
            run(state, {"type": "PlayVerticalRoll", "aircraft": "a1", "direction": "dive",
                        "followers": ["B"]})  # fmt: skip
        assert info.value.rule.endswith("2.6.5")
        state, _ = run(state, {"type": "Attack", "attacker": "b1", "target": "a1",
                               "card": "in_my_sights", "hits": 1, "bursts": 1}, [[6]])  # fmt: skip
        state, _ = run(state, {"type": "PlayVerticalRoll", "aircraft": "a1", "direction": "dive",
                               "followers": ["B"]})  # fmt: skip
        assert state.elements["B"].altitude == 4

    def test_s10_3_slow_dive_cannot_follow_a_dive(self) -> None:
        custom = {"S": _card("S", 18, "slow_dive")}
        state = engaged(_fight(b="S", custom_aircraft=custom), "b1", "a1", "tailing")
        with pytest.raises(RuleError) as info:
            run(state, {"type": "PlayVerticalRoll", "aircraft": "a1", "direction": "dive",
                        "followers": ["B"]})  # fmt: skip
        assert info.value.rule.endswith("10.3")


def test_s2_3_altitude_is_per_element() -> None:
    state = next_turn(duel(), "A")
    state, _ = run(state, {"type": "Dive", "element": "A", "levels": 1})
    assert (state.elements["A"].altitude, state.elements["B"].altitude) == (4, 5)
