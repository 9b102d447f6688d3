"""The order grammar: how an Order Card's orders are written, and their parser.

Seed 003_368c69a730e6e14a.txt, "Executing an AI Order": an order first names which AI may
execute it, then a distance condition (closest or farthest), then which Unit (or Mission
Objective) is the target, then the action, e.g. "Highest FP AI closest to Lowest DV Unit
-> Fire". The published cards are not in the seed, so orders are entered as text in this
grammar (case-insensitive, "->" or "→" before the action)::

    order    := mission | ai relation target ARROW action
    mission  := "counteraction" N | "mission order" N          (7.0 / 7.1, mission data)
    ai       := ["highest fp"] status* "ai"
    status   := "fresh" | "spent" | "hit" | "unhit"
    relation := "closest to" | "farthest from"
    target   := ["lowest dv"] status* "unit"
              | "control marker"                              (player control markers)
              | "objective" [ID]                              (any mission objective, or one)
    action   := "fire" ["long range"] | "move" | "low risk move" | "rally"

Examples: "Fresh AI farthest from Control Marker -> Low Risk Move",
"Hit AI closest to Unit -> Rally", "Counteraction 2".
"""

from __future__ import annotations

from enum import StrEnum

from msgspec import Struct


class OrderAction(StrEnum):
    """The action an order directs (5.0-5.3, 7.0, 7.1)."""

    FIRE = "fire"
    MOVE = "move"
    LOW_RISK_MOVE = "low_risk_move"
    RALLY = "rally"
    COUNTERACTION = "counteraction"
    MISSION_ORDER = "mission_order"


class Relation(StrEnum):
    """The distance condition connecting the AI and the target ("Executing an AI Order")."""

    CLOSEST = "closest"
    FARTHEST = "farthest"


class TargetKind(StrEnum):
    """What an order's target may be (5.0: control markers are Mission Objectives)."""

    UNIT = "unit"
    CONTROL_MARKER = "control_marker"
    OBJECTIVE = "objective"


class Status(StrEnum):
    """Counter states an order may require of the AI or the target Unit."""

    FRESH = "fresh"
    SPENT = "spent"
    HIT = "hit"
    UNHIT = "unhit"


class Order(Struct, frozen=True, kw_only=True):
    """One parsed order (see the module docstring for the grammar)."""

    text: str
    action: OrderAction
    highest_fp: bool = False
    ai_status: tuple[Status, ...] = ()
    relation: Relation = Relation.CLOSEST
    target: TargetKind = TargetKind.UNIT
    lowest_dv: bool = False
    target_status: tuple[Status, ...] = ()
    objective: str = ""
    long_range: bool = False
    number: int = 0


class OrderSyntaxError(ValueError):
    """An order that does not follow the grammar; the message says where and what fits."""


_STATUS = {s.value: s for s in Status}


def _statuses(words: list[str], what: str, text: str) -> tuple[Status, ...]:
    found = tuple(_STATUS[w] for w in words)
    if Status.FRESH in found and Status.SPENT in found:
        raise OrderSyntaxError(f"order {text!r}: {what} cannot be both fresh and spent")
    if Status.HIT in found and Status.UNHIT in found:
        raise OrderSyntaxError(f"order {text!r}: {what} cannot be both hit and unhit")
    return tuple(sorted(set(found)))


def parse_order(text: str) -> Order:
    """Parse one order written in the grammar of the module docstring.

    Raises OrderSyntaxError naming the part that does not fit.
    """
    spaced = text.replace("→", " -> ").replace("->", " -> ")
    tokens = spaced.split()
    low = [t.lower() for t in tokens]
    normal = " ".join(tokens)
    if len(low) == 2 and low[0] == "counteraction" and low[1].isdigit():
        return Order(text=normal, action=OrderAction.COUNTERACTION, number=int(low[1]))
    if len(low) == 3 and low[:2] == ["mission", "order"] and low[2].isdigit():
        return Order(text=normal, action=OrderAction.MISSION_ORDER, number=int(low[2]))
    if "->" not in low:
        raise OrderSyntaxError(
            f"order {text!r} has no '->' before its action (e.g. 'Fresh AI closest to Unit -> "
            "Fire'), and is not 'Counteraction N' or 'Mission Order N'"
        )
    arrow = low.index("->")
    head, tail = low[:arrow], low[arrow + 1 :]
    # the AI part, up to "ai"
    if "ai" not in head:
        raise OrderSyntaxError(f"order {text!r} does not name the AI ('... AI closest to ...')")
    ai_end = head.index("ai")
    ai_words = head[:ai_end]
    highest_fp = ai_words[:2] == ["highest", "fp"]
    if highest_fp:
        ai_words = ai_words[2:]
    bad = [w for w in ai_words if w not in _STATUS]
    if bad:
        raise OrderSyntaxError(
            f"order {text!r}: {' '.join(bad)!r} is not an AI condition "
            "(allowed: Highest FP, Fresh, Spent, Hit, Unhit)"
        )
    ai_status = _statuses(ai_words, "the AI", text)
    rest = head[ai_end + 1 :]
    rest_orig = tokens[ai_end + 1 : arrow]
    if rest[:2] == ["closest", "to"]:
        relation = Relation.CLOSEST
    elif rest[:2] == ["farthest", "from"]:
        relation = Relation.FARTHEST
    else:
        raise OrderSyntaxError(f"order {text!r}: after 'AI' comes 'closest to' or 'farthest from'")
    target_words, target_orig = rest[2:], rest_orig[2:]
    lowest_dv = False
    objective = ""
    target_status: tuple[Status, ...] = ()
    if target_words == ["control", "marker"]:
        target = TargetKind.CONTROL_MARKER
    elif target_words[:1] == ["objective"] and len(target_words) <= 2:
        target = TargetKind.OBJECTIVE
        objective = target_orig[1] if len(target_orig) == 2 else ""
    elif target_words[-1:] == ["unit"]:
        target = TargetKind.UNIT
        words = target_words[:-1]
        lowest_dv = words[:2] == ["lowest", "dv"]
        if lowest_dv:
            words = words[2:]
        bad = [w for w in words if w not in _STATUS]
        if bad:
            raise OrderSyntaxError(
                f"order {text!r}: {' '.join(bad)!r} is not a Unit condition "
                "(allowed: Lowest DV, Fresh, Spent, Hit, Unhit)"
            )
        target_status = _statuses(words, "the target Unit", text)
    else:
        raise OrderSyntaxError(
            f"order {text!r}: the target is '[Lowest DV] [status] Unit', 'Control Marker' "
            "or 'Objective [id]'"
        )
    long_range = False
    if tail == ["fire"]:
        action = OrderAction.FIRE
    elif tail == ["fire", "long", "range"]:
        action, long_range = OrderAction.FIRE, True
    elif tail == ["move"]:
        action = OrderAction.MOVE
    elif tail == ["low", "risk", "move"]:
        action = OrderAction.LOW_RISK_MOVE
    elif tail == ["rally"]:
        action = OrderAction.RALLY
    else:
        raise OrderSyntaxError(
            f"order {text!r}: the action is 'Fire', 'Fire Long Range', 'Move', "
            "'Low Risk Move' or 'Rally'"
        )
    if action is OrderAction.FIRE and target is not TargetKind.UNIT:
        raise OrderSyntaxError(f"order {text!r}: a Fire order needs a Unit as its target")
    return Order(
        text=normal,
        action=action,
        highest_fp=highest_fp,
        ai_status=ai_status,
        relation=relation,
        target=target,
        lowest_dv=lowest_dv,
        target_status=target_status,
        objective=objective,
        long_range=long_range,
    )
