"""4 (000_842c81c5c58bc2f6.txt): which DRV unit may roll which attack or damage roll on which
US flight now, and the table and column the player reads the roll on.

The seed names the rolls ("any DRV AAA or Fire Can attack roll, roll on the Flak Damage
Table, SAM attack roll or roll on the SAM Damage Table") but prints none of those tables:
they are the base game's. umpire checks who may fire (the attacks it ordered: 2.3.1 Fire
Cans, 3.4.4-3.4.5 SAM reactions, 4.1.2 events; AAA within `Setup.aaa_range`, 2.1.7) and
says which table and column the roll is read on, with what it knows of the shot.

An ordered attack is one attack roll, then its damage rolls, read at the range when it was
ordered (`State.ordered_attacks`); until its attack roll is made nothing else is done
(`roll_first`; README ledger, 3.4.4).
"""

from __future__ import annotations

from typing import NamedTuple

from umpire.engine.errors import RuleError
from umpire.engine.rulesets.downtown.labels import LABELS, hexes
from umpire.engine.rulesets.downtown.mapdata import Board
from umpire.engine.rulesets.downtown.state import AaaFire, OrderedAttack, State, UsFlight
from umpire.engine.rulesets.downtown.terms import AttackRoll, SamStatus, cite
from umpire.events.plurals import counted

R_ROLLS = cite("4")
R_AAA = cite("2.1.7")
R_FIRE_CAN = cite("2.3.1")
R_SAM = cite("3.4.5")
R_LOAL = cite("4.1.2")

KINDS: dict[str, tuple[AttackRoll, ...]] = {
    "AAA concentration": (AttackRoll.AAA_ATTACK, AttackRoll.FLAK_DAMAGE),
    "Fire Can": (AttackRoll.FIRE_CAN_ATTACK, AttackRoll.FLAK_DAMAGE),
    "SAM": (AttackRoll.SAM_ATTACK, AttackRoll.SAM_DAMAGE),
}
"""4: the rolls each kind of DRV unit makes (AAA and Fire Can attacks are followed by the
Flak Damage Table, SAM attacks by the SAM Damage Table)."""

# The rolls by their words ("AAA attack"), as the table names them: a refusal is text.
# Worded once: `allowed` checks every unit, flight and kind on every listing.
_SAID: dict[AttackRoll, str] = {kind: LABELS.words("attack_roll", kind) for kind in AttackRoll}
_ROLLS: dict[str, str] = {
    what: " or ".join(_SAID[kind] for kind in kinds) for what, kinds in KINDS.items()
}

_ATTACKS = (AttackRoll.AAA_ATTACK, AttackRoll.FIRE_CAN_ATTACK, AttackRoll.SAM_ATTACK)

TABLES: dict[AttackRoll, str] = {
    AttackRoll.AAA_ATTACK: "the base game's AAA attack table",
    AttackRoll.FIRE_CAN_ATTACK: "the base game's AAA attack table (Fire Can directed)",
    AttackRoll.FLAK_DAMAGE: "the base game's Flak Damage Table",
    AttackRoll.SAM_ATTACK: "the base game's SAM attack table",
    AttackRoll.SAM_DAMAGE: "the base game's SAM Damage Table",
}
"""The table each roll is read on (4 names the damage tables; the attack tables are the
base game's, not printed in the seed)."""


class Attack(NamedTuple):
    """A DRV roll umpire allows now: its unit, range, rule, table and column."""

    unit_id: str
    flight_id: str
    kind: AttackRoll
    range: int
    rule: str
    table: str
    column: str


def _unit(state: State, unit_id: str) -> tuple[str, str] | None:
    """The kind of DRV unit `unit_id` names and its hex, if it is on the map and active."""
    for a in state.aaa:
        if a.id == unit_id:
            return "AAA concentration", a.hex
    for f in state.fire_cans:
        if f.id == unit_id:
            return "Fire Can", f.hex
    for s in state.sams:
        if s.id == unit_id and s.status is SamStatus.ACTIVE:
            return "SAM", s.hex
    return None


def check(
    state: State, board: Board, unit_id: str, flight: UsFlight, kind: AttackRoll
) -> Attack | tuple[str, str]:
    """The attack if `unit_id` may roll `kind` on `flight` now, else (why not, rule)."""
    found = _unit(state, unit_id)
    if found is None:
        return f"there is no active DRV unit {unit_id!r}", R_ROLLS
    what, hex_ = found
    if kind not in KINDS[what]:
        return f"a {what} rolls {_ROLLS[what]}, not {_SAID[kind]}", R_ROLLS
    if not flight.on_map:
        return f"{flight.id} is not on the map", R_ROLLS
    order = _ordered(state, unit_id, flight.id)
    if what == "AAA concentration":
        aaa = next(a for a in state.aaa if a.id == unit_id)
        reach, dist = state.setup.aaa_range, board.dist(hex_, flight.hex)
        refused = _aaa_bound(state, unit_id, flight.id, kind)
        if refused:
            return refused, R_AAA
        damage = kind is AttackRoll.FLAK_DAMAGE and state.setup.aaa_attacks_per_mp > 0
        if dist > reach and not damage:
            return (
                f"{unit_id} is {hexes(dist)} from {flight.id}: a AAA concentration attacks "
                f"within {reach} (the scenario's {LABELS.label('aaa_range')}, a base-game value)",
                R_AAA,
            )
        column = f"density {aaa.density}" + (", suppressed" if aaa.suppressed else "")
        column += f", target at {LABELS.words('altitude', flight.altitude).lower()}"
        return Attack(unit_id, flight.id, kind, dist, R_AAA, TABLES[kind], column)
    if what == "Fire Can":
        can = next(f for f in state.fire_cans if f.id == unit_id)
        if not can.radar_on:
            return f"{unit_id} has its radar shut down: it cannot fire", R_FIRE_CAN
        if order is None:
            return (
                f"{unit_id} was not ordered to fire at {flight.id} this Movement Phase: a "
                f"Fire Can fires at the first US flight to move within range (2.3.1) or "
                f"as a 4.1.2 event",
                R_FIRE_CAN,
            )
        refused = _once(order, kind)
        if refused:
            return refused, R_FIRE_CAN
        # The attack table names the Fire Can already ("... (Fire Can directed)").
        column = "target at " + LABELS.words("altitude", flight.altitude).lower()
        return Attack(unit_id, flight.id, kind, order.range, R_FIRE_CAN, TABLES[kind], column)
    sam = next(s for s in state.sams if s.id == unit_id)
    if order is None:
        return (
            f"{unit_id} did not fire at {flight.id} this Movement Phase: a SAM attacks only "
            f"as the SAM Reaction Table orders (3.4.4-3.4.5) or as a 4.1.2 (b) LOAL attack",
            R_SAM,
        )
    if sam.option and sam.option in sam.inhibited:
        return (
            f"{unit_id}'s option {sam.option} attack is inhibited by a solitaire random event "
            f"(4.1.1): it does not take place",
            cite("4.1.1"),
        )
    refused = _once(order, kind)
    if refused:
        return refused, R_SAM
    if not sam.option:
        # 4.1.2 (b) orders a LOAL attack from a SAM Warning counter just placed: it is
        # launched without an acquisition, by 4.1.2 and not by the Reaction Table.
        column = "SAM LOAL attack (4.1.2 b), one SAM, launched without an acquisition"
        return Attack(unit_id, flight.id, kind, order.range, R_LOAL, TABLES[kind], column)
    fire = "a salvo" if sam.last_fired > 1 else "one SAM"
    count = "1 missile" if sam.last_fired == 1 else f"{sam.last_fired} missiles"
    column = f"option {sam.option}: {fire} ({count})"
    column += f", {sam.level.value} acquisition"
    return Attack(unit_id, flight.id, kind, order.range, R_SAM, TABLES[kind], column)


def _aaa_bound(state: State, unit_id: str, flight_id: str, kind: AttackRoll) -> str:
    """Why a AAA concentration may not roll `kind` on the flight now ('' if it may): at
    most `Setup.aaa_attacks_per_mp` attacks between two of the flight's Movement Points,
    and Flak Damage rolls only after an attack it made this phase, as many as the base
    game's attack result calls for, as an ordered attack's (2.1.7 bounds neither: a
    base-game value, README ledger 2.1.7; 0 lifts the bound)."""
    limit = state.setup.aaa_attacks_per_mp
    if limit == 0:
        return ""
    fire = next(
        (f for f in state.aaa_fire if (f.unit_id, f.flight_id) == (unit_id, flight_id)),
        AaaFire(unit_id=unit_id, flight_id=flight_id),
    )
    if kind is AttackRoll.AAA_ATTACK and fire.attacks >= limit:
        return (
            f"{unit_id} has made {counted(fire.attacks, 'AAA attack')} on {flight_id} since "
            f"its last "
            f"Movement Point, the most it makes ({LABELS.label('aaa_attacks_per_mp')} "
            f"{limit}, a base-game value): it may attack again when {flight_id} spends its "
            f"next Movement Point"
        )
    if kind is AttackRoll.FLAK_DAMAGE and not fire.attacked:
        return (
            f"{unit_id} has not attacked {flight_id} this Movement Phase: roll the AAA "
            f"attack first (its Flak Damage rolls follow it)"
        )
    return ""


def _ordered(state: State, unit_id: str, flight_id: str) -> OrderedAttack | None:
    """`unit_id`'s order to attack `flight_id` this Movement Phase, if umpire gave one."""
    return next(
        (o for o in state.ordered_attacks if (o.unit_id, o.flight_id) == (unit_id, flight_id)),
        None,
    )


def _once(order: OrderedAttack, kind: AttackRoll) -> str:
    """Why `kind` may not be rolled on `order` now ('' if it may): an order is one attack
    roll, made before its damage roll (4: the damage tables follow the attack)."""
    said = f"{order.unit_id}'s attack on {order.flight_id} (ordered at {hexes(order.range)})"
    if kind in _ATTACKS and not order.waiting:
        return f"{said} is rolled already: an order is one attack; its damage roll may follow"
    if kind not in _ATTACKS and order.waiting:
        return f"{said} is not rolled yet: roll the attack before its damage"
    return ""


def waiting(state: State, board: Board) -> list[tuple[OrderedAttack, Attack]]:
    """The ordered attacks play waits for (README ledger, 3.4.4): each not yet rolled, with
    the attack roll that resolves it. One that cannot be rolled (its unit gone) holds
    nothing up: there would be no way on."""
    out = []
    for order in state.ordered_attacks:
        found = _unit(state, order.unit_id)
        flight = next((f for f in state.us if f.id == order.flight_id), None)
        if not order.waiting or found is None or flight is None:
            continue
        result = check(state, board, order.unit_id, flight, KINDS[found[0]][0])
        if isinstance(result, Attack):
            out.append((order, result))
    return out


def roll_first(state: State, board: Board, command: str) -> None:
    """3.4.4, 4: while an attack umpire ordered waits for its roll, RuleError naming it and
    the roll to send; nothing else is done before it (README ledger, 3.4.4). The seed has
    a SAM fire as the flight spends the Movement Point (3.4.4), and a random event's
    attack "immediately" (4): the player may not move, report or end a phase in between."""
    now = waiting(state, board)
    if not now:
        return
    named = "; ".join(
        f"{a.unit_id}'s {_SAID[a.kind]} on {a.flight_id} at {hexes(a.range)}" for _, a in now
    )
    order, first = now[0]
    raise RuleError(
        f"{command} waits for the attack umpire ordered: {named}, not rolled yet. An ordered "
        f"attack is made as the flight spends the Movement Point that drew it (3.4.4), and a "
        f"random event's attack at once (4), so nothing else is done before its roll: roll "
        f"{first.unit_id}'s {_SAID[first.kind]} on {first.flight_id} first (RollDrvAttack)",
        rule=order.rule,
    )


def require(state: State, board: Board, unit_id: str, flight: UsFlight, kind: AttackRoll) -> Attack:
    """The attack, or RuleError naming why not and the attacks allowed now."""
    result = check(state, board, unit_id, flight, kind)
    if isinstance(result, Attack):
        return result
    why, rule = result
    now = allowed(state, board)
    listed = "; ".join(f"{a.unit_id} {_SAID[a.kind]} on {a.flight_id}" for a in now) or "none"
    raise RuleError(f"{why}. DRV rolls allowed now: {listed}", rule=rule)


def allowed(state: State, board: Board) -> list[Attack]:
    """Every DRV roll allowed now, by unit, flight and kind."""
    units = (
        [a.id for a in state.aaa]
        + [f.id for f in state.fire_cans]
        + [s.id for s in state.sams if s.status is SamStatus.ACTIVE]
    )
    flights = sorted((f for f in state.us if f.on_map), key=lambda f: f.id)
    out = []
    for unit_id in units:
        for flight in flights:
            for kind in AttackRoll:
                result = check(state, board, unit_id, flight, kind)
                if isinstance(result, Attack):
                    out.append(result)
    return out
