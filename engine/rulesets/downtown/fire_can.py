"""2.2-2.3 Fire Can radars: activation, the Fire Can Deployment Table, behaviour."""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.dice import d10
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown import situation as sit
from umpire.engine.rulesets.downtown.labels import hexes
from umpire.engine.rulesets.downtown.state import AaaUnit, UsFlight
from umpire.engine.rulesets.downtown.tables import aaa_deployment
from umpire.engine.rulesets.downtown.terms import Mission, cite
from umpire.engine.rulesets.downtown.turn import DowntownTurn

R_ACTIVATE = cite("2.2.1")
R_BEHAVIOUR = cite("2.3.1")
R_SAM_RADAR = cite("3.4.1")
FIRE_CAN_MISSIONS = (Mission.STRIKE, Mission.RECON, Mission.IRON_HAND)


def eligible_aaa(turn: DowntownTurn) -> tuple[AaaUnit, ...]:
    """2.3: AAA concentration hexes that have not reached their Fire Can maximum."""
    cap = turn.state.setup.max_fire_cans_per_aaa
    return tuple(a for a in sorted(turn.state.aaa, key=lambda a: a.id) if a.fire_cans < cap)


def admin_activation(turn: DowntownTurn) -> None:
    """2.2.1: with an Iron Hand, Strike or Recon unit over land, roll one die; at most the
    number of inactive Fire Cans activates one, placed by the Fire Can Deployment Table.

    The public condition (a unit over land) is read before the hidden count: where it
    fails, the step rests on nothing hidden, so a blind dispute's finding on it need not
    wait for the reveal (engine/poison.py)."""
    if not sit.active_mission_over_land(turn.state, turn.board):
        _no_check(turn)
        return
    hidden = turn.state.hidden_fire_cans
    if hidden == 0:
        _no_check(turn)
        return
    roll = turn.roll(d10(), "Fire Can activation", R_ACTIVATE)
    n = 1 if roll.total <= hidden else 0
    turn.emit(
        ev.FireCanActivationChecked(
            rule=R_ACTIVATE,
            dice=(roll.roll,),
            roll=roll.total,
            activations=n,
            hidden_fire_cans=hidden,
            explanation=f"roll {roll.total} vs {hidden} inactive Fire Cans: {n} may activate",
        )
    )
    if n:
        deploy_from_table(turn)


def _no_check(turn: DowntownTurn) -> None:
    """2.2.1: no activation roll. One decision for either reason (its words, as logged since
    v1, name both), so a log reads the same whichever stopped it."""
    turn.emit(
        ev.DecisionMade(
            rule=R_ACTIVATE,
            topic="fire_can_activation",
            result="no check",
            explanation="no inactive Fire Can, or no Iron Hand/Strike/Recon unit over land",
        )
    )


def deploy_from_table(turn: DowntownTurn) -> bool:
    """2.3 Fire Can Deployment Table A-D; ties: closest to the raid target, then closest to a
    US Strike, Recon or Iron Hand flight."""
    board, state = turn.board, turn.state
    target = sit.target_hex(state, board)
    flights = sit.us_on_map(state)
    cands: list[Candidate] = []
    table = aaa_deployment.FIRE_CAN_TABLE
    for band in table.bands:
        row, letter = band.value, band.span
        rule = table.cite_row(band)
        if not row.place:
            turn.emit(
                ev.DecisionMade(
                    rule=rule,
                    topic="fire_can_deployment",
                    result="not placed",
                    candidates=tuple(cands),
                    explanation="rows A-C found no eligible hex",
                )
            )
            return False
        qualifying = [
            f
            for f in flights
            if f.mission in row.missions
            and (row.within_target is None or board.dist(f.hex, target) <= row.within_target)
        ]
        eligible = eligible_aaa(turn)
        if row.within_aaa is None:
            options = [a for a in eligible if a.hex == target] if qualifying else []
        else:
            assert row.within_aaa is not None
            reach = row.within_aaa
            options = [
                a for a in eligible if any(board.dist(f.hex, a.hex) <= reach for f in qualifying)
            ]
        if not options:
            cands.append(
                Candidate(
                    option=f"row {letter}",
                    chosen=False,
                    reason="no eligible AAA hex for this row",
                )
            )
            continue
        mission_flights = [f for f in flights if f.mission in FIRE_CAN_MISSIONS]

        def key(a: AaaUnit, mf: list[UsFlight] = mission_flights) -> tuple[int, int, str]:
            near = min((board.dist(a.hex, f.hex) for f in mf), default=999)
            return (board.dist(a.hex, target), near, a.hex)

        ranked = sorted(options, key=key)
        chosen = ranked[0]
        cands += [
            Candidate(
                option=f"row {letter}: {a.hex}",
                chosen=a is chosen,
                reason=_deployment_reason(a is chosen, key(a), key(chosen)),
            )
            for a in ranked
        ]
        place(turn, chosen, rule, tuple(cands), f"row {letter}: Fire Can in {chosen.hex}")
        return True
    return False  # pragma: no cover


def _deployment_reason(chosen: bool, key: tuple[int, int, str], best: tuple[int, int, str]) -> str:
    """Why a 2.3 hex was taken or set aside: closest to the raid target, then to a US
    Strike, Recon or Iron Hand flight, then the hex label (an equally close hex is not
    'farther')."""
    if chosen:
        return "closest to the raid target, then to a US flight"
    if key[0] > best[0]:
        return f"farther from the raid target ({hexes(key[0])})"
    if key[1] > best[1]:
        return f"as close to the raid target, farther from the US flights ({hexes(key[1])})"
    return "as close to the raid target and to the US flights: a later hex label"


def place(
    turn: DowntownTurn, aaa: AaaUnit, rule: str, cands: tuple[Candidate, ...], why: str
) -> str:
    """Place a Fire Can on a AAA hex with its radar on (2.3)."""
    unit_id = turn.new_id("FC")
    turn.emit(
        ev.FireCanPlaced(
            rule=rule,
            unit_id=unit_id,
            hex=aaa.hex,
            aaa_id=aaa.id,
            candidates=cands,
            explanation=f"{why}, radar on",
        )
    )
    return unit_id


def fire_at_mover(turn: DowntownTurn, flight_id: str, hex_: str) -> None:
    """2.3.1: a Fire Can with its radar on fires at the first US flight to move within range
    in the Movement Phase (range: setup `fire_can_range`, a base-game value)."""
    reach = turn.state.setup.fire_can_range
    for fc in sorted(turn.state.fire_cans, key=lambda f: f.id):
        if fc.radar_on and not fc.fired and turn.board.dist(fc.hex, hex_) <= reach:
            turn.emit(
                ev.DecisionMade(
                    rule=R_BEHAVIOUR,
                    topic="fire_can_fires",
                    result=fc.id,
                    order=(flight_id,),
                    explanation=(
                        f"{fc.id} fires at {flight_id}, the first US flight to move within "
                        f"{hexes(reach)}; roll it with RollDrvAttack"
                    ),
                )
            )


def radar_restart(turn: DowntownTurn) -> None:
    """2.3.1 / 3.4.1: a radar shut down by an ARM Morale roll rolls to come back on in every
    Admin Phase (on a d10 at most `radar_restart_max`, a documented base-game parameter)."""
    limit = turn.state.setup.radar_restart_max
    units = [(f.id, R_BEHAVIOUR) for f in turn.state.fire_cans if not f.radar_on]
    units += [
        (s.id, R_SAM_RADAR) for s in turn.state.sams if s.status == "active" and not s.radar_on
    ]
    for unit_id, rule in sorted(units):
        roll = turn.roll(d10(), f"radar back on {unit_id}", rule)
        back_on = roll.total <= limit
        turn.emit(
            ev.RadarRestartRolled(
                rule=rule,
                dice=(roll.roll,),
                unit_id=unit_id,
                roll=roll.total,
                back_on=back_on,
                explanation=(
                    f"{unit_id} rolls {roll.total} to turn its radar back on ({limit} or less "
                    f"turns it on): {'radar on' if back_on else 'radar stays off'}"
                ),
            )
        )
