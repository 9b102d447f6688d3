"""5: damage effects, a second damage shooting down (5.4), bomber thresholds (4.1.4-4.1.6)
and jettisoning when damaged (9.2.4). The rating penalties themselves are applied in
performance.py (5.1, 5.2); 5.3 formation aircraft only drop out (4.1.5)."""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.kit.citation import rule_number
from umpire.engine.rulesets.down_in_flames.events import (
    AircraftDamaged,
    AircraftShotDown,
    BomberDamagePointsTaken,
)
from umpire.engine.rulesets.down_in_flames.state import Plane, State
from umpire.engine.rulesets.down_in_flames.tables.bomber import (
    damaged_threshold_met,
    shot_down_threshold_met,
)
from umpire.engine.rulesets.down_in_flames.terms import Outcome, Station, cite
from umpire.engine.rulesets.down_in_flames.turn import DownInFlamesTurn

EFFECTS = {
    Station.LEADER: "Horsepower -1, Agility -2 if above 4 else -1, Speed -1 (5.1.1-5.1.3)",
    Station.WINGMAN: "card draw -1: defense if greater, otherwise offense (5.2)",
    Station.FORMATION: "drops out of formation; no other effect (4.1.5, 5.3)",
}


def fighter_result(target: Plane, outcome: Outcome) -> Outcome:
    """5.4: what an odds-system result does to a fighter or light bomber (a second damage
    shoots it down)."""
    if outcome is Outcome.NO_EFFECT:
        return outcome
    if outcome is Outcome.SHOT_DOWN or target.damaged:
        return Outcome.SHOT_DOWN
    return Outcome.DAMAGED


def fighter_damage(
    turn: DownInFlamesTurn, target: Plane, outcome: Outcome, rule: str, dice: tuple[int, ...]
) -> None:
    """Emit an odds-system result's damage to a fighter or light bomber (`fighter_result`):
    5.4 a second damage shoots it down; 9.2.4 damage jettisons bombs or torpedoes."""
    if outcome is Outcome.NO_EFFECT:
        return
    candidates = (
        Candidate(option="shot down", chosen=outcome is Outcome.SHOT_DOWN or target.damaged,
                  reason="the roll shot it down, or it was already damaged (5.4)"),
        Candidate(option="damaged", chosen=outcome is Outcome.DAMAGED and not target.damaged,
                  reason="first damage: ratings reduced (5.1, 5.2)"),
    )  # fmt: skip
    if outcome is Outcome.SHOT_DOWN:
        turn.emit(
            AircraftShotDown(
                aircraft=target.id,
                rule=rule,
                dice=dice,
                candidates=candidates,
                explanation=f"{target.id} is shot down ({rule_number(rule)})",
            )
        )
        return
    if target.damaged:
        turn.emit(
            AircraftShotDown(
                aircraft=target.id,
                rule=cite("5.4"),
                dice=dice,
                candidates=candidates,
                explanation=f"{target.id} was already damaged: damaged a second time, it is "
                "shot down",
            )
        )
        return
    turn.emit(
        AircraftDamaged(
            aircraft=target.id,
            dropped_out=False,
            jettisoned=target.loaded,
            rule=cite("5.1") if target.station is Station.LEADER else cite("5.2"),
            dice=dice,
            candidates=candidates,
            explanation=f"{target.id} is damaged: {EFFECTS[target.station]}"
            + ("; it jettisons its load (9.2.4)" if target.loaded else ""),
        )
    )


def bomber_result(state: State, target: Plane, points: int) -> Outcome:
    """4.1.4-4.1.6: what `points` more damage points do to a bomber: shot down at its full
    defense rating, damaged (once) at half of it."""
    defense = state.card_of(target).defense
    total = target.damage_points + points
    if shot_down_threshold_met(total, defense):
        return Outcome.SHOT_DOWN
    if damaged_threshold_met(total, defense) and not target.damaged:
        return Outcome.DAMAGED
    return Outcome.NO_EFFECT


def bomber_damage(
    turn: DownInFlamesTurn, state: State, target: Plane, points: int, dice: tuple[int, ...]
) -> None:
    """4.1.3-4.1.6: emit the damage points taken and what they do (`bomber_result`):
    damaged (and out of formation) at half the defense rating, shot down at the full one."""
    defense = state.card_of(target).defense
    total = target.damage_points + points
    down, half = shot_down_threshold_met(total, defense), damaged_threshold_met(total, defense)
    candidates = (
        Candidate(option="shot down", chosen=down,
                  reason=f"{total} points reach defense {defense}"),
        Candidate(option="damaged", chosen=half and not down and not target.damaged,
                  reason=f"{total} points reach half of defense {defense}"),
        Candidate(option="no change", chosen=not down and not (half and not target.damaged),
                  reason="below the next threshold, or already damaged"),
    )  # fmt: skip
    if points:
        turn.emit(
            BomberDamagePointsTaken(
                aircraft=target.id, points=points, total=total, rule=cite("4.1.3")
            )
        )
    result = bomber_result(state, target, points)
    if result is Outcome.SHOT_DOWN:
        turn.emit(
            AircraftShotDown(
                aircraft=target.id,
                rule=cite("4.1.6"),
                dice=dice,
                candidates=candidates,
                # 4.1.6 "equal to its defense rating": one attack can take it past.
                explanation=f"{target.id} has {total} damage points, "
                + ("equal to" if total == defense else "more than")
                + f" its defense rating {defense}: shot down",
            )
        )
    elif result is Outcome.DAMAGED:
        turn.emit(
            AircraftDamaged(
                aircraft=target.id,
                dropped_out=True,
                jettisoned=False,
                rule=cite("4.1.4"),
                dice=dice,
                candidates=candidates,
                explanation=f"{target.id} has {total} damage points, at least half its "
                f"defense rating {defense}: damaged, it drops out of formation (4.1.5)",
            )
        )
