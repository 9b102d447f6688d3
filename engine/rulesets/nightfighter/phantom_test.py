"""S5.4 HIGH UNCERTAINTY: the phantom test, with its exact removal and re-roll rules."""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.dice import d6
from umpire.engine.rulesets.nightfighter.events import PhantomTested
from umpire.engine.rulesets.nightfighter.state import Counter, high_counters
from umpire.engine.rulesets.nightfighter.terms import PhantomResult, Uncertainty, cite
from umpire.engine.rulesets.nightfighter.turn import NightfighterTurn
from umpire.events.plurals import counted
from umpire.events.types import Owner

RULE = cite("S5.4")


def real_on(others: int) -> int:
    """S5.4: the highest roll that shows the tested counter is the real bomber.

    One other counter: 1-3; two others: 1-2; three or more: 1 (re-rolling any score above
    the number of high counters in play for the bomber, the tested one included).
    """
    if others <= 0:
        raise ValueError("a phantom test needs at least one other high uncertainty counter")
    return {1: 3, 2: 2}.get(others, 1)


def phantom_test(turn: NightfighterTurn, counter: Counter, why: str) -> PhantomTested:
    """S5.4: roll for a high uncertainty counter; emits the DiceRolled events and the
    PhantomTested decision (removed counters, and which counter becomes moderate), which it
    returns; `turn.state` then shows the counters it removed."""
    state = turn.state
    group = high_counters(state, counter.bomber)
    others = tuple(c for c in group if c.id != counter.id)
    total = len(group)
    rule = RULE if len(others) < 3 else f"{RULE} (three or more others: re-roll above {total})"
    threshold = real_on(len(others))
    rolls = []
    while True:
        roll = turn.roll(
            d6(), purpose=f"phantom test of {counter.id} ({why})", rule=rule, owner=Owner.OPPONENT
        )
        rolls.append(roll)
        if len(others) < 3 or roll.total <= total:
            break
    value = rolls[-1].total
    real = value <= threshold
    level = Uncertainty.LOW if state.setup.contrails else Uncertainty.MODERATE
    if real:
        removed = tuple(sorted(c.id for c in others))
        now: tuple[str, ...] = (counter.id,)
        result = PhantomResult.REAL
        text = (
            f"{counter.id} is the real {counter.bomber} (roll {value} <= {threshold}): "
            f"{counted(len(removed), 'other counter')} removed; it becomes {level.value} "
            "uncertainty"
        )
    else:
        removed = (counter.id,)
        remaining = tuple(c.id for c in others)
        now = remaining if len(remaining) == 1 else ()
        result = PhantomResult.PHANTOM
        text = f"{counter.id} is a phantom (roll {value} > {threshold}) and is removed"
        if now:
            text += f"; the last counter {now[0]} becomes {level.value} uncertainty"
    rerolled = [r.total for r in rolls[:-1]]
    if rerolled:
        text += f" (re-rolled {rerolled}: above the {total} counters in play)"
    cands = (
        Candidate(
            option=f"{counter.id} real",
            chosen=real,
            reason=f"roll 1-{threshold} with {len(others)} other counters",
        ),
        Candidate(
            option=f"{counter.id} phantom",
            chosen=not real,
            reason=f"roll {threshold + 1}+ with {len(others)} other counters",
        ),
    )
    tested = PhantomTested(
        rule=rule,
        dice=tuple(r.roll for r in rolls),
        candidates=cands,
        explanation=text,
        counter=counter.id,
        bomber=counter.bomber,
        others=len(others),
        value=value,
        result=result,
        removed=removed,
        now_moderate=now,
        now_level=level.value,
    )
    turn.emit(tested)
    return tested
