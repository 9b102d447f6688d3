"""3.1.1 'AP Spent Check' for Units and AIs, with 3.2.1 CAP supplementation, the Remain
Fresh symbol and group actions (003_368c69a730e6e14a.txt)."""

from __future__ import annotations

from tests.rulesets.conflict_of_heroes.setups import (
    BLUE,
    GREEN,
    ai,
    ai_turn,
    card,
    every,
    one,
    run,
    state,
    unit,
)
from umpire.engine.rulesets.conflict_of_heroes.events import OrderCardDrawn, SpentCheckMade

DECK = (
    card(1, BLUE, 3),
    card(2, BLUE, 5, remain_fresh=True),
    card(3, BLUE, 2),
)


def _act(ap: int, caps: int = 0, draw: int = 1, units: tuple[str, ...] = ("U1",)):  # type: ignore[no-untyped-def]
    s = state([unit("U1", "0508"), unit("U2", "0509"), ai("A", "0502")], DECK)
    cmd = {"type": "UnitAction", "units": list(units), "action": "fire", "ap": ap, "caps": caps}
    return run(s, cmd, [[draw]])


def test_cost_equal_to_the_ap_spent_number_marks_the_unit_spent() -> None:
    """3.1.1: 'equal to or greater than the AP Spent Number' -> spent."""
    events, s = _act(ap=3, draw=1)
    check = one(events, SpentCheckMade)
    assert (check.card, check.ap_spent_number, check.spent) == (1, 3, ("U1",))
    assert not s.unit("U1").fresh  # type: ignore[union-attr]


def test_cost_below_the_ap_spent_number_leaves_the_unit_fresh() -> None:
    """3.1.1: a cost below the AP Spent Number leaves the unit fresh."""
    events, s = _act(ap=2, draw=1)
    assert one(events, SpentCheckMade).spent == ()
    assert s.unit("U1").fresh  # type: ignore[union-attr]


def test_cap_supplementation_reduces_the_ap_cost_checked() -> None:
    """3.2.1: a 4-AP action paid 2 AP + 2 CAP is checked at 2 AP against 3: fresh; the CAPs
    are spent from the track."""
    events, s = _act(ap=2, caps=2, draw=1)
    check = one(events, SpentCheckMade)
    assert check.ap_cost == 2 and check.spent == ()
    assert s.unit("U1").fresh and s.caps == 1  # type: ignore[union-attr]


def test_remain_fresh_symbol_keeps_the_unit_fresh_whatever_the_cost() -> None:
    """3.1.1: 'Units drawing an AP Spent Check card with the symbol remain fresh'."""
    events, s = _act(ap=7, draw=2)
    check = one(events, SpentCheckMade)
    assert check.remain_fresh and check.ap_cost >= check.ap_spent_number and check.spent == ()
    assert s.unit("U1").fresh  # type: ignore[union-attr]
    # One unit acted: its reason says so, not "the unit(s) remain fresh".
    assert check.candidates[0].reason.endswith("Remain Fresh symbol: the unit remains fresh")


def test_group_action_failing_marks_all_involved_units_spent() -> None:
    """3.1.1: 'if the Spent Action Check fails, all of the involved Units are marked spent'."""
    events, s = _act(ap=2, draw=3, units=("U1", "U2"))
    assert one(events, SpentCheckMade).spent == ("U1", "U2")
    assert not s.unit("U1").fresh and not s.unit("U2").fresh  # type: ignore[union-attr]


def test_group_action_passing_leaves_all_fresh() -> None:
    """3.1.1: a group action that passes its check leaves every unit fresh."""
    events, s = _act(ap=2, draw=1, units=("U1", "U2"))
    assert one(events, SpentCheckMade).spent == ()
    assert s.unit("U1").fresh and s.unit("U2").fresh  # type: ignore[union-attr]


def test_draw_face_is_the_kth_remaining_card_and_is_discarded() -> None:
    """Card draws: face k is the k-th remaining card in ascending order; it is discarded."""
    _, s = _act(ap=1, draw=2)
    assert s.deck == (1, 3) and s.discards == (2,)
    s2 = state([unit("U1", "0508"), ai("A", "0502")], DECK)
    _, s2 = run(s2, {"type": "UnitAction", "units": ["U1"], "action": "move", "ap": 1}, [[3]])
    assert s2.discards == (3,)


def test_ai_green_card_action_makes_a_spent_check() -> None:
    """4.0 / 3.1.1: an AI executing a Green Action Order makes an AP Spent Check with the
    action's AP cost (here a 1-AP move against AP Spent Number 1: spent)."""
    deck = (card(1, GREEN, 6, "AI closest to Unit -> Move"), card(2, BLUE, 1))
    s = state([unit("U", "0509"), ai("A", "0502")], deck)
    events, s = ai_turn(s, 1, [1])
    draws = every(events, OrderCardDrawn)
    assert [d.purpose for d in draws] == ["ai_turn", "spent_check"]
    check = one(events, SpentCheckMade)
    assert (check.side, check.units, check.ap_cost, check.spent) == ("ai", ("A",), 1, ("A",))
    assert not s.unit("A").fresh  # type: ignore[union-attr]


def test_ai_blue_card_action_makes_no_spent_check() -> None:
    """4.0: after a Blue Command Order the AI does not make an AP Spent Check."""
    deck = (card(1, BLUE, 6, "AI closest to Unit -> Move"), card(2, BLUE, 1))
    s = state([unit("U", "0509"), ai("A", "0502")], deck)
    events, s = ai_turn(s, 1)
    assert every(events, SpentCheckMade) == [] and s.unit("A").fresh  # type: ignore[union-attr]
    assert s.unit("A").hex == "0503"  # type: ignore[union-attr]
