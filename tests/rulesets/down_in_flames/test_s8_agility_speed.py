"""8: Agility and Speed, hand limits and Agility Card limits."""

from __future__ import annotations

import pytest

from tests.rulesets.down_in_flames.setups import duel, next_turn, of_type, run, says
from umpire.engine.actions import legal_actions
from umpire.engine.errors import NothingToDo, RuleError
from umpire.engine.roles import Role
from umpire.engine.rulesets.down_in_flames import RULESET
from umpire.engine.rulesets.down_in_flames.events import CardPlayed
from umpire.engine.rulesets.down_in_flames.performance import (
    agility_card_limit,
    hand_limits,
    ratings,
)


class TestS8_3_A6M2:
    """8.3: "an A6M2's Agility Rating at altitude level 2 is 9 and its speed rating is 6. It
    can hold up to 9 cards in its hand but may never have less than 3 cards in its hand.\""""

    def test_example(self) -> None:
        state = duel(attacker="A6M2", altitude=2)
        plane = state.aircraft["a1"]
        r = ratings(state, plane)
        assert (r.agility, r.speed) == (9, 6)
        limits = hand_limits(state, plane)
        assert (limits.most, limits.fewest) == (9, 3)
        assert agility_card_limit(state, plane) is None  # 8.4.2: not tracked
        # Provenance last: it skips on a clone without the rule documents.
        assert says("an A6M2’s Agility Rating at altitude level 2 is 9 and its speed rating is 6.")

    def test_may_never_hold_fewer_than_three(self) -> None:
        state = next_turn(duel(attacker="A6M2", altitude=2), "A")
        state, _ = run(state, {"type": "ReportHand", "aircraft": "a1", "cards": 4})
        state, _ = run(state, {"type": "PlayCard", "aircraft": "a1", "card": "maneuvering"})
        with pytest.raises(RuleError) as info:
            run(state, {"type": "PlayCard", "aircraft": "a1", "card": "tight_turn"})
        assert info.value.rule.endswith("8.3")

    def test_end_of_turn_hand_above_nine_is_refused(self) -> None:
        state = next_turn(duel(attacker="A6M2", altitude=2), "A")
        state, _ = run(state, {"type": "ReportHand", "aircraft": "a1", "cards": 10})
        with pytest.raises(RuleError) as info:
            run(state, {"type": "EndTurn", "side": "A"})
        assert info.value.rule.endswith("8.5")
        state, _ = run(state, {"type": "Discard", "aircraft": "a1", "count": 1})
        state, _ = run(state, {"type": "EndTurn", "side": "A"})
        assert state.active_side is None


class TestS8_4_4_P51:
    """8.4.4: "a P-51D-10 Leader at altitude level 18 has an Agility Rating of 5 and a Speed
    rating of 8. It may hold up to 8 cards in its hand, but may play no more than 5 Agility
    Cards in the course of a turn.\""""

    def test_example(self) -> None:
        state = duel(attacker="P-51D-10", altitude=18)
        plane = state.aircraft["a1"]
        assert (hand_limits(state, plane).most, agility_card_limit(state, plane)) == (8, 5)
        # Provenance last: it skips on a clone without the rule documents.
        assert says("a P-51D-10 Leader at altitude level 18 has an Agility Ratingof 5 and a "
                    "Speed rating of 8.")  # fmt: skip

    def test_sixth_agility_card_is_refused(self) -> None:
        state = next_turn(duel(attacker="P-51D-10", altitude=18), "A")
        state, _ = run(state, {"type": "ReportHand", "aircraft": "a1", "cards": 8})
        for card in ("maneuvering", "tight_turn", "barrel_roll", "half_loop", "scissors"):
            state, events = run(state, {"type": "PlayCard", "aircraft": "a1", "card": card})
            assert of_type(events, CardPlayed)[0].agility_card
        assert state.aircraft["a1"].agility_played == 5
        with pytest.raises(RuleError) as info:
            run(state, {"type": "PlayCard", "aircraft": "a1", "card": "maneuvering"})
        assert info.value.rule.endswith("8.4")
        # 8.4: only Agility Cards are limited, not the total.
        state, events = run(state, {"type": "PlayCard", "aircraft": "a1", "card": "other"})
        assert not of_type(events, CardPlayed)[0].agility_card
        # A new turn resets the count.
        state = next_turn(state, "B")
        assert state.aircraft["a1"].agility_played == 0


class TestS8_4_1_WhichCardsCount:
    def _p51(self):  # type: ignore[no-untyped-def]
        state = next_turn(duel(attacker="P-51D-10", altitude=18), "A")
        return run(state, {"type": "ReportHand", "aircraft": "a1", "cards": 8})[0]

    def test_ace_pilot_counts_only_in_response_to_an_agility_card(self) -> None:
        state = self._p51()
        state, ev1 = run(state, {"type": "PlayCard", "aircraft": "a1", "card": "ace_pilot",
                                 "response_to": "tight_turn"})  # fmt: skip
        state, ev2 = run(state, {"type": "PlayCard", "aircraft": "a1", "card": "ace_pilot",
                                 "response_to": "in_my_sights"})  # fmt: skip
        assert [of_type(e, CardPlayed)[0].agility_card for e in (ev1, ev2)] == [True, False]

    def test_vertical_roll_counts_unless_diving(self) -> None:
        state = self._p51()
        roll = {"type": "PlayVerticalRoll", "aircraft": "a1", "negated": True}
        state, climb = run(state, {**roll, "direction": "climb"})
        state, dive = run(state, {**roll, "direction": "dive"})
        assert of_type(climb, CardPlayed)[0].agility_card
        assert not of_type(dive, CardPlayed)[0].agility_card
        assert state.aircraft["a1"].agility_played == 1

    def test_s8_4_3_discards_do_not_count(self) -> None:
        state = self._p51()
        state, _ = run(state, {"type": "Discard", "aircraft": "a1", "count": 2})
        assert state.aircraft["a1"].agility_played == 0


def test_s8_5_altitude_change_can_overfill_the_hand() -> None:
    """8.5: after a dive the Leader must play or discard down to its limit by turn's end."""
    state = next_turn(duel(attacker="Spitfire", altitude=5), "A")
    assert state.aircraft["a1"].hand == 6  # the full hand (reporting 6 changes nothing)
    state, _ = run(state, {"type": "Dive", "element": "A", "levels": 2})
    assert state.aircraft["a1"].hand == 8
    with pytest.raises(RuleError, match="at most 6"):
        run(state, {"type": "EndTurn", "side": "A"})


def test_s8_2_a_hand_reported_at_its_size_is_not_listed_and_changes_nothing() -> None:
    """Issue 41 item 8: umpire holds the Leader's hand size (8.2); a report of that size
    changes nothing, so it is outside the listed schema and refused `nothing_to_do`."""
    state = next_turn(duel(attacker="Spitfire", altitude=5), "A")
    held = state.aircraft["a1"].hand
    listed = {a.type: a for a in legal_actions(RULESET, state, Role.PLAYER, ended=False)}
    cases = listed["ReportHand"].schema["anyOf"]
    mine = next(c for c in cases if c["properties"]["aircraft"]["enum"] == ["a1"])
    assert held not in mine["properties"]["cards"]["enum"]
    with pytest.raises(NothingToDo, match="holds"):
        run(state, {"type": "ReportHand", "aircraft": "a1", "cards": held})
    state, _ = run(state, {"type": "ReportHand", "aircraft": "a1", "cards": held - 1})
    assert state.aircraft["a1"].hand == held - 1
