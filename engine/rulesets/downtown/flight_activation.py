"""5.6-5.7.1 flight activation: activation checks, visual identification, the Flights limit
after identification (5.4.1) and the GCI level."""

from __future__ import annotations

from umpire.engine.dice import d100
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown import situation as sit
from umpire.engine.rulesets.downtown.state import DrvFlight
from umpire.engine.rulesets.downtown.tables import air_activation as table
from umpire.engine.rulesets.downtown.terms import ActivationReason, Mission, cite
from umpire.engine.rulesets.downtown.turn import DowntownTurn

R_LIMIT = cite("5.4.1")
R_CHECK = cite("5.6.1")
R_VID = cite("5.6.2")
R_GCI = cite("5.7.1")


def _scenario(turn: DowntownTurn) -> table.Scenario:
    return table.scenario(turn.state.setup.scenario)


def _percentile(turn: DowntownTurn, purpose: str, rule: str) -> tuple[int, int]:
    """1.2.3 Percentile Rolls (engine.dice.d100, '00' reads 100)."""
    roll = turn.roll(d100(), purpose, rule)
    return roll.total, roll.roll


def gci(turn: DowntownTurn) -> None:
    """5.7.1: detected or visually identified DRV flights in flight above the GCI level."""
    up = [f.id for f in sit.airborne(turn.state) if f.detected or f.visual_id]
    level = turn.state.setup.gci_level
    over = len(up) > level
    turn.emit(
        ev.DecisionMade(
            rule=R_GCI,
            topic="gci",
            result="exceeded" if over else "ok",
            explanation=(
                f"{len(up)} detected/identified DRV flights vs GCI level {level}: "
                + (
                    "reduce the detection level per the GCI Level rule; activation "
                    "checks reveal dummies while exceeded"
                    if over
                    else "within"
                )
            ),
        )
    )


def gci_exceeded(turn: DowntownTurn) -> bool:
    """Whether the GCI level is exceeded now (5.7.1)."""
    up = [f for f in sit.airborne(turn.state) if f.detected or f.visual_id]
    return len(up) > turn.state.setup.gci_level


def activation_check(turn: DowntownTurn, flight: DrvFlight, reason: ActivationReason) -> None:
    """5.6.1: percentile roll; in the Dummy range the flight is a dummy and is removed, above
    it a real flight. While the GCI level is exceeded every check reveals a dummy (5.7.1)."""
    scn = _scenario(turn)
    total, n = _percentile(turn, f"activation check {flight.id} ({reason.value})", R_CHECK)
    over = gci_exceeded(turn)
    real = not table.is_dummy(scn, total) and not over
    follow = {
        ActivationReason.PROXIMITY: "engagement check with the DRV flight as attacker",
        ActivationReason.TARGETED: "the DRV flight rolls for engagement",
        ActivationReason.DETECTION: "it becomes detected",
    }[reason]
    turn.emit(
        ev.ActivationChecked(
            rule=f"{R_CHECK} ({reason.value}); {table.CITATION} {scn.scenario} Dummy #",
            dice=(n,),
            flight_id=flight.id,
            reason=reason.value,
            roll=total,
            real=real,
            explanation=(
                f"roll {total} vs Dummy # {scn.dummy.lo:02d}-{scn.dummy.hi:02d}"
                + ("; GCI level exceeded: a dummy" if over else "")
                + (f": real flight; {follow}" if real else ": a dummy, removed")
            ),
        )
    )
    if not real:
        turn.emit(
            ev.DrvFlightRemoved(
                rule=R_CHECK,
                flight_id=flight.id,
                reason="dummy",
                explanation=f"{flight.id} was a dummy",
            )
        )


def visual_identification(turn: DowntownTurn, flight: DrvFlight) -> None:
    """5.6.2: percentile roll in the 2x/3x/4x columns: count and type (a profile flight off
    its row gets two of its profile); † ends all generic flights, £ allows one more ID;
    the Flights value drops by one (5.4.1)."""
    if turn.state.vid_limit == 0:
        turn.emit(
            ev.DecisionMade(
                rule=R_VID,
                topic="visual_id",
                result="refused",
                explanation="£: no more flights may be visually identified",
            )
        )
        return
    scn = _scenario(turn)
    total, n = _percentile(turn, f"visual identification {flight.id}", R_VID)
    result = table.visual_id(scn, total, flight.profile)
    turn.emit(
        ev.VisualIdentified(
            rule=result.row,
            dice=(n,),
            flight_id=flight.id,
            roll=total,
            count=result.count,
            aircraft=result.aircraft,
            note=result.note,
            explanation=f"roll {total}: {result.count} x {result.aircraft} {result.note}".strip(),
        )
    )
    if result.note == table.NO_MORE_FLIGHTS:
        for f in sit.generic(turn.state):
            turn.emit(
                ev.DrvFlightRemoved(
                    rule=R_VID,
                    flight_id=f.id,
                    reason="†",
                    explanation="† rolled: all generic DRV flights leave the map",
                )
            )
    enforce_limit(turn)


def enforce_limit(turn: DowntownTurn) -> None:
    """5.4.1: over the Flights limit, remove generic counters farthest from a US strike or
    recon flight (or from the strike mission's entry hex)."""
    board = turn.board
    refs = [
        f.hex for f in sit.us_on_map(turn.state) if f.mission in (Mission.STRIKE, Mission.RECON)
    ]
    refs = refs or [sit.entry_hex(turn.state, board)]
    while len(sit.generic(turn.state)) > sit.flight_limit(turn.state):
        far = sorted(
            sit.generic(turn.state), key=lambda f: (-min(board.dist(f.hex, r) for r in refs), f.id)
        )[0]
        turn.emit(
            ev.DrvFlightRemoved(
                rule=R_LIMIT,
                flight_id=far.id,
                reason="over limit",
                explanation=f"over the Flights limit: {far.id} is farthest from the strike",
            )
        )
