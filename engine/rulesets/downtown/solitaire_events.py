"""4 Solitaire random events: doubles on DRV attack/damage rolls, the Random Events Table
(4.1.1), the Event Options Table (4.1.2) and the end-of-movement roll."""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.dice import custom, d10
from umpire.engine.errors import NothingToDo
from umpire.engine.hexgrid import Hex
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown import fire_can, sam_sites
from umpire.engine.rulesets.downtown import situation as sit
from umpire.engine.rulesets.downtown.drv_attack import Attack
from umpire.engine.rulesets.downtown.labels import LABELS, hexes
from umpire.engine.rulesets.downtown.mapdata import Board
from umpire.engine.rulesets.downtown.state import State, UsFlight
from umpire.engine.rulesets.downtown.tables import solitaire_random_events as random_events
from umpire.engine.rulesets.downtown.terms import (
    AcqLevel,
    DoublesReading,
    SamStatus,
    cite,
)
from umpire.engine.rulesets.downtown.turn import DowntownTurn

R_EVENTS = cite("4")
ATTACK_DIE = 10
"""The DRV attack and damage rolls are rolled as two ten-sided dice (README)."""


def conditions(state: State, board: Board, flight: UsFlight) -> tuple[bool, bool]:
    """4.1.2 (a) within 2 of the raid target, (b) within 12 of Hanoi or Haiphong, this
    Movement Phase (the current hex or any hex it moved through)."""
    target = sit.target_hex(state, board)
    near_target = board.dist(flight.hex, target) <= random_events.TARGET_RADIUS
    near_city = board.dist_to_downtown(flight.hex) <= random_events.CITY_RADIUS
    if flight.id in state.phase_near:
        near_city = True
    return near_target, near_city


def _conditions(turn: DowntownTurn, flight: UsFlight) -> tuple[bool, bool]:
    return conditions(turn.state, turn.board, flight)


def end_of_movement_due(state: State, board: Board, flight: UsFlight) -> str:
    """Why the end-of-movement roll (4) would change nothing for `flight` now ('' when it
    is due): it had a random event this Movement Phase, or neither (a) nor (b) of 4.1.2
    applies. Such a roll is not listed, and refused `nothing_to_do`."""
    if flight.id in state.phase_events:
        return f"{flight.id} had a random event this Movement Phase"
    if not any(conditions(state, board, flight)):
        return f"neither (a) nor (b) of 4.1.2 applies to {flight.id}: no roll is made"
    return ""


def attack_roll(turn: DowntownTurn, attack: Attack, flight: UsFlight) -> None:
    """4: roll the DRV attack or damage roll that `attack` allows (drv_attack.require); a
    double calls a solitaire random event when (a) or (b) applies or the flight is acquired
    by a SAM (4.1.2, last paragraph). The answer names the table and column it is read on."""
    unit_id, kind = attack.unit_id, attack.kind
    what = LABELS.words("attack_roll", kind)
    roll = turn.roll(
        custom(ATTACK_DIE, ATTACK_DIE),
        f"{what} by {unit_id} on {flight.id}",
        R_EVENTS,
    )
    doubles = roll.faces[0] == roll.faces[1]
    a, b = _conditions(turn, flight)
    acquired = any(s.target == flight.id and s.level is not AcqLevel.NONE for s in turn.state.sams)
    # 000 4 (last paragraph): "unless (a) and (b) apply OR the flight is currently acquired";
    # read as (a) or (b), as the sentence before it says, unless `Setup.doubles_reading`
    # asks for the literal "and" (README ledger, 4).
    near = (a and b) if turn.state.setup.doubles_reading is DoublesReading.A_AND_B else (a or b)
    triggered = doubles and (near or acquired)
    ignored = (
        "not both within 2 of the target and within 12 of the cities (doubles_reading a_and_b)"
        if turn.state.setup.doubles_reading is DoublesReading.A_AND_B
        else "not near the target or the cities"
    )
    turn.emit(
        ev.DrvAttackRolled(
            rule=f"{R_EVENTS}; {attack.rule}",
            dice=(roll.roll,),
            unit_id=unit_id,
            flight_id=flight.id,
            kind=kind.value,
            total=roll.total,
            doubles=doubles,
            random_event=triggered,
            range=attack.range,
            table=attack.table,
            column=attack.column,
            explanation=(
                f"{what} by {unit_id} on {flight.id} at {hexes(attack.range)}: roll "
                f"{roll.faces} = {roll.total}; read it on {attack.table}, {attack.column}"
                + (
                    "; a double: solitaire random event"
                    if triggered
                    else f"; a double, ignored ({ignored}, not acquired)"
                    if doubles
                    else ""
                )
            ),
        )
    )
    if triggered:
        random_event(turn, flight, unit_id, end_of_movement=False)


def random_event(
    turn: DowntownTurn, flight: UsFlight, unit_id: str, *, end_of_movement: bool
) -> None:
    """4.1.1: one d10 on the Solitaire Random Events Table, applied to the attacking SAM
    (inhibited options; an inhibited SAM that has never attacked becomes a dummy radar while
    unused dummy radars remain); at the end of movement only 'Event!' counts."""
    roll = turn.roll(d10(), f"Solitaire Random Events Table ({flight.id})", random_events.CITATION)
    read = random_events.TABLE.row_for(roll.total)
    row, rule = read.value, read.citation
    sam = next(
        (s for s in turn.state.sams if s.id == unit_id and s.status is SamStatus.ACTIVE), None
    )
    inhibited = converted = False
    if end_of_movement and not row.event:
        turn.emit(
            ev.RandomEventRolled(
                rule=rule,
                dice=(roll.roll,),
                flight_id=flight.id,
                roll=roll.total,
                remark=row.remark,
                explanation=f"end of movement: {roll.total} ({row.remark}) ignored; Event! only",
            )
        )
        return
    if sam is not None and row.inhibits:
        inhibited = sam.option in row.inhibits
        converted = (
            inhibited
            and sam.shots <= 1
            and turn.state.dummy_radars_generated < turn.state.setup.dummy_radars
        )
    why = row.remark
    if sam is not None and row.inhibits:
        why += f"; {sam.id} used option {sam.option}: " + (
            "inhibited, no attack, no ammo spent" if inhibited else "not inhibited"
        )
        if inhibited:
            why += (
                "; converted to a dummy radar"
                if converted
                else "; not converted (it has attacked before, or no dummy radars remain)"
            )
    turn.emit(
        ev.RandomEventRolled(
            rule=rule,
            dice=(roll.roll,),
            flight_id=flight.id,
            roll=roll.total,
            remark=row.remark,
            sam_id=sam.id if sam else "",
            inhibits=row.inhibits,
            inhibited=inhibited,
            converted=converted,
            explanation=why,
        )
    )
    if row.event:
        event_options(turn, flight)


def event_options(turn: DowntownTurn, flight: UsFlight) -> None:
    """4.1.2 Event Options Table."""
    board, state = turn.board, turn.state
    target = sit.target_hex(state, board)
    cap = state.setup.max_fire_cans_per_aaa
    a, b = _conditions(turn, flight)
    rule = random_events.OPTIONS_CITATION
    if a:
        host = next((x for x in state.aaa if x.hex == target and x.fire_cans < cap), None)
        if state.hidden_fire_cans > 0 and host is not None:
            unit = fire_can.place(
                turn,
                host,
                f"{rule} (target paragraph)",
                (),
                f"Event!: Fire Can in the raid target hex {target}",
            )
            _attack_order(turn, rule, unit, flight)
        else:
            turn.emit(
                ev.DecisionMade(
                    rule=rule,
                    topic="event_option",
                    result="lost",
                    explanation="no hidden Fire Can, or no room in the target hex: event lost",
                )
            )
        return
    if not b:
        turn.emit(
            ev.DecisionMade(
                rule=rule,
                topic="event_option",
                result="ignored",
                explanation="neither paragraph applies: ignored",
            )
        )
        return
    hosts = [x for x in fire_can.eligible_aaa(turn) if board.dist(x.hex, flight.hex) <= 2]
    hosts.sort(key=lambda x: (board.dist(x.hex, flight.hex), x.hex))
    if hosts and state.hidden_fire_cans > 0:
        unit = fire_can.place(
            turn,
            hosts[0],
            f"{rule} (a)",
            (),
            f"Event! (a): Fire Can in {hosts[0].hex}, closest to {flight.id}",
        )
        _attack_order(turn, f"{rule} (a)", unit, flight)
        return
    lo, hi = random_events.OPTION_B_RANGE
    sites = []
    if (
        flight.detected
        and state.setup.year >= random_events.OPTION_B_FROM_YEAR
        and state.hidden_sams > 0
        and not state.setup.mig_day
    ):
        for site in sam_sites.table(turn).hexes:
            if not board.grid.contains(Hex.parse(site)) or sam_sites.uses_left(turn, site) == 0:
                continue
            where = sam_sites.spot(turn, site)
            if where is not None and lo <= board.dist(where, flight.hex) <= hi:
                sites.append((board.dist(where, flight.hex), site, where))
    if sites:
        sites.sort()
        near, site, where = sites[0]
        cands = tuple(
            Candidate(
                option=s,
                chosen=s == site,
                reason=f"closest ({hexes(d)})"
                if s == site
                else f"farther ({hexes(d)})"
                if d > near
                else f"as close ({hexes(d)}): a later location label",
            )
            for d, s, _w in sites
        )
        sam_id = turn.new_id("SAM")
        turn.emit(
            ev.SamPlaced(
                rule=f"{rule} (b)",
                sam_id=sam_id,
                hex=where,
                site=site,
                row="4.1.2b",
                candidates=cands,
                explanation=f"Event! (b): SAM Warning counter in {where}",
            )
        )
        _attack_order(turn, f"{rule} (b)", sam_id, flight, loal=True)
        return
    turn.emit(
        ev.DecisionMade(
            rule=rule,
            topic="event_option",
            result="none",
            explanation="Event!: neither option (a) nor (b) can be met",
        )
    )


def _attack_order(
    turn: DowntownTurn, rule: str, unit: str, flight: UsFlight, loal: bool = False
) -> None:
    """4.1.2: the placed unit's attack on the moving flight, which is its fire this
    Movement Phase (a Fire Can fires at its first flight, 2.3.1; a SAM that has attacked
    does not react, 3.4.4; evolve marks it fired)."""
    what = "SAM LOAL attack" if loal else "Fire Can attack"
    fired = (
        "it fires one missile (the seed gives no count: one SAM, the least a SAM attack "
        "fires, 3.4.5), has fired this Movement Phase and makes no SAM reaction to it (3.4.4)"
        if loal
        else "its fire this Movement Phase: a Fire Can fires at the first US flight to move "
        "within range (2.3.1)"
    )
    turn.emit(
        ev.DecisionMade(
            rule=rule,
            topic="attack_ordered",
            result=unit,
            order=(flight.id,),
            explanation=f"resolve a {what} by {unit} on {flight.id} (RollDrvAttack); {fired}",
            missiles=1 if loal else 0,
        )
    )


def end_of_movement(turn: DowntownTurn, flight: UsFlight) -> None:
    """4: a flight that spent all its MP without a random event rolls once, only 'Event!'
    counting, when (a) or (b) applies (4.1.2); otherwise the roll would change nothing,
    and the command is refused `nothing_to_do` (issue 41 item 8; it is not listed)."""
    why = end_of_movement_due(turn.state, turn.board, flight)
    if why:
        raise NothingToDo(f"EndUsFlightMovement changes nothing: {why}", rule=R_EVENTS)
    random_event(turn, flight, "", end_of_movement=True)
