"""5.0 / 5.1: which AI may execute an order, and at which targets.

Seed 003_368c69a730e6e14a.txt 5.0, 5.1 and "Executing an AI Order": an order names which
AI may execute it (the card's colour: Blue any, Green fresh only, 4.0; the order's own
conditions: fresh, spent, hit, unhit), then the targets (Units, Control Markers or
Mission Objectives), connected by closest or farthest. Each AI's distance is the distance
to its own closest target. 5.1: no long range unless the order says so; no shot needing
11+; an AI with close-combat penalties never moves into CC and disengages when in it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from umpire.engine.rulesets.conflict_of_heroes.battlefield import (
    active,
    ai_controls,
    can_fire_into,
    distance,
    enemies_of,
    in_close_combat,
    los,
)
from umpire.engine.rulesets.conflict_of_heroes.hit_chance import NEVER_FIRES_AT, RangeBand, shot
from umpire.engine.rulesets.conflict_of_heroes.movement import (
    HexOption,
    disengage_options,
    flanking_units,
    hex_options,
)
from umpire.engine.rulesets.conflict_of_heroes.orders import Order, OrderAction, Status, TargetKind
from umpire.engine.rulesets.conflict_of_heroes.state import Card, State, Unit
from umpire.engine.rulesets.conflict_of_heroes.terms import CardColour, Side


@dataclass(frozen=True)
class Target:
    """A Unit or objective an AI may aim an order at."""

    id: str
    hex: str
    unit: Unit | None
    distance: int
    needed: int = 0
    total_dv: int = 0
    band: str = ""


@dataclass
class AiOption:
    """An eligible AI: its targets, its distance to the closest one, its move hexes."""

    ai: Unit
    targets: list[Target]
    distance: int
    hexes: dict[str, list[HexOption]] = field(default_factory=dict)
    disengage: bool = False
    pivot: bool = False
    dm: int = 0  # DM of the AI's hex (5.1.1 fire priority)
    refused: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # hexes, why not


def has_status(unit: Unit, status: Status) -> bool:
    """Whether a counter is fresh, spent, hit or unhit."""
    return {
        Status.FRESH: unit.fresh,
        Status.SPENT: not unit.fresh,
        Status.HIT: unit.hit,
        Status.UNHIT: not unit.hit,
    }[status]


def targets_for(state: State, ai: Unit, order: Order) -> list[Target]:
    """The order's targets as seen from `ai` (no fire conditions), by id."""
    found: list[Target] = []
    if order.target is TargetKind.UNIT:
        for u in enemies_of(state, ai):
            if all(has_status(u, s) for s in order.target_status):
                found.append(Target(u.id, u.hex, u, distance(state, ai.hex, u.hex)))
        if order.lowest_dv and found:
            dvs = {t.id: shot(state, ai, t.unit).total_dv for t in found if t.unit}
            low = min(dvs.values())
            found = [t for t in found if dvs[t.id] == low]
    else:
        for o in sorted(state.objectives, key=lambda o: o.id):
            if order.target is TargetKind.CONTROL_MARKER and not o.control_marker:
                continue
            # 5.0: only *Player* Control Markers are Mission Objectives; one the AI has
            # taken is the player's no longer, even after the AI has left its hex.
            if order.target is TargetKind.CONTROL_MARKER and ai_controls(state, o):
                continue
            if order.objective and o.id != order.objective:
                continue
            found.append(Target(o.id, o.hex, None, distance(state, ai.hex, o.hex)))
    return found


def fire_targets(
    state: State, ai: Unit, order: Order
) -> tuple[list[Target], list[tuple[str, str]]]:
    """5.1: the Units `ai` may fire at under `order` (range, long range only when ordered,
    arc of fire, LOS), with each shot's arithmetic; and why the others are not."""
    valid: list[Target] = []
    rejected: list[tuple[str, str]] = []
    for u in enemies_of(state, ai):
        if not all(has_status(u, s) for s in order.target_status):
            rejected.append((u.id, "does not meet the order's Unit conditions"))
            continue
        s = shot(state, ai, u)
        if s.band is RangeBand.OUT:
            rejected.append((u.id, "out of range"))
        elif s.band is RangeBand.LONG and not order.long_range:
            rejected.append((u.id, "long range: an AI never fires long range unless ordered (5.1)"))
        elif not can_fire_into(state, ai, u.hex):
            rejected.append((u.id, "outside its arc of fire"))
        elif not los(state, ai.hex, u.hex):
            rejected.append((u.id, "no line of sight"))
        else:
            d = distance(state, ai.hex, u.hex)
            valid.append(Target(u.id, u.hex, u, d, s.needed, s.total_dv, s.band.value))
    return valid, rejected


def _status_reason(card: Card, order: Order, ai: Unit) -> str:
    if card.colour is CardColour.GREEN and not ai.fresh:
        return "spent: a Green Action Order card is executed only by fresh AI (4.0)"
    for s in order.ai_status:
        if not has_status(ai, s):
            return f"not {s.value} as the order requires"
    return ""


def _fire_option(state: State, ai: Unit, order: Order) -> AiOption | str:
    if in_close_combat(state, ai):
        return "in close combat (resolved by the base game, not by fire orders)"
    valid, refused = fire_targets(state, ai, order)
    hittable = [t for t in valid if t.needed < NEVER_FIRES_AT]
    if not valid:
        why = "; ".join(f"{u}: {r}" for u, r in refused) or "no enemy Units in play"
        return f"no Unit it may fire at under the order ({why})"
    if not hittable:
        return "every Unit it may fire at needs 11 or higher on 2D6 (5.1)"
    if order.lowest_dv:
        low = min(t.total_dv for t in hittable)
        valid = [t for t in hittable if t.total_dv == low]
    return AiOption(ai, valid, min(t.distance for t in valid))


def _move_option(state: State, ai: Unit, order: Order) -> AiOption | str:
    low_risk = order.action is OrderAction.LOW_RISK_MOVE
    targets = targets_for(state, ai, order)
    if in_close_combat(state, ai):
        if not ai.cc_penalty:
            return "in close combat (resolved by the base game, not by move orders)"
        allowed, out = disengage_options(state, ai)
        if not allowed:
            return "in close combat with CC penalties but no hex to disengage into (5.1)"
        d = min((t.distance for t in targets), default=0)
        return AiOption(ai, targets, d, {"": allowed}, disengage=True, refused={"": out})
    if not targets:
        return _no_target_reason(state, order)
    d = min(t.distance for t in targets)
    hexes: dict[str, list[HexOption]] = {}
    refused: dict[str, list[tuple[str, str]]] = {}
    for t in targets:
        if t.distance == d:
            allowed, refused[t.id] = hex_options(state, ai, t.hex, t.unit, low_risk=low_risk)
            if allowed:
                hexes[t.id] = allowed
    if hexes:
        return AiOption(ai, targets, d, hexes, refused=refused)
    if low_risk and flanking_units(state, ai):
        return AiOption(ai, targets, d, pivot=True)
    if any(r.startswith("no closer") for out in refused.values() for _, r in out):
        return (
            "cannot move closer to its closest target, and a Move order takes no sideways "
            "step (5.3; 5.3.1 gives it to Low Risk Moves; README ledger 5.3)"
        )
    return "no hex it may move into toward its closest target (5.3 / 5.3.1)"


def _no_target_reason(state: State, order: Order) -> str:
    """Why a move order has no target: say it when the AI holds every Control Marker."""
    taken = [o.id for o in state.objectives if o.control_marker and ai_controls(state, o)]
    if order.target is TargetKind.CONTROL_MARKER and taken:
        return (
            f"no Player Control Marker to move towards: the AI holds {', '.join(taken)} "
            "(taken by an AI alone in its hex, and no Unit alone there since; 5.0, README "
            "ledger)"
        )
    return "no target meets the order's conditions"


def _rally_option(state: State, ai: Unit, order: Order) -> AiOption | str:
    if not ai.hit:
        return "not hit: nothing to rally"
    targets = targets_for(state, ai, order)
    return AiOption(ai, targets, min((t.distance for t in targets), default=0))


def ai_options(
    state: State, card: Card, order: Order
) -> tuple[list[AiOption], list[tuple[str, str]]]:
    """The AIs eligible to execute `order` from `card`, and why each other AI is not."""
    eligible: list[AiOption] = []
    rejected: list[tuple[str, str]] = []
    for ai in active(state, Side.AI):
        reason = _status_reason(card, order, ai)
        option: AiOption | str = reason
        if not reason:
            if order.action is OrderAction.FIRE:
                option = _fire_option(state, ai, order)
            elif order.action in (OrderAction.MOVE, OrderAction.LOW_RISK_MOVE):
                option = _move_option(state, ai, order)
            else:
                option = _rally_option(state, ai, order)
        if isinstance(option, str):
            rejected.append((ai.id, option))
        else:
            eligible.append(option)
    return eligible, rejected
