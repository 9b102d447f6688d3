"""1, 2.6: attack cards are played by the moving side.

The seed keeps the base game's turn (1: "all the rules in the Down in Flames rulesbooklet
are in effect") and speaks of it in those terms: a VERTICAL ROLL is "played as a response
card" or "as an attack card" (2.6, 2.6.3), and an Element answering with a response follows
the Element that "played the last IN MY SIGHTS or OUT OF THE SUN card" (2.6.5). Nothing in
it lets the side that is not moving play an attack card: it answers with responses. So an
Attack by an aircraft of the other side, or between moves, is refused with a typed error
that says who may attack now, and it is not listed (README ledger, 1).
"""

from __future__ import annotations

import pytest

from tests.rulesets.down_in_flames.setups import duel, engaged, next_turn, of_type, run
from umpire.engine.actions import legal_actions
from umpire.engine.errors import RuleError
from umpire.engine.roles import Role
from umpire.engine.rulesets.down_in_flames import RULESET
from umpire.engine.rulesets.down_in_flames.events import AttackResolved
from umpire.engine.rulesets.down_in_flames.state import State


def _attack(attacker: str, target: str) -> dict[str, object]:
    return {"type": "Attack", "attacker": attacker, "target": target, "card": "in_my_sights",
            "hits": 2, "bursts": 1}  # fmt: skip


def _attackers(state: State) -> set[str]:
    listed = legal_actions(RULESET, state, Role.PLAYER, ended=False)
    attack = next((a for a in listed if a.type == "Attack"), None)
    if attack is None:
        return set()
    schema = attack.schema
    return {v["properties"]["attacker"]["enum"][0] for v in schema.get("anyOf", [schema])}


def _both_placed() -> State:
    """Side A's move: a1 (Spitfire) tails b1 (Bf 109), and b1 is Advantaged on a1."""
    state = engaged(duel(), "a1", "b1", "tailing")
    return engaged(state, "b1", "a1", "advantaged")


def test_the_side_not_moving_may_not_attack() -> None:
    """In side A's move, b1's IN MY SIGHTS on a1 (2 hits, 1 burst) is refused, naming the
    side that may attack and how side B answers; only a1 is listed as an attacker. Before:
    it was accepted and listed (a reported card play)."""
    state = _both_placed()
    with pytest.raises(RuleError, match="side A is moving: only side A's aircraft") as info:
        run(state, _attack("b1", "a1"), [[4]])
    assert "answers with response cards" in str(info.value)
    assert info.value.rule.endswith(" 1")
    assert _attackers(state) == {"a1"}


def test_between_moves_no_one_attacks_and_in_its_own_move_b1_does() -> None:
    """After side A's EndTurn no side is moving: a1's attack is refused (BeginTurn first).
    In side B's move b1's attack on a1 is taken: the 3.2 resolution rolls its die (5)."""
    state = _both_placed()
    state, _ = run(state, {"type": "EndTurn", "side": "A"})
    with pytest.raises(RuleError, match="no side is moving"):
        run(state, _attack("a1", "b1"), [[4]])
    assert _attackers(state) == set()
    state = next_turn(state, "B")
    assert _attackers(state) == {"b1"}
    _, events = run(state, _attack("b1", "a1"), [[5]])
    assert of_type(events, AttackResolved)


def test_a_vertical_roll_as_an_attack_card_is_the_movers_only() -> None:
    """2.6.3 sets a VERTICAL ROLL "played as a response card" against one "played as an
    attack card": in side A's move, b1's roll as an attack card (response false, climbing)
    is refused, naming the response it may play instead; as a response it is taken (b1
    climbs from 5 to 6). b1's listed rolls are responses only; a1's may be either."""
    state = _both_placed()
    roll = {"type": "PlayVerticalRoll", "aircraft": "b1", "direction": "climb", "response": False}
    with pytest.raises(RuleError, match="may play it as a response card") as info:
        run(state, roll)
    assert info.value.rule.endswith(" 1")
    listed = legal_actions(RULESET, state, Role.PLAYER, ended=False)
    schema = next(a.schema for a in listed if a.type == "PlayVerticalRoll")
    variants = schema.get("anyOf", [schema])
    assert {v["properties"]["aircraft"]["enum"][0] for v in variants} == {"a1", "b1"}
    for variant in variants:
        props = variant["properties"]
        if props["aircraft"]["enum"] == ["b1"]:
            assert props["response"]["enum"] == [True]
        else:
            assert "enum" not in props.get("response", {})
    state, _ = run(state, {**roll, "response": True})
    assert state.elements["B"].altitude == 6
