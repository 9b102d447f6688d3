"""The order grammar (orders.py) for the seed's order shapes, 'Executing an AI Order'
(003_368c69a730e6e14a.txt), and the SAMPLE deck that exercises every element."""

from __future__ import annotations

import pytest

from tests.rulesets.conflict_of_heroes.setups import card, state, unit
from umpire.engine.errors import InvalidSetup
from umpire.engine.rulesets.conflict_of_heroes.orders import (
    OrderAction,
    OrderSyntaxError,
    Relation,
    Status,
    TargetKind,
    parse_order,
)
from umpire.engine.rulesets.conflict_of_heroes.sample_deck import SAMPLE_DECK
from umpire.engine.rulesets.conflict_of_heroes.setup import Setup, initial_state
from umpire.testing.support.seeds import seed_text


def test_the_seeds_example_order_parses() -> None:
    """'Ex: Highest FP AI closest to Lowest DV Unit → Fire' (the seed's own example)."""
    o = parse_order("Highest FP AI closest to Lowest DV Unit → Fire")
    assert (o.action, o.highest_fp, o.relation, o.target, o.lowest_dv) == (
        OrderAction.FIRE,
        True,
        Relation.CLOSEST,
        TargetKind.UNIT,
        True,
    )
    # Provenance last: it skips on a clone without the rule documents.
    assert "Highest FP AI closest to Lowest DV Unit → Fire" in seed_text("003_368c69a730e6e14a.txt")


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("Fresh Unhit AI farthest from Unit -> Move", "ai_status", (Status.FRESH, Status.UNHIT)),
        ("Spent AI closest to Unit -> Move", "ai_status", (Status.SPENT,)),
        ("Hit AI closest to Unit -> Rally", "action", OrderAction.RALLY),
        ("AI farthest from Unit -> Low Risk Move", "relation", Relation.FARTHEST),
        ("AI closest to Control Marker -> Move", "target", TargetKind.CONTROL_MARKER),
        ("AI closest to Objective -> Move", "target", TargetKind.OBJECTIVE),
        ("AI closest to Objective OBJ-A -> Move", "objective", "OBJ-A"),
        ("AI closest to Hit Spent Unit -> Fire", "target_status", (Status.HIT, Status.SPENT)),
        ("AI closest to Unit -> Fire Long Range", "long_range", True),
        ("AI closest to Unit -> Low Risk Move", "action", OrderAction.LOW_RISK_MOVE),
        ("Counteraction 2", "number", 2),
        ("mission order 3", "action", OrderAction.MISSION_ORDER),
    ],
)
def test_each_grammar_element(text: str, field: str, value: object) -> None:
    """Each element of the grammar reads into its field."""
    assert getattr(parse_order(text), field) == value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AI closest to Unit", "no '->'"),
        ("Bold AI closest to Unit -> Fire", "not an AI condition"),
        ("AI near Unit -> Fire", "closest to"),
        ("AI closest to Tree -> Move", "the target is"),
        ("AI closest to Unit -> Dance", "the action is"),
        ("AI closest to Control Marker -> Fire", "needs a Unit"),
        ("Fresh Spent AI closest to Unit -> Fire", "both fresh and spent"),
        ("Unit closest to Unit -> Fire", "does not name the AI"),
    ],
)
def test_bad_orders_are_refused_with_the_reason(text: str, message: str) -> None:
    """An order that does not follow the grammar says what fits."""
    with pytest.raises(OrderSyntaxError, match=message):
        parse_order(text)


def test_sample_deck_exercises_every_grammar_element() -> None:
    """The SAMPLE deck covers every action, relation, target and status, both colours,
    Mission Track requirements and the Remain Fresh symbol."""
    orders = [parse_order(t) for c in SAMPLE_DECK for t in (*c.priority_orders, *c.tactical_orders)]
    assert {o.action for o in orders} == set(OrderAction)
    assert {o.relation for o in orders} == set(Relation)
    assert {o.target for o in orders if o.action is not OrderAction.COUNTERACTION} >= set(
        TargetKind
    )
    assert {s for o in orders for s in o.ai_status} == set(Status)
    assert {s for o in orders for s in o.target_status} == set(Status)
    assert any(o.highest_fp for o in orders) and any(o.lowest_dv for o in orders)
    assert any(o.long_range for o in orders) and any(o.objective for o in orders)
    assert {c.colour for c in SAMPLE_DECK} == {"blue", "green"}
    assert any(c.remain_fresh for c in SAMPLE_DECK)
    assert any(c.mission_requirement is not None for c in SAMPLE_DECK)
    assert initial_state(Setup()).deck == tuple(range(1, 11))


def test_setup_refuses_a_bad_order_naming_the_card() -> None:
    """A card with an order outside the grammar fails the setup, naming the card."""
    with pytest.raises(InvalidSetup, match="card 7"):
        state([unit("U", "0505")], [card(7, "blue", 3, "AI goes somewhere")])


def test_setup_refuses_duplicate_cards_and_stacked_ai() -> None:
    """Card numbers are unique; AIs do not start stacked (5.3.1)."""
    with pytest.raises(InvalidSetup, match="card number 1 appears twice"):
        state([unit("U", "0505")], [card(1), card(1)])
    from tests.rulesets.conflict_of_heroes.setups import ai

    with pytest.raises(InvalidSetup, match="AIs will not stack"):
        state([ai("A", "0505"), ai("B", "0505")])
