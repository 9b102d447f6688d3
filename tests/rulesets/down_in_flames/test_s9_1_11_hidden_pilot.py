"""9.1.11: a command that only a hidden pilot can allow is accepted whatever the pilot, and
decided on it: void (ClaimVoided) where the pilot does not allow it, the characteristics
still hidden (README I25). Issue #42: `DeclareAcePilot` on an unknown pilot was refused
"not an Ace Leader", and `ReportHand` then `EndTurn` accepted or refused by the hidden
quality, a probe that wrote nothing."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from tests.rulesets.down_in_flames.setups import entry, make_state, next_turn, of_type, run
from umpire.engine.actions import legal_actions
from umpire.engine.errors import RuleError
from umpire.engine.roles import Role
from umpire.engine.rulesets.down_in_flames import RULESET
from umpire.engine.rulesets.down_in_flames.events import (
    AcePilotDeclared,
    ClaimVoided,
    PilotRevealed,
    TurnEnded,
)
from umpire.engine.rulesets.down_in_flames.state import State

QUALITIES = ("recruit", "green", "regular", "veteran", "ace")


def _duel(quality: str) -> State:
    """Side A's Spitfire against side B's P-51D-10 at level 18 (Agility 5, Speed 8: a
    regular holds 8, a recruit 6, a veteran or an Ace 9), b1's pilot hidden from the player."""
    return make_state(
        [entry("a1", "Spitfire", "A", "A", "leader", hand=6),
         entry("b1", "P-51D-10", "B", "B", "leader", hand=6, pilot_quality=quality)],
        starting_altitude=18,
    )  # fmt: skip


def _public(events: list[msgspec.Struct]) -> list[str]:
    return [type(e).__name__ for e in events]


@pytest.mark.parametrize("quality", QUALITIES)
def test_ace_declared_for_a_hidden_pilot_is_accepted_whatever_it_is(quality: str) -> None:
    state = next_turn(_duel(quality), "B")
    after, events = run(state, {"type": "DeclareAcePilot", "aircraft": "b1"})
    if quality == "ace":  # 9.1.8: the declaration shows the Ace
        assert _public(events) == ["PilotRevealed", "AcePilotDeclared"]
        assert of_type(events, PilotRevealed)[0].value == "ace"
        return
    # Not an Ace: void, and the quality stays hidden.
    assert _public(events) == ["ClaimVoided"]
    voided = of_type(events, ClaimVoided)[0]
    assert voided.command == "DeclareAcePilot" and voided.rule.endswith(" 9.1.8")
    assert not of_type(events, AcePilotDeclared) and not after.aircraft["b1"].ace_card_used
    assert RULESET.view(after, Role.PLAYER)["aircraft"]["b1"]["pilot"]["quality"] == "unknown"


@pytest.mark.parametrize("cards", [5, 7, 9])
@pytest.mark.parametrize("quality", QUALITIES)
def test_end_turn_over_a_hidden_hand_limit_is_accepted_and_void(quality: str, cards: int) -> None:
    state = next_turn(_duel(quality), "B")
    state, _ = run(state, {"type": "ReportHand", "aircraft": "b1", "cards": cards})
    _, events = run(state, {"type": "EndTurn", "side": "B"})
    most = {"recruit": 6, "green": 6, "regular": 8, "veteran": 9, "ace": 9}[quality]
    if cards <= most:
        assert _public(events) == ["TurnEnded"]
        return
    assert _public(events) == ["ClaimVoided"] and not of_type(events, TurnEnded)
    explanation = of_type(events, ClaimVoided)[0].explanation
    assert "at most" not in explanation and "depend on its pilot" in explanation


def test_end_turn_above_every_pilot_s_limit_is_refused_naming_no_limit() -> None:
    messages = set()
    for quality in QUALITIES:
        state = next_turn(_duel(quality), "B")
        state, _ = run(state, {"type": "ReportHand", "aircraft": "b1", "cards": 10})
        with pytest.raises(RuleError) as refused:
            run(state, {"type": "EndTurn", "side": "B"})
        messages.add(refused.value.message)
    assert len(messages) == 1, messages


def test_a_known_pilot_s_limit_is_refused_with_its_number() -> None:
    state = next_turn(_duel("recruit"), "B")
    state, _ = run(state, {"type": "ReportHand", "aircraft": "b1", "cards": 7})
    state, _ = run(state, {"type": "RevealPilot", "aircraft": "b1"})
    with pytest.raises(RuleError, match="may hold at most 6"):
        run(state, {"type": "EndTurn", "side": "B"})


def test_the_8_3_minimum_of_a_hidden_pilot_never_turns_on_its_quality() -> None:
    """8.3 with 9.1.11 (README I25): a loaded Leader of Agility 4 and Speed 2 keeps 1 card
    with a regular pilot and none with an Ace (9.1.8's +1 to both, 9.2.1's -2 above 4), so
    judged on the hidden pilot, spending its last card was accepted or refused by the
    quality. While the quality is secret it keeps the most any quality would: one answer."""
    card = {"name": "L", "aircraft_class": "fighter", "ceiling_level": 10, "defense": 6,
            "hit_value": 8, "sight": "simple", "characteristics": [],
            "performance": [{"low": 1, "high": 10, "agility": 4, "speed": 2, "hp": 3}]}  # fmt: skip
    answers = set()
    for quality in QUALITIES:
        state = make_state(
            [entry("a1", "Spitfire", "A", "A", "leader", hand=6),
             entry("b1", "L", "B", "B", "leader", hand=1, loaded=True, pilot_quality=quality)],
            starting_altitude=5, custom_aircraft={"L": card},
        )  # fmt: skip
        state = next_turn(state, "B")
        try:
            _, events = run(state, {"type": "PlayCard", "aircraft": "b1", "card": "other"})
            answers.add(("accepted", tuple(_public(events))))
        except RuleError as refused:
            answers.add(("refused", refused.message))
    assert len(answers) == 1, answers
    assert next(iter(answers))[0] == "refused"


def _vertical_roll_directions(quality: str) -> list[Any]:
    """The directions the player is offered for b1's VERTICAL ROLL (2.6) once b1, a Leader
    whose Speed exceeds its Agility (8.4), has played 5 Agility Cards this turn."""
    state = next_turn(_duel(quality), "A")
    b1 = msgspec.structs.replace(state.aircraft["b1"], agility_played=5)
    state = msgspec.structs.replace(state, aircraft={**state.aircraft, "b1": b1})
    listed = legal_actions(RULESET, state, Role.PLAYER, ended=False)
    (rolls,) = [a.schema for a in listed if a.type == "PlayVerticalRoll"]
    return [v["properties"]["direction"]["enum"] for v in rolls.get("anyOf", [rolls])]


def test_the_vertical_rolls_listed_for_a_hidden_pilot_never_turn_on_its_quality() -> None:
    """The listing read the hidden pilot's own Agility Card limit (8.4: an Ace's Agility is
    one more): a climb was listed for b1 as an Ace and not as a regular, so the player's
    own list of actions told b1's pilot (found by the actions contract test, 2026-11-29).
    It now judges as the rules do, on the pilots the player may think b1 has."""
    assert len({str(_vertical_roll_directions(q)) for q in QUALITIES}) == 1
