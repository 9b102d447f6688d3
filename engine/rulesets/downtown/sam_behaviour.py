"""3.4 SAM behaviour: the SAM Acquisition Table (A-J) and the SAM Reaction Table (1-7)."""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.dice import custom
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown import situation as sit
from umpire.engine.rulesets.downtown.labels import LABELS
from umpire.engine.rulesets.downtown.state import Sam, UsFlight
from umpire.engine.rulesets.downtown.tables import dummy_check, sam_acquisition, sam_reaction
from umpire.engine.rulesets.downtown.terms import (
    ALTITUDE_INDEX,
    AcqLevel,
    Altitude,
    FireMode,
    SamStatus,
    Task,
    cite,
)
from umpire.engine.rulesets.downtown.turn import DowntownTurn

LOW = ALTITUDE_INDEX[Altitude.LOW.value]
R_SHORT = cite("3.4.5 option 1")


def acquisition_phase(turn: DowntownTurn) -> None:
    """3.4.2: every SAM with its radar on goes through the Acquisition Table A-J."""
    for sam in sorted(turn.state.sams, key=lambda s: s.id):
        if sam.status is SamStatus.ACTIVE and sam.radar_on:
            acquire(turn, sam)


def acquire(turn: DowntownTurn, sam: Sam) -> None:
    """3.4.3 SAM Acquisition Table: rows A to J until the SAM takes an action."""
    board, state = turn.board, turn.state
    flights = sit.us_on_map(state)
    drv = sit.airborne(state)
    clear = sam_acquisition.drv_clear_range(state.setup.year)
    current = next((f for f in flights if f.id == sam.target), None)
    cands: list[Candidate] = []

    def d(f: UsFlight) -> int:
        return board.dist(sam.hex, f.hex)

    def no_drv_near(f: UsFlight) -> bool:
        return all(board.dist(f.hex, m.hex) > clear for m in drv)

    def sead_threat() -> bool:
        return any(
            f.task is Task.SEAD and d(f) <= 5 and sit.in_front_arc(board, f, sam.hex)
            for f in flights
        )

    def done(row: str, action: str, target: UsFlight | None, why: str) -> None:
        cands.append(Candidate(option=f"row {row}", chosen=True, reason=why))
        turn.emit(
            ev.SamAcquisitionDecided(
                rule=sam_acquisition.TABLE.row(row).citation,
                sam_id=sam.id,
                row=row,
                action=action,
                target=target.id if target else "",
                candidates=tuple(cands),
                explanation=f"{sam.id} row {row}: {why}",
            )
        )

    def skip(row: str, why: str) -> None:
        cands.append(Candidate(option=f"row {row}", chosen=False, reason=why))

    tracking = current is not None and sam.level is not AcqLevel.NONE
    if sam.launch and current is not None:
        return done("A", "keep", current, f"SAM Launch marker: keeps tracking {current.id}")
    skip("A", "no SAM Launch marker")
    to_f = False
    if tracking and current is not None and not no_drv_near(current):
        to_f = True
        turn.emit(
            ev.SamAcquisitionDecided(
                rule=sam_acquisition.TABLE.row("B").citation,
                sam_id=sam.id,
                row="B",
                action="drop",
                target=current.id,
                explanation=f"{current.id} within {clear} of a DRV flight: drop",
            )
        )
        cands.append(Candidate(option="row B", chosen=True, reason="dropped; go to F"))
        tracking = False
    else:
        skip("B", "no acquired flight near a DRV flight")
    if not to_f:
        if tracking and current is not None and d(current) <= 5:
            return done("C", "keep", current, f"{current.id} within 5 hexes: keep tracking")
        skip("C", "no acquired flight within 5")
        if (
            tracking
            and current is not None
            and sam.level is AcqLevel.FULL
            and d(current) <= 12
            and sit.in_front_arc(board, current, sam.hex)
        ):
            return done("D", "keep", current, f"fully acquired {current.id}, SAM in its front arc")
        skip("D", "no fully acquired flight within 12 with the SAM in its front arc")
        if (
            tracking
            and current is not None
            and ALTITUDE_INDEX[current.altitude.value] >= LOW
            and d(current) <= 8
            and not sead_threat()
        ):
            return done("E", "keep", current, f"{current.id} at Low+ within 8, no SEAD threat")
        skip("E", "row E conditions not met")
    bombers = sorted(
        (
            f
            for f in flights
            if f.task is Task.BOMBING
            and d(f) <= 8
            and ALTITUDE_INDEX[f.altitude.value] >= LOW
            and no_drv_near(f)
        ),
        key=lambda f: (d(f), f.id),
    )
    if bombers and not sead_threat():
        return done("F", "acquire", bombers[0], f"tries to acquire nearest bomber {bombers[0].id}")
    skip("F", "no bomber at Low+ within 8 clear of DRV flights, or a SEAD threat")
    seads = sorted(
        (
            f
            for f in flights
            if f.task is Task.SEAD
            and d(f) <= 8
            and sit.in_front_arc(board, f, sam.hex)
            and no_drv_near(f)
        ),
        key=lambda f: (d(f), f.id),
    )
    if seads:
        return done("G", "acquire", seads[0], f"tries to acquire SEAD flight {seads[0].id}")
    skip("G", "no SEAD flight with the site in its front arc within 8")
    ranked = sorted(flights, key=lambda f: (d(f), f.id))
    near = [f for f in ranked if d(f) <= 5]
    if near:
        return done("H", "acquire", near[0], f"nearest flight within 5: {near[0].id}")
    skip("H", "no flight within 5")
    arc = [f for f in ranked if sit.in_front_arc(board, f, sam.hex)]
    if arc:
        return done(
            "I", "acquire", arc[0], f"nearest flight with the site in its front arc: {arc[0].id}"
        )
    skip("I", "no flight has the site in its front arc")
    if ranked:
        return done("J", "acquire", ranked[0], f"nearest flight {ranked[0].id}")
    turn.emit(
        ev.DecisionMade(
            rule=sam_acquisition.CITATION,
            topic="sam_acquisition",
            result=f"{sam.id}: none",
            candidates=tuple(cands),
            explanation="no US flight",
        )
    )


def react(turn: DowntownTurn, flight: UsFlight) -> None:
    """3.4.4-3.4.5: each unfired SAM that has acquired the moving flight consults the SAM
    Reaction Table, options 1 to 7, when the flight spends a Movement Point."""
    for sam in sorted(turn.state.sams, key=lambda s: s.id):
        if (
            sam.status is not SamStatus.ACTIVE
            or sam.fired
            or sam.target != flight.id
            or sam.level is AcqLevel.NONE
        ):
            continue
        distance = turn.board.dist(sam.hex, flight.hex)
        option, fire = sam_reaction.react(sam.level, distance, flight.task)
        number = option.option if option else 0
        rule = sam_reaction.TABLE.row(str(number)).citation if option else sam_reaction.CITATION
        task = LABELS.words("task", flight.task).lower()
        why = f"{sam.level.value} acquisition, range {distance}, task {task}"
        if fire is not FireMode.NOTHING and number in sam.inhibited:
            turn.emit(
                ev.DecisionMade(
                    rule=rule,
                    topic="sam_inhibited",
                    result=sam.id,
                    explanation=f"{sam.id} option {number} is inhibited this Movement Phase",
                )
            )
            continue
        left = turn.state.setup.sam_missiles - sam.spent
        if fire is not FireMode.NOTHING and left <= 0:
            turn.emit(
                ev.DecisionMade(
                    rule=f"{rule} (ammunition)",
                    topic="sam_out_of_ammo",
                    result=sam.id,
                    explanation=f"{sam.id}: {why} -> {fire.value}, but no missiles are left",
                )
            )
            continue
        if fire is not FireMode.NOTHING and sam.dummy_radar and not first_fire_check(turn, sam):
            continue
        fire, note = ammunition(fire, left, turn.state.setup.sam_salvo)
        if note:
            rule = f"{rule} (insufficient ammo: {R_SHORT})"
        turn.emit(
            ev.SamReacted(
                rule=rule,
                sam_id=sam.id,
                flight_id=flight.id,
                option=number,
                fire=fire.value,
                missiles=missiles(fire, turn.state.setup.sam_salvo),
                explanation=f"{sam.id}: {why} -> {fire.value}{note}",
            )
        )


def missiles(fire: FireMode, salvo: int) -> int:
    """The missiles an order expends: a salvo `Setup.sam_salvo`, one SAM one, nothing none."""
    return salvo if fire is FireMode.SALVO else 1 if fire is FireMode.ONE else 0


def ammunition(fire: FireMode, left: int, salvo: int) -> tuple[FireMode, str]:
    """3.4.5 option 1 (000_842c81c5c58bc2f6.txt): "Fire a Salvo. If there is insufficient
    ammo, fire one SAM." A salvo ordered with fewer than `salvo` missiles left fires one SAM;
    the same for the salvos of options 2 and 3 (README ledger, 3.4.5). Returns the order and
    a note for the explanation ("" when nothing changed)."""
    if fire is FireMode.SALVO and left < salvo:
        return FireMode.ONE, f" (insufficient ammo: {left} left, a salvo needs {salvo}: one SAM)"
    return fire, ""


def first_fire_check(turn: DowntownTurn, sam: Sam) -> bool:
    """3.3.2 row 9: a possible dummy radar makes another dummy check on its first attempt to
    fire; below 10 the site is a dummy and is removed. "Another dummy check" is read as the
    check 3.3.1 defines, with its "+1 for each dummy discovered so far"; the setup switch
    `first_fire_counts_dummies` makes it a bare roll (README ledger, 3.3.2 row 9)."""
    side = turn.state.setup.dummy_check_die
    roll = turn.roll(custom(side, side), f"dummy radar check {sam.id}", dummy_check.CITATION)
    found = turn.state.dummies_found if turn.state.setup.first_fire_counts_dummies else 0
    total = roll.total + found
    ok = dummy_check.passes_first_fire(total)
    turn.emit(
        ev.SamDummyChecked(
            rule=f"{dummy_check.CITATION} row 9",
            dice=(roll.roll,),
            sam_id=sam.id,
            roll=roll.total,
            total=total,
            result="first_fire",
            outcome="passes" if ok else "removed",
            explanation=(
                f"{sam.id} first fire: {roll.total} + {found} dummies found = {total} "
                f"{'>= 10, real' if ok else '< 10, a dummy'}"
            ),
        )
    )
    return ok
