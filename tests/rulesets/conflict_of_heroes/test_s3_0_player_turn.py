"""3.0 Player WhoseTurn: AP action, CAP action, card action, stall, pass; consecutive passes end
the round (003_368c69a730e6e14a.txt 3.0, 3.1, 3.2.1, 3.2.2, 3.3)."""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.conflict_of_heroes.setups import (
    BLUE,
    ai,
    ai_turn,
    card,
    every,
    one,
    run,
    state,
    unit,
)
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.conflict_of_heroes.events import (
    AiPassed,
    DeckReshuffled,
    PlayerActed,
    RoundEnded,
    SpentCheckMade,
)
from umpire.engine.rulesets.conflict_of_heroes.terms import WhoseTurn

DECK = (card(1, BLUE, 3), card(2, BLUE, 5, "AI closest to Control Marker -> Move"))


def _s(**kw):  # type: ignore[no-untyped-def]
    s = state([unit("U1", "0508"), unit("U2", "0509", fresh=False), ai("A", "0502")], DECK)
    return msgspec.structs.replace(s, **kw) if kw else s


def test_unit_action_needs_a_fresh_unit() -> None:
    """3.1: an AP action is taken with a fresh Unit; a spent one is refused."""
    with pytest.raises(RuleError, match="U2 is spent") as info:
        run(_s(), {"type": "UnitAction", "units": ["U2"], "action": "fire", "ap": 2}, [[1]])
    assert info.value.rule.endswith("3.1")


def test_command_action_by_a_spent_unit_makes_no_check_and_keeps_its_status() -> None:
    """3.2.2: any fresh or spent Unit, paid only with CAPs, no AP Spent Check, status kept."""
    events, s = run(
        _s(),
        {
            "type": "CommandAction",
            "units": ["U2"],
            "action": "move",
            "caps": 2,
            "moves": [{"unit": "U2", "hex": "0510", "facing": 0}],
        },
    )
    assert every(events, SpentCheckMade) == []
    assert s.caps == 1 and not s.unit("U2").fresh and s.unit("U2").hex == "0510"  # type: ignore[union-attr]
    assert s.turn is WhoseTurn.AI


def test_spending_caps_that_are_not_there_is_refused() -> None:
    """3.2.1: the CAPs spent must be on the CAP track."""
    with pytest.raises(RuleError, match="4 CAPs are not there: the player has 3"):
        run(_s(), {"type": "CommandAction", "units": ["U1"], "action": "fire", "caps": 4})
    with pytest.raises(RuleError, match="CAPs are not there"):
        run(_s(), {"type": "UnitAction", "units": ["U1"], "action": "fire", "ap": 1, "caps": 5})


def test_spending_more_aps_than_a_unit_has_is_refused() -> None:
    """3.1: a Unit has max_unit_aps (7) APs for one action."""
    with pytest.raises(RuleError, match="8 APs are more than a Unit has"):
        run(_s(), {"type": "UnitAction", "units": ["U1"], "action": "move", "ap": 8})


def test_card_action_checks_only_when_aps_are_paid() -> None:
    """3.3: 'Make an AP Spent Check if you used APs to pay for the card action.'"""
    events, _ = run(_s(), {"type": "CardAction", "card": "Smoke", "caps": 1})
    assert every(events, SpentCheckMade) == []
    events, s = run(
        _s(), {"type": "CardAction", "card": "Assault", "units": ["U1"], "ap": 3}, [[1]]
    )
    assert one(events, SpentCheckMade).spent == ("U1",) and not s.unit("U1").fresh  # type: ignore[union-attr]
    with pytest.raises(RuleError, match="spent"):
        run(_s(), {"type": "CardAction", "card": "Assault", "units": ["U2"], "ap": 1}, [[1]])


def test_stall_spends_one_ap_of_a_fresh_unit_or_one_cap() -> None:
    """3.0 Stall: 1 AP with a fresh unit (AP Spent Check at cost 1) or 1 CAP."""
    events, s = run(_s(), {"type": "Stall", "unit": "U1"}, [[1]])
    assert one(events, PlayerActed).ap == 1 and one(events, SpentCheckMade).ap_cost == 1
    events, s = run(_s(), {"type": "Stall"})
    assert one(events, PlayerActed).caps == 1 and s.caps == 2
    with pytest.raises(RuleError, match="no CAPs are left"):
        run(_s(caps=0), {"type": "Stall"})
    with pytest.raises(RuleError, match="spent"):
        run(_s(), {"type": "Stall", "unit": "U2"}, [[1]])


def test_turns_alternate() -> None:
    """3.0 / 4.0: one player action, then the AI turn; neither may go twice."""
    _, s = run(_s(), {"type": "Pass"})
    with pytest.raises(RuleError, match="AI's turn") as early:
        run(s, {"type": "Pass"})
    with pytest.raises(RuleError, match="player's turn") as info:
        run(_s(), {"type": "TakeAiTurn"}, [[1]])
    assert info.value.rule.endswith("4.0")
    # The refusals say the commands in words, as the listing offers them, never by their
    # code names ("TakeAiTurn", "Pass").
    assert "take the AI's turn (draw an Order Card" in str(early.value), early.value
    assert "(or pass)" in str(info.value), info.value
    for refusal in (early.value, info.value):
        assert "TakeAiTurn" not in str(refusal) and "Pass" not in str(refusal), refusal


def test_player_pass_then_ai_pass_ends_the_round() -> None:
    """3.0: 'if you and the AI pass consecutively, the round is over': all fresh again,
    CAPs reset, discards reshuffled."""
    s = _s(caps=0)
    _, s = run(s, {"type": "Pass"})
    events, s = run(s, {"type": "TakeAiTurn"}, [[1]])  # card 1 has no orders: the AI passes
    one(events, AiPassed)
    ended = one(events, RoundEnded)
    assert ended.round == 2 and s.round == 2 and s.caps == 3
    assert all(u.fresh for u in s.units) and s.turn is WhoseTurn.PLAYER
    assert one(events, DeckReshuffled).cards == (1,) and s.deck == (1, 2)


def test_ai_pass_then_player_pass_ends_the_round() -> None:
    """3.0: the AI passes, then the player passes: the round is over."""
    _, s = run(_s(), {"type": "Stall"})
    events, s = ai_turn(s, 1)
    one(events, AiPassed)
    assert every(events, RoundEnded) == []
    events, s = run(s, {"type": "Pass"})
    assert one(events, RoundEnded).round == 2 and s.round == 2


def test_passes_separated_by_an_action_do_not_end_the_round() -> None:
    """3.0: only consecutive passes end the round."""
    s = state([unit("U1", "0508"), ai("A", "0502")], DECK, objectives=[])
    _, s = run(s, {"type": "Pass"})
    events, s = run(s, {"type": "TakeAiTurn"}, [[1]])  # passes: round ends
    assert s.round == 2
    _, s = run(s, {"type": "Stall"})
    events, s = run(s, {"type": "TakeAiTurn"}, [[1]])
    one(events, AiPassed)
    _, s = run(s, {"type": "Stall"})
    events, s = run(s, {"type": "TakeAiTurn"}, [[1]])
    assert every(events, RoundEnded) == [] and s.round == 2


def test_reshuffle_each_round_off_keeps_the_discards_out() -> None:
    """README ledger 3.0 rounds: the seed is silent on the deck at a round's end; the default
    returns the discards (the test above), `reshuffle_each_round: false` leaves them out."""
    s = state([unit("U1", "0508"), unit("U2", "0509", fresh=False), ai("A", "0502")], DECK,
              reshuffle_each_round=False)  # fmt: skip
    _, s = run(s, {"type": "Pass"})
    events, s = run(s, {"type": "TakeAiTurn"}, [[1]])
    one(events, RoundEnded)
    assert every(events, DeckReshuffled) == [] and s.discards == (1,)
