"""Views and redaction: nothing in the state is secret; the deck's contents are public as
at the table, its future order does not exist (003_368c69a730e6e14a.txt; README
'Card draws (and secrets)')."""

from __future__ import annotations

from tests.rulesets.conflict_of_heroes.setups import ai, card, one, run, state, unit
from umpire.engine.explain import explain
from umpire.engine.roles import Role
from umpire.engine.rulesets.conflict_of_heroes import RULESET
from umpire.engine.rulesets.conflict_of_heroes.events import AiTargetSelected, OrderCardDrawn


def test_every_role_sees_the_same_public_state() -> None:
    """The deck's remaining, discarded and removed cards are visible to every role."""
    s = state([ai("A", "0505"), unit("U", "0508")], (card(1), card(2), card(3)))
    events, s = run(s, {"type": "UnitAction", "units": ["U"], "action": "fire", "ap": 1}, [[2]])
    player = RULESET.view(s, Role.PLAYER)
    assert player == RULESET.view(s, Role.SPECTATOR) == RULESET.view(s, Role.REFEREE)
    assert list(player["deck"]) == [1, 3] and list(player["discards"]) == [2]
    assert player["deck_remaining"] == 2 and RULESET.secret_fields == ()
    drawn = one(events, OrderCardDrawn)
    assert RULESET.redact(drawn, Role.SPECTATOR) is drawn


def test_no_state_field_holds_a_deck_order() -> None:
    """Draws are fresh picks: the state keeps the remaining cards sorted, never an order."""
    s = state([ai("A", "0505"), unit("U", "0508")], (card(3), card(1), card(2)))
    assert s.deck == (1, 2, 3)
    _, s = run(s, {"type": "UnitAction", "units": ["U"], "action": "fire", "ap": 1}, [[1]])
    assert s.deck == (2, 3) and list(s.deck) == sorted(s.deck)


def test_an_order_shows_the_fields_its_action_uses() -> None:
    """7.0 / 4.0: a card's "Counteraction 1" reads by its number alone (no "Relation:
    closest" the parse defaulted), and an AI order has no "Number: 0"; the player's
    command field `ap` reads "APs" (3.1), not "Ap"."""
    deck = (card(1, "blue", 4, "Counteraction 1", tactical=("AI closest to Unit -> Fire",)),)
    shown = RULESET.view(state([ai("A", "0505"), unit("U", "0508")], deck), Role.PLAYER)
    (pointer,) = shown["cards"][0]["priority_orders"]
    (fire,) = shown["cards"][0]["tactical_orders"]
    assert pointer == {"text": "Counteraction 1", "action": "counteraction", "number": 1}
    assert "number" not in fire and fire["relation"] == "closest", fire
    assert RULESET.labels.label("ap") == "APs"


def test_a_moves_target_says_no_roll_needed() -> None:
    """'Executing an AI Order' (move): the target of a move needs no roll, so `explain`'s
    details say no "needed: 0" (a fire's target says its number, 5.2)."""
    moved = AiTargetSelected(rule="r", unit="A", target="U", distance=3, explanation="moves")
    fired = AiTargetSelected(rule="r", unit="A", target="U", distance=3, needed=8)
    assert "needed" not in " ".join(explain([moved], 1).lines())
    assert "  - needed: 8" in explain([fired], 1).lines()
