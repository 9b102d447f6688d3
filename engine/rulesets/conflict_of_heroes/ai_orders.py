"""Executing an AI Order (5.0): which eligible AI executes it (5.1.1) and what it does.

Seed 003_368c69a730e6e14a.txt 5.0 and 5.1.1. Among the eligible AIs (eligibility.py), an
order with "Highest FP AI" keeps those with the highest firepower; "closest" keeps the AI
closest to its closest target, "farthest" the AI farthest from its closest target; then
5.1.1: un-hit before hit; to move, the lowest cost to move; to fire, the highest
firepower, the lowest cost to fire, the highest DM hex; then a 1D6 random choice.
"""

from __future__ import annotations

from dataclasses import dataclass

from umpire.engine.dice import two_d6
from umpire.engine.hexgrid import DIRECTION_NAMES
from umpire.engine.rulesets.conflict_of_heroes.battlefield import distance, dm, hex_of
from umpire.engine.rulesets.conflict_of_heroes.eligibility import AiOption, Target
from umpire.engine.rulesets.conflict_of_heroes.events import (
    AiFired,
    AiMoved,
    AiPivoted,
    AiRallied,
    AiTargetSelected,
    AiUnitSelected,
)
from umpire.engine.rulesets.conflict_of_heroes.movement import (
    DISENGAGE_KEYS,
    HEX_KEYS,
    HexOption,
    facing_after_move,
    flanking_units,
    pivot_facing,
)
from umpire.engine.rulesets.conflict_of_heroes.orders import Order, OrderAction, Relation
from umpire.engine.rulesets.conflict_of_heroes.priority import Key, Prefer, choose
from umpire.engine.rulesets.conflict_of_heroes.state import Unit
from umpire.engine.rulesets.conflict_of_heroes.targeting import choose_fire_target
from umpire.engine.rulesets.conflict_of_heroes.terms import cite
from umpire.engine.rulesets.conflict_of_heroes.turn import ConflictOfHeroesTurn

UNHIT: Key[AiOption] = Key(
    "un-hit AI before a hit AI (5.1.1)",
    lambda o: int(o.ai.hit),
    Prefer.LOW,
    lambda v: "hit" if v else "un-hit",
)
MOVE_KEYS: tuple[Key[AiOption], ...] = (
    UNHIT,
    Key("lowest cost to move (5.1.1)", lambda o: o.ai.move_cost, Prefer.LOW),
)
FIRE_KEYS: tuple[Key[AiOption], ...] = (
    UNHIT,
    Key("highest Firepower (5.1.1)", lambda o: o.ai.firepower, Prefer.HIGH),
    Key("lowest cost to fire (5.1.1)", lambda o: o.ai.fire_cost, Prefer.LOW),
    Key("in the highest DM hex (5.1.1)", lambda o: o.dm, Prefer.HIGH),
)


@dataclass
class Executed:
    """Which AI acted and what its action cost in APs (for the AP Spent Check)."""

    unit: str
    ap_cost: int


def ai_keys(order: Order) -> list[Key[AiOption]]:
    """The AI priority list of an order: the order's own conditions, then 5.1.1."""
    keys: list[Key[AiOption]] = []
    if order.highest_fp:
        keys.append(
            Key("Highest FP AI among the eligible (order)", lambda o: o.ai.firepower, Prefer.HIGH)
        )
    if order.relation is Relation.CLOSEST:
        keys.append(Key("closest to its closest target (order)", lambda o: o.distance, Prefer.LOW))
    else:
        keys.append(
            Key("farthest from its closest target (order)", lambda o: o.distance, Prefer.HIGH)
        )
    if order.action is OrderAction.FIRE:
        keys.extend(FIRE_KEYS)
    elif order.action in (OrderAction.MOVE, OrderAction.LOW_RISK_MOVE):
        keys.extend(MOVE_KEYS)
    return keys


def execute(
    turn: ConflictOfHeroesTurn,
    order: Order,
    options: list[AiOption],
    rejected: list[tuple[str, str]],
) -> Executed:
    """Pick the AI (5.1.1) and carry out the order with it."""
    for o in options:
        o.dm = dm(turn.state, o.ai.hex)
    choice = choose(
        turn,
        [(o.ai.id, o) for o in options],
        ai_keys(order),
        purpose=f"5.1.1 AI for '{order.text}'",
        rule=cite("5.1.1"),
        rejected=rejected,
    )
    option = choice.item
    turn.emit(
        AiUnitSelected(
            unit=option.ai.id,
            order=order.text,
            rule=cite("5.1.1"),
            dice=choice.dice,
            candidates=choice.candidates,
            explanation=f"{option.ai.id} executes '{order.text}': {choice.how}",
        )
    )
    if order.action is OrderAction.FIRE:
        return _fire(turn, order, option)
    if order.action is OrderAction.RALLY:
        turn.emit(
            AiRallied(
                unit=option.ai.id,
                ap_cost=option.ai.rally_cost,
                rule=cite("5.0"),
                explanation=f"{option.ai.id} attempts to rally; resolve the rally in the base "
                "game and report the result (ReportHit)",
            )
        )
        return Executed(option.ai.id, option.ai.rally_cost)
    if option.disengage:
        return _move(turn, option, "", option.hexes[""], DISENGAGE_KEYS, cite("5.1"), order)
    if option.pivot:
        return _pivot(turn, option.ai)
    target = _move_target(turn, option)
    return _move(turn, option, target.id, option.hexes[target.id], HEX_KEYS, cite("5.3"), order)


def _fire(turn: ConflictOfHeroesTurn, order: Order, option: AiOption) -> Executed:
    ai = option.ai
    choice = choose_fire_target(turn, option)
    target = choice.item
    turn.emit(
        AiTargetSelected(
            unit=ai.id,
            target=target.id,
            distance=target.distance,
            needed=target.needed,
            rule=cite("5.2"),
            dice=choice.dice,
            candidates=choice.candidates,
            explanation=f"{ai.id} fires at {target.id} ({target.distance} hexes, total DV "
            f"{target.total_dv}, needs {target.needed}+): {choice.how}",
        )
    )
    rolled = turn.roll(two_d6(), purpose=f"{ai.id} fires at {target.id}", rule=cite("5.0"))
    hit = rolled.total >= target.needed
    turn.emit(
        AiFired(
            unit=ai.id,
            target=target.id,
            needed=target.needed,
            roll=rolled.total,
            hit=hit,
            long_range=target.band == "long",
            ap_cost=ai.fire_cost,
            rule=cite("5.0") + " (attack: hit formula, README)",
            dice=(rolled.roll,),
            explanation=f"2D6 = {rolled.total} against {target.needed}: "
            + ("HIT: apply the base game's hit to " + target.id if hit else "miss"),
        )
    )
    return Executed(ai.id, ai.fire_cost)


def _move_target(turn: ConflictOfHeroesTurn, option: AiOption) -> Target:
    """'Executing an AI Order': equally distant targets, one chosen at random."""
    closest = [t for t in option.targets if t.distance == option.distance]
    usable = [(t.id, t) for t in closest if t.id in option.hexes]
    rejected = [
        (t.id, "no hex the AI may move into toward it") for t in closest if t.id not in option.hexes
    ]
    rejected += [
        (t.id, f"{t.distance} hexes away: not its closest target")
        for t in option.targets
        if t.distance != option.distance
    ]
    choice = choose(
        turn,
        usable,
        (),
        purpose=f"target for {option.ai.id} to move towards",
        rule=cite("5.0"),
        rejected=rejected,
    )
    turn.emit(
        AiTargetSelected(
            unit=option.ai.id,
            target=choice.item.id,
            distance=choice.item.distance,
            rule=cite("5.0"),
            dice=choice.dice,
            candidates=choice.candidates,
            explanation=f"{option.ai.id} moves towards {choice.item.id}: {choice.how}",
        )
    )
    return choice.item


def _move(
    turn: ConflictOfHeroesTurn,
    option: AiOption,
    target_id: str,
    hexes: list[HexOption],
    keys: tuple[Key[HexOption], ...],
    rule: str,
    order: Order,
) -> Executed:
    ai = option.ai
    choice = choose(
        turn,
        [(h.label, h) for h in hexes],
        keys,
        purpose=f"hex for {ai.id}",
        rule=rule,
        rejected=option.refused.get(target_id, []),
    )
    to = choice.item
    target_hex = next((t.hex for t in option.targets if t.id == target_id), to.label)
    travel = turn.state.rules.grid.direction_to(hex_of(ai.hex), hex_of(to.label)) or 0
    facing = facing_after_move(turn.state, to.label, target_hex, travel)
    low_risk = order.action is OrderAction.LOW_RISK_MOVE
    what = "disengages from close combat" if option.disengage else f"moves towards {target_id}"
    turn.emit(
        AiMoved(
            unit=ai.id,
            from_hex=ai.hex,
            to_hex=to.label,
            facing=facing,
            ap_cost=to.cost,
            low_risk=low_risk,
            target=target_id,
            rule=rule + (" / " + cite("5.3.1") if low_risk else ""),
            dice=choice.dice,
            candidates=choice.candidates,
            explanation=f"{ai.id} {what}: {ai.hex} -> {to.label}, facing "
            f"{DIRECTION_NAMES[facing]}; {choice.how}",
        )
    )
    return Executed(ai.id, to.cost)


def _pivot(turn: ConflictOfHeroesTurn, ai: Unit) -> Executed:
    """5.3.1: no hex for a low-risk move: pivot towards a flanking Unit (closest first)."""
    flankers = flanking_units(turn.state, ai)
    choice = choose(
        turn,
        [(u.id, u) for u in flankers],
        (Key("closest flanking Unit", lambda u: distance(turn.state, ai.hex, u.hex), Prefer.LOW),),
        purpose=f"flanking Unit for {ai.id} to pivot towards",
        rule=cite("5.3.1"),
    )
    facing = pivot_facing(turn.state, ai, choice.item)
    cost = turn.state.rules.pivot_cost
    turn.emit(
        AiPivoted(
            unit=ai.id,
            facing=facing,
            toward=choice.item.id,
            ap_cost=cost,
            rule=cite("5.3.1"),
            dice=choice.dice,
            candidates=choice.candidates,
            explanation=f"{ai.id} cannot make a low-risk move and pivots to face "
            f"{choice.item.id} (facing {DIRECTION_NAMES[facing]}); {choice.how}",
        )
    )
    return Executed(ai.id, cost)
