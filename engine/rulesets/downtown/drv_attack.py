"""4 (000_842c81c5c58bc2f6.txt): which DRV unit may roll which attack or damage roll on which
US flight now, and the table and column the player reads the roll on.

The seed names the rolls ("any DRV AAA or Fire Can attack roll, roll on the Flak Damage
Table, SAM attack roll or roll on the SAM Damage Table") but prints none of those tables:
they are the base game's. umpire checks who may fire (the attacks it ordered: 2.3.1 Fire
Cans, 3.4.4-3.4.5 SAM reactions, 4.1.2 events; AAA within `Setup.aaa_range`, 2.1.7) and
says which table and column the roll is read on, with what it knows of the shot.
"""

from __future__ import annotations

from typing import NamedTuple

from umpire.engine.errors import RuleError
from umpire.engine.rulesets.downtown.labels import LABELS
from umpire.engine.rulesets.downtown.mapdata import Board
from umpire.engine.rulesets.downtown.state import State, UsFlight
from umpire.engine.rulesets.downtown.terms import AttackRoll, SamStatus, cite

R_ROLLS = cite("4")
R_AAA = cite("2.1.7")
R_FIRE_CAN = cite("2.3.1")
R_SAM = cite("3.4.5")
R_LOAL = cite("4.1.2")
SAM_MAX_RANGE = 8
"""3.4.5 option 7: an acquired flight "at a range greater than 8: do nothing"."""

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
    dist = board.dist(hex_, flight.hex)
    order = f"{unit_id}:{flight.id}" in state.attack_orders
    if what == "AAA concentration":
        aaa = next(a for a in state.aaa if a.id == unit_id)
        reach = state.setup.aaa_range
        if dist > reach:
            return (
                f"{unit_id} is {dist} hexes from {flight.id}: a AAA concentration attacks "
                f"within {reach} (the scenario's {LABELS.label('aaa_range')}, a base-game value)",
                R_AAA,
            )
        column = f"density {aaa.density}" + (", suppressed" if aaa.suppressed else "")
        column += f", target at {LABELS.words('altitude', flight.altitude).lower()}"
        return Attack(unit_id, flight.id, kind, dist, R_AAA, TABLES[kind], column)
    if what == "Fire Can":
        can = next(f for f in state.fire_cans if f.id == unit_id)
        reach = state.setup.fire_can_range
        if not can.radar_on:
            return f"{unit_id} has its radar shut down: it cannot fire", R_FIRE_CAN
        if not order:
            return (
                f"{unit_id} was not ordered to fire at {flight.id} this Movement Phase: a "
                f"Fire Can fires at the first US flight to move within range (2.3.1) or "
                f"as a 4.1.2 event",
                R_FIRE_CAN,
            )
        if dist > reach:
            return f"{unit_id} is {dist} hexes from {flight.id}: out of range {reach}", R_FIRE_CAN
        column = "Fire Can directed, target at " + LABELS.words("altitude", flight.altitude).lower()
        return Attack(unit_id, flight.id, kind, dist, R_FIRE_CAN, TABLES[kind], column)
    sam = next(s for s in state.sams if s.id == unit_id)
    if not order:
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
    if dist > SAM_MAX_RANGE:
        return (
            f"{unit_id} is {dist} hexes from {flight.id}: beyond {SAM_MAX_RANGE} a SAM does "
            f"nothing (3.4.5 option 7)",
            R_SAM,
        )
    if not sam.option:
        # 4.1.2 (b) orders a LOAL attack from a SAM Warning counter just placed: it is
        # launched without an acquisition, by 4.1.2 and not by the Reaction Table.
        column = "SAM LOAL attack (4.1.2 b), launched without an acquisition"
        return Attack(unit_id, flight.id, kind, dist, R_LOAL, TABLES[kind], column)
    fire = "a salvo" if sam.last_fired > 1 else "one SAM"
    column = f"option {sam.option}: {fire} ({sam.last_fired} missile(s))"
    column += f", {sam.level.value} acquisition"
    return Attack(unit_id, flight.id, kind, dist, R_SAM, TABLES[kind], column)


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
